import { apiCall } from '../../../lib/api-client';
import type { Session } from '../session';
import { sessionOrChallenge } from './sign-in-with-password';

export type DockmasterCredentials = { siteId: string; employeeId: string; password: string };

/** POST /api/auth/dockmaster/token — employee ID and password checked against a membership at the site's organization. */
export async function signInDockmaster(credentials: DockmasterCredentials): Promise<Session> {
  return sessionOrChallenge(await apiCall('POST /api/auth/dockmaster/token', { body: credentials, anonymous: true }));
}
