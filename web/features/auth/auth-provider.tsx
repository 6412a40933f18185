import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { StartImpersonationInput } from '../../../domain/auth-schemas';
import { STORAGE_KEYS } from '../../../domain/constants';
import { ApiError, errorMessage, setUnauthorizedHandler } from '../../lib/api-client';
import { removeKey, writeJson } from '../../lib/storage';
import { toast } from '../../lib/toast';
import { completeMfaSignIn as completeMfaSignInRequest, type MfaProof } from './api/complete-mfa-sign-in';
import { currentUserRoleQueryOptions } from './api/get-current-user-role';
import { endImpersonationAsMember, endImpersonationAsPlatformUser, requestImpersonation } from './api/impersonation';
import { refreshSession } from './api/refresh-session';
import { signInDockmaster as signInDockmasterRequest, type DockmasterCredentials } from './api/sign-in-dockmaster';
import { signInWithPassword, type PasswordCredentials } from './api/sign-in-with-password';
import { signOutOnServer } from './api/sign-out';
import { AuthContext, type ActiveImpersonation, type AuthContextValue, type EndedImpersonation, type SignInResult } from './auth-context';
import {
  AUTO_REFRESH_TICK_MS,
  clearImpersonationStash,
  clearStoredSession,
  IMPERSONATION_STASH_KEY,
  isSessionDueForRefresh,
  readImpersonationStash,
  readStoredSession,
  storeImpersonationStash,
  storeSession,
  type Session,
} from './session';

/** The stash, when it belongs to the stored session (a stale one, e.g. after a crash, is dropped). */
function currentImpersonation(session: Session | null): ActiveImpersonation | null {
  const stash = readImpersonationStash();
  if (!stash) return null;
  if (!session || session.user.email.toLowerCase() !== stash.impersonation.email.toLowerCase()) return null;
  return stash.impersonation;
}

/** Puts a saved selection back as it was (raw localStorage values). */
function restoreSelection(key: string, raw: string | null) {
  if (raw) writeJson(key, JSON.parse(raw));
  else removeKey(key);
}

const rawItem = (key: string) => {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
};

/**
 * Holds the session (kept in localStorage as the API returned it), its role, and keeps the
 * access token fresh: every 30 s it checks, and refreshes when 90 s or less remain. A failed
 * refresh signs out locally.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session | null>(() => readStoredSession());
  const [isLoading, setIsLoading] = useState(true);
  const sessionRef = useRef(session);
  const refreshInFlight = useRef<Promise<Session | null> | null>(null);
  const [impersonation, setImpersonation] = useState<ActiveImpersonation | null>(() => currentImpersonation(readStoredSession()));
  const [endedImpersonation, setEndedImpersonation] = useState<EndedImpersonation | null>(null);
  const endingRef = useRef<Promise<void> | null>(null);

  const applySession = useCallback((next: Session) => {
    storeSession(next);
    sessionRef.current = next;
    setSession(next);
  }, []);

  const forgetSession = useCallback(() => {
    clearStoredSession();
    sessionRef.current = null;
    setSession(null);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'public-booking' });
  }, [queryClient]);

  /** Drops every cached answer of the session being left (the next one must not see them). */
  const clearSessionQueries = useCallback(() => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'public-booking' });
  }, [queryClient]);

  /**
   * Ends the impersonation: on the server with the member's session (or, when that one is over,
   * with the platform user's), then the platform session and its organization selection come back.
   */
  const endImpersonation = useCallback(
    (outcome: 'ended' | 'expired' = 'ended'): Promise<void> => {
      if (endingRef.current) return endingRef.current;
      const stash = readImpersonationStash();
      if (!stash) return Promise.resolve();
      const run = (async () => {
        const member = sessionRef.current;
        let isEndedOnServer = false;
        if (member && member.user.email.toLowerCase() === stash.impersonation.email.toLowerCase()) {
          try {
            await endImpersonationAsMember(member.access_token);
            isEndedOnServer = true;
          } catch (error) {
            if (!(error instanceof ApiError && (error.status === 401 || error.status === 409))) console.error('Ending the impersonation failed', error);
          }
        }
        let platform: Session | null = stash.platformSession;
        if (isSessionDueForRefresh(platform)) platform = await refreshSession(platform.refresh_token).catch(() => null);
        if (platform && !isEndedOnServer) {
          // The member's session is over (expiry, suspension): record the end with the platform session.
          await endImpersonationAsPlatformUser(platform.access_token, stash.impersonation.id).catch((error: unknown) => {
            if (!(error instanceof ApiError && error.status === 409)) console.error('Recording the end of the impersonation failed', error);
          });
        }
        restoreSelection(STORAGE_KEYS.selectedOrg, stash.savedSelection.org);
        restoreSelection(STORAGE_KEYS.selectedSite, stash.savedSelection.site);
        clearImpersonationStash();
        clearSessionQueries();
        setImpersonation(null);
        if (platform) {
          applySession(platform);
          setEndedImpersonation({ orgId: stash.impersonation.orgId, email: stash.impersonation.email, outcome: isEndedOnServer ? 'ended' : outcome });
        } else {
          clearStoredSession();
          sessionRef.current = null;
          setSession(null);
          toast.info('Session expired', 'Please sign in again.');
        }
      })().finally(() => {
        endingRef.current = null;
      });
      endingRef.current = run;
      return run;
    },
    [applySession, clearSessionQueries],
  );

  const refresh = useCallback((): Promise<Session | null> => {
    if (refreshInFlight.current) return refreshInFlight.current;
    const current = sessionRef.current;
    if (!current) return Promise.resolve(null);
    // Another tab may already have rotated the token: adopt its newer session instead.
    const stored = readStoredSession();
    if (stored && stored.user.id === current.user.id && stored.expires_at > current.expires_at && !isSessionDueForRefresh(stored)) {
      applySession(stored);
      return Promise.resolve(stored);
    }
    const run = refreshSession(current.refresh_token)
      .then((next) => {
        applySession(next);
        return next;
      })
      .catch(async (error: unknown) => {
        if (readImpersonationStash()) {
          // The impersonation's 30 minutes are over (or it was ended elsewhere): back to the platform session.
          await endImpersonation('expired');
          return null;
        }
        console.error('Session refresh failed; signing out locally.', error);
        forgetSession();
        toast.info('Session expired', 'Please sign in again.');
        return null;
      })
      .finally(() => {
        refreshInFlight.current = null;
      });
    refreshInFlight.current = run;
    return run;
  }, [applySession, forgetSession, endImpersonation]);

  // First session check: a stored session that is about to expire is refreshed before we say
  // whether the user is logged in.
  useEffect(() => {
    const stored = sessionRef.current;
    if (stored && isSessionDueForRefresh(stored)) {
      void refresh().finally(() => setIsLoading(false));
    } else {
      setIsLoading(false);
    }
  }, [refresh]);

  // Auto-refresh tick.
  const userId = session?.user.id ?? null;
  useEffect(() => {
    if (!userId) return;
    const tick = () => {
      const current = sessionRef.current;
      if (current && isSessionDueForRefresh(current)) void refresh();
    };
    const timer = window.setInterval(tick, AUTO_REFRESH_TICK_MS);
    return () => window.clearInterval(timer);
  }, [userId, refresh]);

  // A 401 on an authenticated call: try one refresh, then the API client retries the call.
  useEffect(() => {
    setUnauthorizedHandler(async () => (sessionRef.current ? (await refresh()) !== null : false));
    return () => setUnauthorizedHandler(null);
  }, [refresh]);

  // Keep tabs in step: sign-in, refresh and sign-out in another tab apply here too.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== STORAGE_KEYS.session && event.key !== IMPERSONATION_STASH_KEY && event.key !== null) return;
      const stored = readStoredSession();
      sessionRef.current = stored;
      setSession(stored);
      setImpersonation(currentImpersonation(stored));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  // Spec §4: on any session change the role is fetched; an error sets it to null; cleared on logout.
  const roleQuery = useQuery({
    ...currentUserRoleQueryOptions(userId ?? 'anonymous'),
    enabled: !!userId,
  });
  const role = userId && roleQuery.isSuccess ? roleQuery.data : null;
  const isRoleLoading = !!userId && roleQuery.isPending;

  const completeSignIn = useCallback(
    async (next: Session): Promise<SignInResult> => {
      applySession(next);
      toast.clear();
      const role = await queryClient
        .fetchQuery(currentUserRoleQueryOptions(next.user.id))
        .catch(() => null);
      return { session: next, role };
    },
    [applySession, queryClient],
  );

  const signIn = useCallback(
    async (credentials: PasswordCredentials) => completeSignIn(await signInWithPassword(credentials)),
    [completeSignIn],
  );

  const signInDockmaster = useCallback(
    async (credentials: DockmasterCredentials) => completeSignIn(await signInDockmasterRequest(credentials)),
    [completeSignIn],
  );

  const completeMfaSignIn = useCallback(
    async (challengeToken: string, proof: MfaProof) => completeSignIn(await completeMfaSignInRequest(challengeToken, proof)),
    [completeSignIn],
  );

  const startImpersonation = useCallback(
    async (input: StartImpersonationInput, site?: { id: string; name: string } | null): Promise<SignInResult> => {
      const platform = sessionRef.current;
      if (!platform) throw new ApiError(401, 'unauthorized', 'Sign in again to act as a member.');
      const started = await requestImpersonation(input);
      const { impersonation: details, ...memberSession } = started;
      const active: ActiveImpersonation = {
        id: details.id,
        orgId: details.orgId,
        orgName: details.orgName,
        email: details.email,
        role: details.role,
        expiresAt: details.expiresAt,
      };
      storeImpersonationStash({
        platformSession: platform,
        savedSelection: { org: rawItem(STORAGE_KEYS.selectedOrg), site: rawItem(STORAGE_KEYS.selectedSite) },
        impersonation: active,
      });
      // The member's screens open at the organization acted in (and, for the gate, at a site).
      writeJson(STORAGE_KEYS.selectedOrg, { id: details.orgId, name: details.orgName });
      if (site) writeJson(STORAGE_KEYS.selectedSite, site);
      else removeKey(STORAGE_KEYS.selectedSite);
      clearSessionQueries();
      setEndedImpersonation(null);
      setImpersonation(active);
      return completeSignIn(memberSession);
    },
    [clearSessionQueries, completeSignIn],
  );

  const signOut = useCallback(async () => {
    const current = sessionRef.current;
    // Signing out while acting as a member signs out of both: the impersonation (ended and
    // audited by the server) and the platform session kept aside.
    const stash = readImpersonationStash();
    const tokens = [current?.access_token, stash?.platformSession.access_token].filter((token): token is string => !!token);
    try {
      for (const token of tokens) await signOutOnServer(token).catch((error: unknown) => {
        if (token === current?.access_token) throw error;
      });
    } catch (error) {
      // An already invalid session is as good as signed out; anything else is worth telling.
      if (!(error instanceof ApiError && error.status === 401)) {
        toast.error('Logout Failed', errorMessage(error, 'Could not sign out on the server.'));
      }
    } finally {
      if (stash) {
        restoreSelection(STORAGE_KEYS.selectedOrg, stash.savedSelection.org);
        restoreSelection(STORAGE_KEYS.selectedSite, stash.savedSelection.site);
        clearImpersonationStash();
        setImpersonation(null);
      }
      forgetSession();
    }
  }, [forgetSession]);

  const acknowledgeEndedImpersonation = useCallback(() => setEndedImpersonation(null), []);

  const value = useMemo<AuthContextValue>(
    () => ({
      status: isLoading ? 'loading' : session ? 'logged_in' : 'logged_out',
      isLoading,
      session,
      user: session?.user ?? null,
      role,
      isRoleLoading,
      signIn,
      signInDockmaster,
      completeMfaSignIn,
      signOut,
      refresh,
      impersonation,
      startImpersonation,
      endImpersonation,
      endedImpersonation,
      acknowledgeEndedImpersonation,
    }),
    [
      isLoading,
      session,
      role,
      isRoleLoading,
      signIn,
      signInDockmaster,
      completeMfaSignIn,
      signOut,
      refresh,
      impersonation,
      startImpersonation,
      endImpersonation,
      endedImpersonation,
      acknowledgeEndedImpersonation,
    ],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
