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
