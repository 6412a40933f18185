import type { MfaChallenge } from '../../../../domain/auth-schemas';
import { apiCall } from '../../../lib/api-client';
import type { Session } from '../session';

export type PasswordCredentials = { email: string; password: string; orgId?: string };

/**
 * Thrown by a sign-in when the account has two-factor sign-in (decision 018): the password was
 * right, and the code is asked next with the challenge it carries.
 */
export class MfaRequiredError extends Error {
  constructor(readonly challenge: MfaChallenge) {
    super('Enter the code from your authenticator app to finish signing in.');
    this.name = 'MfaRequiredError';
  }
}

/** A token answer: the session, or the two-factor challenge (thrown as MfaRequiredError). */
export function sessionOrChallenge(answer: Session | MfaChallenge): Session {
  if ('mfa_required' in answer) throw new MfaRequiredError(answer);
  return answer;
}

/** POST /api/auth/token?grant_type=password — with orgId the user must belong to that organization. */
export async function signInWithPassword(credentials: PasswordCredentials): Promise<Session> {
  return sessionOrChallenge(
    await apiCall('POST /api/auth/token', {
      query: { grant_type: 'password' },
      body: credentials,
      anonymous: true,
    }),
  );
}
