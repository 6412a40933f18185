import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { STORAGE_KEYS } from '../../../domain/constants';
import { ApiError, errorMessage, setUnauthorizedHandler } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { currentUserRoleQueryOptions } from './api/get-current-user-role';
import { refreshSession } from './api/refresh-session';
import { signInDockmaster as signInDockmasterRequest, type DockmasterCredentials } from './api/sign-in-dockmaster';
import { signInWithPassword, type PasswordCredentials } from './api/sign-in-with-password';
import { signOutOnServer } from './api/sign-out';
import { AuthContext, type AuthContextValue, type SignInResult } from './auth-context';
import {
  AUTO_REFRESH_TICK_MS,
  clearStoredSession,
  isSessionDueForRefresh,
  readStoredSession,
  storeSession,
  type Session,
} from './session';

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
      .catch((error: unknown) => {
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
  }, [applySession, forgetSession]);

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
      if (event.key !== STORAGE_KEYS.session && event.key !== null) return;
      const stored = readStoredSession();
      sessionRef.current = stored;
      setSession(stored);
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

  const signOut = useCallback(async () => {
    const current = sessionRef.current;
    try {
      if (current) await signOutOnServer(current.access_token);
    } catch (error) {
      // An already invalid session is as good as signed out; anything else is worth telling.
      if (!(error instanceof ApiError && error.status === 401)) {
        toast.error('Logout Failed', errorMessage(error, 'Could not sign out on the server.'));
      }
    } finally {
      forgetSession();
    }
  }, [forgetSession]);

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
      signOut,
      refresh,
    }),
    [isLoading, session, role, isRoleLoading, signIn, signInDockmaster, signOut, refresh],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
