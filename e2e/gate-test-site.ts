import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_PASSWORD, STORAGE_KEYS } from '../domain/constants';
import { WEEKDAYS } from '../domain/enums';
import type { GateBooking as GateRow, GateOverview } from '../domain/gate';
import { localDateOf, localTimeOf, todayIn } from '../domain/slot-grid';
import { chooseOption, expect } from './fixtures';
import { stampOf, zoneNearNoon } from './own-org';

// What the gate's e2e specs share (issue 10): a site open round the clock, bookings due at it now,
// walk-ins, dock staff signed in at a site, and the clean-up of a further site. They run in an
// organization of the test's own (e2e/own-org.ts: ownOrg), whose admin is an `Admin` here. The
// server refuses a check-in outside 60 min before the start … the no-show cut-off, so a spec that
// checks vehicles in at any hour uses a site open round the clock in a zone where it is about noon.

/** An org admin's bearer header and the organization's id (an OwnOrg is one). */
export type Admin = { orgId: string; headers: Record<string, string> };

export type GateSite = { id: string; name: string; timeZone: string; bays: Array<{ id: string; name: string }> };

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

export type VehicleOverrides = { tsrNumber?: string; vehicleRegistration?: string; tenantName?: string; tenantEmail?: string };

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
 * Closes a further site: lifts a stop a failed test left, checks out every vehicle still on site,
 * then deactivates the site, cancelling its bookings still ahead. The site is deactivated even when
 * an earlier step fails; the failure is then reported.
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

/** Signs dock staff in at the organization's site through /dockmaster: the dock master D1001, or security's S1001. */
export async function signInAtDock(page: Page, orgName: string, siteName: string, employeeId: 'D1001' | 'S1001' = 'D1001'): Promise<void> {
  await page.goto('/dockmaster');
  await chooseOption(page, 'Site', `${siteName} — ${orgName}`);
  await page.getByLabel('Employee ID').fill(employeeId);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Access Dock Operations' }).click();
  await expect(page).toHaveURL('/dockmaster/dashboard');
  await expect(page.getByRole('heading', { name: 'Dock Operations', level: 1 })).toBeVisible();
  await expect(page.getByText(`${siteName} · `)).toBeVisible();
  await expect.poll(() => page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null')?.name, STORAGE_KEYS.selectedSite)).toBe(siteName);
}
