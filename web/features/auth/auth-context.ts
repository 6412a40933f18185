import { createContext } from 'react';
import type { StartImpersonationInput } from '../../../domain/auth-schemas';
import type { MfaProof } from './api/complete-mfa-sign-in';
import type { DockmasterCredentials } from './api/sign-in-dockmaster';
import type { PasswordCredentials } from './api/sign-in-with-password';
import type { ImpersonationStash, Session, SessionUser } from './session';

export type AuthStatus = 'loading' | 'logged_in' | 'logged_out';

export type SignInResult = { session: Session; role: string | null };

export type ActiveImpersonation = ImpersonationStash['impersonation'];

/** How an impersonation came to an end, for the super-admin area to return to the organization. */
export type EndedImpersonation = { orgId: string; email: string; outcome: 'ended' | 'expired' };

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
  /** Throws MfaRequiredError (api/sign-in-with-password) when the account asks for a code next. */
  signIn: (credentials: PasswordCredentials) => Promise<SignInResult>;
  signInDockmaster: (credentials: DockmasterCredentials) => Promise<SignInResult>;
  /** The second step of a two-factor sign-in: the challenge and a code or a recovery code. */
  completeMfaSignIn: (challengeToken: string, proof: MfaProof) => Promise<SignInResult>;
  /** Revokes the session on the server and forgets it here (even when the server call fails). */
  signOut: () => Promise<void>;
  /** Rotates the refresh token now; resolves null (signed out locally) when that fails. */
  refresh: () => Promise<Session | null>;
  /** Set while a platform user acts as a member (decision 017). */
  impersonation: ActiveImpersonation | null;
  /**
   * Starts acting as a member: the platform session is kept aside, the member's becomes the
   * session. `site` is the site to open the dock screens at (security staff).
   */
  startImpersonation: (input: StartImpersonationInput, site?: { id: string; name: string } | null) => Promise<SignInResult>;
  /** Ends the impersonation (End, or expiry) and brings the platform session back. */
  endImpersonation: (outcome?: 'ended' | 'expired') => Promise<void>;
  /** The impersonation that just ended, until acknowledged (the super-admin area returns to its organization). */
  endedImpersonation: EndedImpersonation | null;
  acknowledgeEndedImpersonation: () => void;
};

export const AuthContext = createContext<AuthContextValue | null>(null);
