import { api } from '../../../lib/api-client';
import type { Session } from '../session';

export type DockmasterCredentials = { siteId: string; employeeId: string; password: string };

/** POST /api/auth/dockmaster/token — employee ID and password checked against a membership at the site's organization. */
export function signInDockmaster(credentials: DockmasterCredentials): Promise<Session> {
  return api<Session>('/api/auth/dockmaster/token', { method: 'POST', body: credentials, anonymous: true });
}
