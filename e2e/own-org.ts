import type { APIRequestContext } from '@playwright/test';
import { DEFAULT_OPERATING_HOURS, DEMO_PASSWORD } from '../domain/constants';
import { WEEKDAYS, type BayFeature, type OrgRole } from '../domain/enums';
import { expect, latestMailTo } from './mail';

// An organization of a test's own (decision 027), made the way a customer's is: the demo super
// admin creates it through the platform API (no plan: no limits), its first admin accepts the
// e-mailed invitation and sets the demo password, then its sites, bays and dock staff are made
// through the organization API. Nothing another test reads changes; the test's fixture suspends
// it at the end, so the portal and the sign-in pickers list only what is in use.

export const SUPER_ADMIN = 'super@baywise.test';

export type OwnBaySetup = { name: string; heightClearanceM: number; features?: BayFeature[] };

export type OwnSiteSetup = {
  name: string;
  /**
   * 'office': the demo's hours (Mon–Fri 06:00–22:00, Sat 08:00–18:00, Sun 10:00–16:00) in
   * Australia/Sydney with the 2-hour minimum advance, like the demo sites;
   * 'all-day': open 00:00–24:00 every day with no minimum advance, in a zone where it is about
   * noon now (zoneNearNoon), so a booking due now is today's and inside the check-in window.
   */
  hours?: 'office' | 'all-day';
  bays: OwnBaySetup[];
};

export type OwnOrgSetup = {
  /** Default: one 'Main Yard' site with demo hours and bays B-01 (3.5 m) and B-02 (4.5 m). */
  sites?: OwnSiteSetup[];
  /** A dockmaster (employee ID D1001) and a security officer (S1001), accounts accepted. */
  withDockStaff?: boolean;
  /** Tenants (companies that book) by name, each with a contact e-mail and the organization's defaults. */
  tenants?: string[];
};

export type OwnSite = { id: string; name: string; timeZone: string; bays: Array<{ id: string; name: string; heightClearanceM: number }> };

export type StaffMember = { email: string; fullName: string; employeeId: string; role: OrgRole };

export type OwnOrg = {
  /** The organization's id (also what e2e/gate-test-site.ts's helpers call orgId). */
  orgId: string;
  name: string;
  /** The first admin, signed in through the API: an `authorization` header. */
  headers: Record<string, string>;
  adminEmail: string;
  sites: OwnSite[];
  dockmaster: StaffMember | null;
  security: StaffMember | null;
  /** The site named `name`. */
  site: (name: string) => OwnSite;
};

const DEFAULT_SITES: OwnSiteSetup[] = [
  {
    name: 'Main Yard',
    bays: [
      { name: 'B-01', heightClearanceM: 3.5 },
      { name: 'B-02', heightClearanceM: 4.5 },
    ],
  },
];

/** A short unique upper-case stamp for names, e-mail addresses and plates. */
export const stampOf = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();

/**
 * A fixed-offset IANA zone in which it is between 12:00 and 12:59 now (Etc/GMT-N is N hours AHEAD
 * of UTC, the POSIX sign). A booking due at the next half-hour slot, and the ones a few hours
 * later, are then on the site's today, and there is no daylight saving hour to miss or double.
 */
export function zoneNearNoon(now = new Date()): string {
  const offset = 12 - now.getUTCHours(); // -11 … 12
  return offset === 0 ? 'Etc/GMT' : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

export async function bearer(request: APIRequestContext, email: string, orgId?: string): Promise<Record<string, string>> {
  const session = await request.post('/api/auth/token?grant_type=password', { data: { email, password: DEMO_PASSWORD, ...(orgId ? { orgId } : {}) } });
  expect(session.ok(), `sign-in of ${email}: ${await session.text()}`).toBeTruthy();
  return { authorization: `Bearer ${((await session.json()) as { access_token: string }).access_token}` };
}

/** Accepts the invitation e-mailed to `email` with the demo password. */
async function acceptInvitation(request: APIRequestContext, email: string, fullName: string): Promise<void> {
  const mail = await latestMailTo(email, 30_000);
  const token = mail.match(/accept-invitation\?token=([\w-]+)/)?.[1];
  expect(token, `the invitation link in the mail to ${email}`).toBeTruthy();
  const accepted = await request.post(`/api/invitations/${token}/accept`, { data: { fullName, password: DEMO_PASSWORD } });
  expect(accepted.ok(), `accepting ${email}'s invitation: ${await accepted.text()}`).toBeTruthy();
}

async function createSite(request: APIRequestContext, orgId: string, headers: Record<string, string>, setup: OwnSiteSetup): Promise<OwnSite> {
  const allDay = setup.hours === 'all-day';
  const timeZone = allDay ? zoneNearNoon() : 'Australia/Sydney';
  const created = await request.post(`/api/orgs/${orgId}/sites`, {
    headers,
    data: {
      name: setup.name,
      timeZone,
      operatingHours: allDay ? Object.fromEntries(WEEKDAYS.map((day) => [day, [{ open: '00:00', close: '24:00' }]])) : DEFAULT_OPERATING_HOURS,
      minAdvanceMin: allDay ? 0 : 120,
    },
  });
  expect(created.status(), `site ${setup.name}: ${await created.text()}`).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const bays: OwnSite['bays'] = [];
  for (const bay of setup.bays) {
    const made = await request.post(`/api/orgs/${orgId}/bays`, { headers, data: { siteId: id, ...bay } });
    expect(made.status(), `bay ${bay.name}: ${await made.text()}`).toBe(201);
    bays.push({ id: ((await made.json()) as { bay: { id: string } }).bay.id, name: bay.name, heightClearanceM: bay.heightClearanceM });
  }
  return { id, name: setup.name, timeZone, bays };
}

async function inviteStaff(request: APIRequestContext, orgId: string, headers: Record<string, string>, member: StaffMember): Promise<void> {
  const invited = await request.post(`/api/orgs/${orgId}/team/invitations`, {
    headers,
    data: { email: member.email, fullName: member.fullName, role: member.role, employeeId: member.employeeId },
  });
  expect(invited.status(), `inviting ${member.email}: ${await invited.text()}`).toBe(201);
  await acceptInvitation(request, member.email, member.fullName);
}

/** Creates an organization named '<label> <stamp>' as set up (see OwnOrgSetup). */
export async function createOwnOrg(request: APIRequestContext, label: string, setup: OwnOrgSetup = {}): Promise<OwnOrg> {
  const stamp = stampOf();
  const name = `${label} ${stamp}`;
  const mailbox = stamp.toLowerCase();
  const adminEmail = `admin-${mailbox}@own-org.test`;
  const platform = await bearer(request, SUPER_ADMIN);
  const created = await request.post('/api/platform/organizations', {
    headers: platform,
    data: { name, adminEmail, adminName: 'Olive Owner', planId: null },
  });
  expect(created.status(), `creating ${name}: ${await created.text()}`).toBe(201);
  const orgId = ((await created.json()) as { organization: { id: string } }).organization.id;
  await acceptInvitation(request, adminEmail, 'Olive Owner');
  const headers = await bearer(request, adminEmail, orgId);

  const sites: OwnSite[] = [];
  for (const site of setup.sites ?? DEFAULT_SITES) sites.push(await createSite(request, orgId, headers, site));
  for (const tenant of setup.tenants ?? []) {
    const contact = `bookings-${tenant.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${mailbox}@tenant.test`;
    const made = await request.post(`/api/orgs/${orgId}/tenants`, { headers, data: { name: tenant, contactEmails: [contact] } });
    expect(made.status(), `tenant ${tenant}: ${await made.text()}`).toBe(201);
  }
  let dockmaster: StaffMember | null = null;
  let security: StaffMember | null = null;
  if (setup.withDockStaff) {
    dockmaster = { email: `dock-${mailbox}@own-org.test`, fullName: 'Dana Dock', employeeId: 'D1001', role: 'dockmaster' };
    security = { email: `security-${mailbox}@own-org.test`, fullName: 'Sam Secure', employeeId: 'S1001', role: 'security' };
    await inviteStaff(request, orgId, headers, dockmaster);
    await inviteStaff(request, orgId, headers, security);
  }
  return {
    orgId,
    name,
    headers,
    adminEmail,
    sites,
    dockmaster,
    security,
    site: (siteName) => {
      const site = sites.find((s) => s.name === siteName);
      if (!site) throw new Error(`${name} has no site ${siteName}`);
      return site;
    },
  };
}

/** Suspends the organization (its portal and sign-in pickers leave it out). */
export async function suspendOwnOrg(request: APIRequestContext, org: Pick<OwnOrg, 'orgId' | 'name'>): Promise<void> {
  const platform = await bearer(request, SUPER_ADMIN);
  const suspended = await request.post(`/api/platform/organizations/${org.orgId}/suspend`, {
    headers: platform,
    data: { reason: 'End of its end-to-end test' },
  });
  expect(suspended.ok(), `suspending ${org.name}: ${await suspended.text()}`).toBeTruthy();
}
