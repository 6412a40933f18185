import { TEAM_ROLE_LABELS } from '../../../../../domain/org-team';
import type { OrgRole } from '../../../../../domain/enums';

const dateTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** A moment in the viewer's own time zone: '23 Nov 2026, 09:30'. */
export function formatWhen(iso: string | null, fallback = '—'): string {
  return iso ? dateTime.format(new Date(iso)) : fallback;
}

export const roleLabel = (role: string) => TEAM_ROLE_LABELS[role as OrgRole] ?? role;

/** The role options of the team's forms. */
export const ROLE_OPTIONS = (Object.keys(TEAM_ROLE_LABELS) as OrgRole[]).map((value) => ({ value, label: TEAM_ROLE_LABELS[value] }));
