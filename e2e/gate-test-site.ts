import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_PASSWORD, STORAGE_KEYS } from '../domain/constants';
import { WEEKDAYS } from '../domain/enums';
import type { GateBooking as GateRow, GateOverview } from '../domain/gate';
import { localDateOf, localTimeOf, todayIn } from '../domain/slot-grid';
import { chooseOption, expect } from './fixtures';

// What the gate's e2e specs share (issue 10): the demo organization Acme's admin, a site of a
// spec's own that is open round the clock, bookings due at it now, walk-ins, dock staff signed in
// at a site, and the clean-up that leaves the organization as it was. The demo sites keep Sydney
// office hours and the server refuses a check-in outside 60 min before the start … the no-show
// cut-off, so a spec that checks vehicles in at any hour brings its own site and closes it at the
// end (deactivated: other specs count the organization's active sites; nothing counts inactive ones).

export const ORG = 'Acme Logistics';
export const ADMIN = 'admin@acme.test';

/** The Acme org admin's bearer header and the organization's id. */
export type Admin = { orgId: string; headers: Record<string, string> };

/** Signs the Acme org admin in through the API (a session of its own, independent of any page's). */
export async function acmeAdmin(request: APIRequestContext): Promise<Admin> {
  const session = await request.post('/api/auth/token?grant_type=password', { data: { email: ADMIN, password: DEMO_PASSWORD } });
  expect(session.ok(), await session.text()).toBeTruthy();
  const token = ((await session.json()) as { access_token: string }).access_token;
  const orgs = (await (await request.get('/api/public/organizations')).json()) as Array<{ id: string; name: string }>;
  const org = orgs.find((o) => o.name === ORG);
  expect(org, `${ORG} among the public organizations`).toBeDefined();
  return { orgId: org!.id, headers: { authorization: `Bearer ${token}` } };
}

/** A short unique upper-case stamp for names, TSR numbers and plates. */
export const stampOf = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();

export type GateSite = { id: string; name: string; timeZone: string; bays: Array<{ id: string; name: string }> };

/**
 * The site's zone: a fixed-offset IANA zone in which it is between 12:00 and 12:59 now
 * (Etc/GMT-N is N hours AHEAD of UTC, the POSIX sign; Etc/GMT-12 … Etc/GMT+11 cover every UTC hour).
 *
 * Why not UTC (or any one fixed zone): a booking "due now" is made at the next half-hour slot, 1–31
 * minutes ahead, on the site's local date of that slot. From 23:29 UTC that slot is 00:00 of the
 * next UTC day, so in a UTC site the booking falls on the site's tomorrow: the gate's live list and
 * its "Expected Today" counter (the site-local day, decision 011) miss it, and a booking a few hours
 * later crosses midnight even earlier in the evening. A site whose local time is about noon when it
 * is created has ~11 hours before its midnight: the next slot and the later ones a spec books are
 * all on the site's today, and the slot is always inside the check-in window (it opens 60 min
 * before the start). An Etc/GMT zone has whole-hour offsets (the UTC half-hour grid is the site's)
 * and no daylight saving (no missing or doubled hour).
 */
export function zoneNearNoon(now = new Date()): string {
  const offset = 12 - now.getUTCHours(); // -11 … 12
  return offset === 0 ? 'Etc/GMT' : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

/** Creates a site open 00:00–24:00 every day with no minimum advance, in zoneNearNoon(), with bays G1 … G`bayCount`. */
export async function createAllHoursSite(request: APIRequestContext, admin: Admin, bayCount: number, name = `Gate Test ${stampOf()}`): Promise<GateSite> {
  const timeZone = zoneNearNoon();
  const created = await request.post(`/api/orgs/${admin.orgId}/sites`, {
    headers: admin.headers,
    data: {
      name,
      timeZone,
      operatingHours: Object.fromEntries(WEEKDAYS.map((day) => [day, [{ open: '00:00', close: '24:00' }]])),
      minAdvanceMin: 0,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const bays: GateSite['bays'] = [];
  for (let i = 1; i <= bayCount; i++) {
    const bay = await request.post(`/api/orgs/${admin.orgId}/bays`, { headers: admin.headers, data: { siteId: id, name: `G${i}`, heightClearanceM: 4.5 } });
    expect(bay.status(), await bay.text()).toBe(201);
    bays.push({ id: ((await bay.json()) as { bay: { id: string } }).bay.id, name: `G${i}` });
  }
  return { id, name, timeZone, bays };
}

export type VehicleOverrides = { tsrNumber?: string; vehicleRegistration?: string; tenantName?: string };

/** A small van that fits every bay, with a unique TSR number, e-mail and plate (each may be given). */
export function vehicle(overrides: VehicleOverrides = {}) {
  const stamp = stampOf();
  return {
    tsrNumber: `TSR-GATE-${stamp}`,
    tenantName: 'Gate Test Freight',
    contactName: 'Gina Gate',
    tenantEmail: `gate-${stamp.toLowerCase()}@haulier.test`,
    expectedDurationMin: 30,
    vehicleType: 'van',
    vehicleRegistration: `G${stamp.slice(-6)}`,
    vehicleHeightM: 2.5,
    driverInductionCompleted: true,
    termsAccepted: true,
    ...overrides,
  };
}
export type Vehicle = ReturnType<typeof vehicle>;

export type GateBooking = { id: string; tsrNumber: string; vehicleRegistration: string; tenantName: string };

/**
 * A booking made by the org admin through the API at the site's next half-hour slot (1–31 min
 * ahead: inside the check-in window now), or `slotsLater` half-hours after it (from 2 on, too early
 * to check in). Approved unless `approve: false` (then pending); on bay number `bay` (0-based) or
 * one the server picks.
 */
export async function bookDueNow(
  request: APIRequestContext,
  admin: Admin,
  site: GateSite,
  options: { approve?: boolean; bay?: number; slotsLater?: number } & VehicleOverrides = {},
): Promise<GateBooking> {
  const { approve = true, bay, slotsLater = 0, ...overrides } = options;
  const now = new Date();
  const start = new Date(Math.ceil((now.getTime() + 60_000) / 1_800_000) * 1_800_000 + slotsLater * 1_800_000);
  const date = localDateOf(start, site.timeZone);
  expect(date, `the booking at ${start.toISOString()} is on the site's today (${site.timeZone})`).toBe(todayIn(site.timeZone, now));
  const body = {
    ...vehicle(overrides),
    siteId: site.id,
    ...(bay === undefined ? {} : { bayId: site.bays[bay]!.id }),
    date,
    slot: localTimeOf(start, site.timeZone),
    overrideMinAdvance: true,
    approve,
  };
  const created = await request.post(`/api/orgs/${admin.orgId}/bookings`, { headers: admin.headers, data: body });
  expect(created.status(), await created.text()).toBe(201);
  const booking = (await created.json()) as { id: string; status: string };
  expect(booking.status).toBe(approve ? 'approved' : 'pending');
  return { id: booking.id, tsrNumber: body.tsrNumber, vehicleRegistration: body.vehicleRegistration, tenantName: body.tenantName };
}

/** A walk-in at the site's gate through the API: checked in now, on the bay the server chose. */
export async function bookWalkIn(
  request: APIRequestContext,
  admin: Admin,
  siteId: string,
  overrides: VehicleOverrides = {},
): Promise<GateBooking & { bayName: string }> {
  const body = vehicle(overrides);
  const created = await request.post(`/api/sites/${siteId}/gate/walk-ins`, { headers: admin.headers, data: body });
  expect(created.status(), await created.text()).toBe(201);
  const { booking } = (await created.json()) as { booking: GateRow };
  expect(booking.status).toBe('checked_in');
  return { id: booking.id, tsrNumber: body.tsrNumber, vehicleRegistration: body.vehicleRegistration, tenantName: body.tenantName, bayName: booking.bayName };
}

const ON_SITE = ['checked_in', 'in_progress', 'overstay'];

/** The site's vehicles on site (the gate overview's live list holds every one, whatever its day). */
export async function onSiteBookings(request: APIRequestContext, admin: Admin, siteId: string): Promise<GateRow[]> {
  const res = await request.get(`/api/sites/${siteId}/gate/overview`, { headers: admin.headers });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as GateOverview).live.filter((b) => ON_SITE.includes(b.status));
}

/**
 * Sends vehicles home: those at a bay are checked out first (freeing their bays), then those still
 * waiting are called to their bay and checked out. Every vehicle on site, or only `registration`.
 */
export async function checkOutOnSite(request: APIRequestContext, admin: Admin, siteId: string, registration?: string): Promise<void> {
  const vehicles = (await onSiteBookings(request, admin, siteId)).filter((b) => registration === undefined || b.vehicleRegistration === registration);
  vehicles.sort((a, b) => Number(a.status === 'checked_in') - Number(b.status === 'checked_in'));
  const gate = `/api/sites/${siteId}/gate/bookings`;
  for (const booking of vehicles) {
    if (booking.status === 'checked_in') {
      const started = await request.post(`${gate}/${booking.id}/start`, { headers: admin.headers, data: {} });
      expect(started.ok(), await started.text()).toBeTruthy();
    }
    const out = await request.post(`${gate}/${booking.id}/check-out`, { headers: admin.headers, data: {} });
    expect(out.ok(), await out.text()).toBeTruthy();
  }
}

/** Lifts the site's emergency stop, if any (it answers unchanged when there is none). */
export async function liftEmergencyStop(request: APIRequestContext, admin: Admin, siteId: string): Promise<void> {
  const lifted = await request.delete(`/api/sites/${siteId}/gate/emergency`, { headers: admin.headers });
  expect(lifted.ok(), await lifted.text()).toBeTruthy();
}

/**
 * Leaves nothing behind: lifts a stop a failed test left, checks out every vehicle still on site,
 * then deactivates the site, cancelling its bookings still ahead. The site is deactivated even when
 * an earlier step fails (other specs count the organization's active sites); the failure is then
 * reported.
 */
export async function closeSite(request: APIRequestContext, admin: Admin, site: GateSite): Promise<void> {
  const problems: string[] = [];
  for (const step of [() => liftEmergencyStop(request, admin, site.id), () => checkOutOnSite(request, admin, site.id)]) {
    await step().catch((error: unknown) => problems.push(error instanceof Error ? error.message : String(error)));
  }
  const off = await request.post(`/api/orgs/${admin.orgId}/sites/${site.id}/deactivate`, {
    headers: admin.headers,
    data: { resolution: { action: 'cancel', reason: 'E2E test site closed' } },
  });
  expect(off.status(), await off.text()).toBe(200);
  expect(problems, `closing ${site.name}`).toEqual([]);
}

/** Signs dock staff in at the site through /dockmaster: the dock master D1001, or security's S1001. */
export async function signInAtDock(page: Page, siteName: string, employeeId: 'D1001' | 'S1001' = 'D1001'): Promise<void> {
  await page.goto('/dockmaster');
  await chooseOption(page, 'Site', `${siteName} — ${ORG}`);
  await page.getByLabel('Employee ID').fill(employeeId);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Access Dock Operations' }).click();
  await expect(page).toHaveURL('/dockmaster/dashboard');
  await expect(page.getByRole('heading', { name: 'Dock Operations', level: 1 })).toBeVisible();
  await expect(page.getByText(`${siteName} · `)).toBeVisible();
  await expect.poll(() => page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null')?.name, STORAGE_KEYS.selectedSite)).toBe(siteName);
}
