import { api } from '../../../lib/api-client';

/** POST /api/auth/logout — revokes the session and its refresh tokens on the server. */
export function signOutOnServer(accessToken: string): Promise<void> {
  return api<void>('/api/auth/logout', {
    method: 'POST',
    anonymous: true,
    headers: { authorization: `Bearer ${accessToken}` },
    retryOnUnauthorized: false,
  });
}
