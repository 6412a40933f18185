import { api } from '../../../lib/api-client';
import type { Session } from '../session';

export type PasswordCredentials = { email: string; password: string; orgId?: string };

/** POST /api/auth/token?grant_type=password — with orgId the user must belong to that organization. */
export function signInWithPassword(credentials: PasswordCredentials): Promise<Session> {
  return api<Session>('/api/auth/token?grant_type=password', {
    method: 'POST',
    body: credentials,
    anonymous: true,
  });
}
