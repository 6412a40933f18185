import { createContext } from 'react';
import type { DockmasterCredentials } from './api/sign-in-dockmaster';
import type { PasswordCredentials } from './api/sign-in-with-password';
import type { Session, SessionUser } from './session';

export type AuthStatus = 'loading' | 'logged_in' | 'logged_out';

export type SignInResult = { session: Session; role: string | null };

export type AuthContextValue = {
  /** Spec §4: loading until the first session check, then logged in or logged out. */
  status: AuthStatus;
  isLoading: boolean;
  session: Session | null;
  user: SessionUser | null;
  /** The role from get_current_user_role; null while unknown, when absent, or on a fetch error. */
  role: string | null;
  /** True while the role of the current session is being fetched. */
  isRoleLoading: boolean;
  signIn: (credentials: PasswordCredentials) => Promise<SignInResult>;
  signInDockmaster: (credentials: DockmasterCredentials) => Promise<SignInResult>;
  /** Revokes the session on the server and forgets it here (even when the server call fails). */
  signOut: () => Promise<void>;
  /** Rotates the refresh token now; resolves null (signed out locally) when that fails. */
  refresh: () => Promise<Session | null>;
};

export const AuthContext = createContext<AuthContextValue | null>(null);
