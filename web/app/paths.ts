// Every route of the web app (spec §2), in one place. Links and redirects use these.

export const paths = {
  home: '/',
  login: '/login',
  signup: '/signup',
  resetPassword: '/reset-password',
  confirmEmail: '/auth/confirm',
  acceptInvitation: '/accept-invitation',
  developers: '/developers',
  superadmin: {
    login: '/superadmin',
    dashboard: '/superadmin/dashboard',
    settings: '/superadmin/settings',
    organizations: '/superadmin/organizations',
    organization: (orgId: string) => `/superadmin/organizations/${encodeURIComponent(orgId)}`,
    plans: '/superadmin/plans',
    usage: '/superadmin/usage',
    audit: '/superadmin/audit',
  },
  orgadmin: {
    login: '/orgadmin',
    dashboard: '/orgadmin/dashboard',
  },
  org: {
    root: '/org',
    dashboard: '/org/dashboard',
    schedule: '/org/schedule',
    bookings: '/org/bookings',
    newBooking: '/org/bookings/new',
    standingBookings: '/org/standing-bookings',
    bays: '/org/bays',
    blackouts: '/org/blackouts',
    tenants: '/org/tenants',
    tenant: (tenantId: string) => `/org/tenants/${encodeURIComponent(tenantId)}`,
    opsLive: '/org/ops/live',
    opsScan: '/org/ops/scan',
    reports: '/org/reports',
    settings: '/org/settings',
    settingsTab: (tab: 'organization' | 'sites' | 'team' | 'policy' | 'activity') => `/org/settings?tab=${tab}`,
    numberPlates: '/org/settings/number-plates',
  },
  dockmaster: {
    login: '/dockmaster',
    dashboard: '/dockmaster/dashboard',
    scan: '/dockmaster/scan',
    queue: '/dockmaster/queue',
  },
  book: {
    landing: '/book',
    request: '/book/request',
    requestForOrg: (orgId: string) => `/book/request?org=${encodeURIComponent(orgId)}`,
    help: '/book/help',
    terms: '/book/terms',
    manage: (token: string) => `/book/manage/${encodeURIComponent(token)}`,
  },
} as const;

export type Area = 'org' | 'superadmin' | 'dockmaster';

/** Where a signed-out visitor of an area is sent. */
export const loginPathForArea: Record<Area, string> = {
  org: paths.orgadmin.login,
  superadmin: paths.superadmin.login,
  dockmaster: paths.dockmaster.login,
};
