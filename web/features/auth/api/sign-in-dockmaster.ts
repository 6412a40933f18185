import type { MfaChallenge } from '../../../../domain/auth-schemas';
import { api } from '../../../lib/api-client';
import type { Session } from '../session';
import { sessionOrChallenge } from './sign-in-with-password';

export type DockmasterCredentials = { siteId: string; employeeId: string; password: string };

/** POST /api/auth/dockmaster/token — employee ID and password checked against a membership at the site's organization. */
export async function signInDockmaster(credentials: DockmasterCredentials): Promise<Session> {
  return sessionOrChallenge(await api<Session | MfaChallenge>('/api/auth/dockmaster/token', { method: 'POST', body: credentials, anonymous: true }));
}
