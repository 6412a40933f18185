import type { ImpersonationEnd, ImpersonationStart, StartImpersonationInput } from '../../../../domain/auth-schemas';
import { apiCall } from '../../../lib/api-client';

// Impersonation calls (decision 017). The session switching around them is the auth provider's
// (startImpersonation / endImpersonation in useAuth).

/** POST /api/platform/impersonations — with the platform user's session; answers the member's session. */
export function requestImpersonation(input: StartImpersonationInput): Promise<ImpersonationStart> {
  return apiCall('POST /api/platform/impersonations', { body: input });
}

/** POST /api/impersonations/end — with the impersonation's own session (no refresh: it may be over). */
export function endImpersonationAsMember(accessToken: string): Promise<ImpersonationEnd> {
  return apiCall('POST /api/impersonations/end', {
    anonymous: true,
    headers: { authorization: `Bearer ${accessToken}` },
    retryOnUnauthorized: false,
  });
}

/** POST /api/platform/impersonations/:id/end — with the platform session, once the member's has expired. */
export function endImpersonationAsPlatformUser(accessToken: string, impersonationId: string): Promise<ImpersonationEnd> {
  return apiCall('POST /api/platform/impersonations/:sessionId/end', {
    params: { sessionId: impersonationId },
    anonymous: true,
    headers: { authorization: `Bearer ${accessToken}` },
    retryOnUnauthorized: false,
  });
}
