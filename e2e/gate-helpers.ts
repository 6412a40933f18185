import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_PASSWORD, STORAGE_KEYS } from '../domain/constants';
import { WEEKDAYS } from '../domain/enums';
import { localDateOf, localTimeOf } from '../domain/slot-grid';
import { chooseOption, expect } from './fixtures';

// A gate of the e2e's own, open round the clock, so a spec can check vehicles in at any hour (the
// demo sites keep Sydney office hours, and the server refuses a check-in outside 60 min before the
// start … the no-show cut-off). Made by the Acme org admin through the API; closed again at the end
// (deactivated: the organization's active sites are what other specs see).

export const ACME = 'Acme Logistics';

export type Admin = { orgId: string; headers: Record<string, string> };

/** The Acme org admin's bearer token and the organization's id. */
export async function acmeAdmin(request: APIRequestContext): Promise<Admin> {
  const session = await request.post('/api/auth/token?grant_type=password', { data: { email: 'admin@acme.test', password: DEMO_PASSWORD } });
  expect(session.ok(), await session.text()).toBeTruthy();
  const token = ((await session.json()) as { access_token: string }).access_token;
  const orgs = (await (await request.get('/api/public/organizations')).json()) as Array<{ id: string; name: string }>;
  return { orgId: orgs.find((o) => o.name === ACME)!.id, headers: { authorization: `Bearer ${token}` } };
}

export type GateSite = { id: string; name: string; bays: string[] };

/** A site open 00:00–24:00 every day (UTC: no daylight-saving gaps) with `bayCount` bays. */
export async function createAllHoursSite(request: APIRequestContext, admin: Admin, name: string, bayCount: number): Promise<GateSite> {
  const operatingHours = Object.fromEntries(WEEKDAYS.map((day) => [day, [{ open: '00:00', close: '24:00' }]]));
  const created = await request.post(`/api/orgs/${admin.orgId}/sites`, {
    headers: admin.headers,
    data: { name, timeZone: 'UTC', operatingHours, minAdvanceMin: 0 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const site = (await created.json()) as { id: string };
  const bays: string[] = [];
  for (let i = 1; i <= bayCount; i++) {
    const bay = await request.post(`/api/orgs/${admin.orgId}/bays`, { headers: admin.headers, data: { siteId: site.id, name: `G-${i}`, heightClearanceM: 5 } });
    expect(bay.status(), await bay.text()).toBe(201);
    bays.push(`G-${i}`);
  }
  return { id: site.id, name, bays };
}

export type DueBooking = { id: string; tsrNumber: string; vehicleRegistration: string };

/**
 * An approved booking at the site's next half-hour slot (inside the check-in window now), or
 * `minutesLater` after it (a booking 3 hours on is expected at the gate but too early to check in).
 */
export async function approvedBooking(
  request: APIRequestContext,
  admin: Admin,
  site: GateSite,
  tsrNumber: string,
  vehicleRegistration: string,
  minutesLater = 0,
): Promise<DueBooking> {
  const next = new Date(Math.ceil((Date.now() + 60_000) / 1_800_000) * 1_800_000 + minutesLater * 60_000);
  const created = await request.post(`/api/orgs/${admin.orgId}/bookings`, {
    headers: admin.headers,
    data: {
      siteId: site.id,
      date: localDateOf(next, 'UTC'),
      slot: localTimeOf(next, 'UTC'),
      tsrNumber,
      tenantName: 'Scan Test Freight',
      contactName: 'Sam Scanner',
      tenantEmail: `${tsrNumber.toLowerCase()}@haulier.test`,
      expectedDurationMin: 30,
      vehicleType: 'van',
      vehicleRegistration,
      vehicleHeightM: 2.5,
      driverInductionCompleted: true,
      termsAccepted: true,
      overrideMinAdvance: true,
      approve: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const booking = (await created.json()) as DueBooking & { status: string };
  expect(booking.status).toBe('approved');
  return { id: booking.id, tsrNumber, vehicleRegistration };
}

/** Leaves nothing behind: vehicles still on site are called in and checked out, the site is closed and its bookings cancelled. */
export async function closeSite(request: APIRequestContext, admin: Admin, site: GateSite, bookingIds: string[]): Promise<void> {
  const gate = `/api/sites/${site.id}/gate/bookings`;
  for (const id of bookingIds) {
    await request.post(`${gate}/${id}/start`, { headers: admin.headers, data: {} }).catch(() => undefined);
    await request.post(`${gate}/${id}/check-out`, { headers: admin.headers, data: {} }).catch(() => undefined);
  }
  const closed = await request.post(`/api/orgs/${admin.orgId}/sites/${site.id}/deactivate`, {
    headers: admin.headers,
    data: { resolution: { action: 'cancel', reason: 'End of the e2e plate scanner test' } },
  });
  expect(closed.ok(), await closed.text()).toBeTruthy();
}

/** Signs dock staff in at the site through /dockmaster: the dock master D1001, or security's S1001. */
export async function signInDockmasterAt(page: Page, siteName: string, employeeId: 'D1001' | 'S1001' = 'D1001'): Promise<void> {
  await page.goto('/dockmaster');
  await chooseOption(page, 'Site', `${siteName} — ${ACME}`);
  await page.getByLabel('Employee ID').fill(employeeId);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Access Dock Operations' }).click();
  await expect(page).toHaveURL('/dockmaster/dashboard');
  expect(await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null')?.name, STORAGE_KEYS.selectedSite)).toBe(siteName);
}
