import { STORAGE_KEYS } from '../../../domain/constants';
import type { Session } from '../../../domain/auth-schemas';
import { readJson, removeKey, writeJson } from '../../lib/storage';

export type { Session };
export type SessionUser = Session['user'];

/** Spec §9: the auto-refresh check runs every 30 s and refreshes when 3 or fewer ticks remain. */
export const AUTO_REFRESH_TICK_MS = 30_000;
export const AUTO_REFRESH_TICK_THRESHOLD = 3;

export function readStoredSession(): Session | null {
  const session = readJson<Session>(STORAGE_KEYS.session);
  return session && typeof session.access_token === 'string' && session.user ? session : null;
}

export function storeSession(session: Session): void {
  writeJson(STORAGE_KEYS.session, session);
}

export function clearStoredSession(): void {
  removeKey(STORAGE_KEYS.session);
}

/** True when the access token expires within the refresh margin (or already has). */
export function isSessionDueForRefresh(session: Session, now = Date.now()): boolean {
  return session.expires_at * 1000 - now <= AUTO_REFRESH_TICK_THRESHOLD * AUTO_REFRESH_TICK_MS;
}

/**
 * While a platform user acts as a member (decision 017), their own session waits here, with what
 * the impersonation is; the member's session is the stored session meanwhile. End (or expiry)
 * brings the platform session back.
 */
export type ImpersonationStash = {
  platformSession: Session;
  /** The organization selection of the platform user, put back afterwards. */
  savedSelection: { org: string | null; site: string | null };
  impersonation: {
    id: string;
    orgId: string;
    orgName: string;
    email: string;
    role: string;
    expiresAt: string;
  };
};

export const IMPERSONATION_STASH_KEY = 'baywise.auth.impersonation';

export function readImpersonationStash(): ImpersonationStash | null {
  const stash = readJson<ImpersonationStash>(IMPERSONATION_STASH_KEY);
  return stash && stash.platformSession?.access_token && stash.impersonation?.id ? stash : null;
}

export function storeImpersonationStash(stash: ImpersonationStash): void {
  writeJson(IMPERSONATION_STASH_KEY, stash);
}

export function clearImpersonationStash(): void {
  removeKey(IMPERSONATION_STASH_KEY);
}
