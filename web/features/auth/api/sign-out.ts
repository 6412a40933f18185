import { apiCall } from '../../../lib/api-client';

/** POST /api/auth/logout — revokes the session and its refresh tokens on the server. */
export async function signOutOnServer(accessToken: string): Promise<void> {
  await apiCall('POST /api/auth/logout', {
    anonymous: true,
    headers: { authorization: `Bearer ${accessToken}` },
    retryOnUnauthorized: false,
  });
}
