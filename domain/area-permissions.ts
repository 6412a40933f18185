import { isPlatformRole } from './enums';

// Which screens of the organization and dock areas each role may use. The server enforces the
// same rules on every route (an org route refuses a role that may not use it); the web app reads
// this table to show only what a person may use and to keep them out of the rest.

export const ORG_SCREENS = [
  '/org/dashboard',
  '/org/schedule',
  '/org/bookings',
  '/org/standing-bookings',
  '/org/bays',
  '/org/blackouts',
  '/org/tenants',
  '/org/ops/live',
  '/org/ops/scan',
  '/org/reports',
  '/org/settings',
  '/org/settings/number-plates',
] as const;
export type OrgScreen = (typeof ORG_SCREENS)[number];

export const DOCK_SCREENS = ['/dockmaster/dashboard', '/dockmaster/scan', '/dockmaster/queue'] as const;
export type DockScreen = (typeof DOCK_SCREENS)[number];

const SCREENS_BY_ROLE: Record<string, ReadonlyArray<OrgScreen | DockScreen>> = {
  // Runs the organization: every screen.
  org_admin: [...ORG_SCREENS, ...DOCK_SCREENS],
  // Runs the dock: bookings and operations, the site's reports; no setup, tenants, settings or
  // standing bookings (the server refuses them those routes).
  dockmaster: ['/org/dashboard', '/org/schedule', '/org/bookings', '/org/ops/live', '/org/ops/scan', '/org/reports', ...DOCK_SCREENS],
  // At the gate: the dock dashboard (their landing after sign-in, without approve/decline or the
  // emergency stop, which the server refuses them), the plate scanner and the queue.
  // docs/decisions/012-security-staff-landing.md
  security: ['/dockmaster/dashboard', '/dockmaster/scan', '/dockmaster/queue'],
};

/** The screen a path belongs to ('/org/bookings/new' → '/org/bookings'), or null outside the areas. */
export function screenOf(pathname: string): OrgScreen | DockScreen | null {
  const all = [...ORG_SCREENS, ...DOCK_SCREENS].sort((a, b) => b.length - a.length);
  return all.find((screen) => pathname === screen || pathname.startsWith(`${screen}/`)) ?? null;
}

/**
 * True when `role` may use the screen. Platform administrators act on organizations from their
 * own area (and, later, by impersonation), not through the organization area.
 */
export function canUseScreen(role: string | null | undefined, screen: OrgScreen | DockScreen): boolean {
  if (!role || isPlatformRole(role)) return false;
  return SCREENS_BY_ROLE[role]?.includes(screen) ?? false;
}

/** The first screen of an area the role may use, or null when none. */
export function firstScreenFor(role: string | null | undefined, area: 'org' | 'dockmaster'): string | null {
  const screens = area === 'org' ? ORG_SCREENS : DOCK_SCREENS;
  return screens.find((screen) => canUseScreen(role, screen)) ?? null;
}
