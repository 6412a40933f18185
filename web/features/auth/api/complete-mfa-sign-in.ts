import { apiCall } from '../../../lib/api-client';
import type { Session } from '../session';
import { sessionOrChallenge } from './sign-in-with-password';

/** The second step: a 6-digit code from the app, or one recovery code. */
export type MfaProof = { code: string } | { recoveryCode: string };

/** POST /api/auth/token?grant_type=mfa — the challenge of the password step and the code; answers the session. */
export async function completeMfaSignIn(challengeToken: string, proof: MfaProof): Promise<Session> {
  return sessionOrChallenge(
    await apiCall('POST /api/auth/token', {
      query: { grant_type: 'mfa' },
      anonymous: true,
      body: 'code' in proof ? { challenge_token: challengeToken, code: proof.code } : { challenge_token: challengeToken, recovery_code: proof.recoveryCode },
    }),
  );
}
