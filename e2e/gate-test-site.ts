import type { APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD } from '../domain/constants';
import { WEEKDAYS } from '../domain/enums';
import { localDateOf, localTimeOf } from '../domain/slot-grid';
import { expect } from './fixtures';

// A site of a spec's own for the gate's e2e tests (issue 10): Acme's, open round the clock, in a
// time zone where it is about midday now, so whatever the hour the suite runs, every booking made
// for "the next slot" is today at the site and inside the check-in window. The spec deactivates it
// at the end (bookings still ahead cancelled): the demo sites the other specs read are untouched,
// and nothing else counts inactive sites.

export const ORG = 'Acme Logistics';
export const ADMIN = 'admin@acme.test';

export type GateSite = { id: string; name: string; timeZone: string; bays: Array<{ id: string; name: string }> };
export type GateBooking = { id: string; registration: string; tsrNumber: string };

/** An IANA zone where the local time is about 12:00 now (Etc/GMT-N is N hours ahead of UTC). */
export function zoneNearNoon(now = new Date()): string {
  const offset = 12 - now.getUTCHours(); // -11…12
  return offset === 0 ? 'Etc/GMT' : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

export const stampOf = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();

export function vehicle(stamp: string) {
  return {
    tsrNumber: `TSR-GATE-${stamp}`,
    tenantName: 'Gate Test Freight',
    contactName: 'Gina Gate',
    tenantEmail: `gate-${stamp.toLowerCase()}@haulier.test`,
    expectedDurationMin: 30,
    vehicleType: 'van',
    vehicleRegistration: `G${stamp.slice(-6)}`.toUpperCase(),
    vehicleHeightM: 2.5,
    driverInductionCompleted: true,
    termsAccepted: true,
  };
}

export async function adminHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const session = await request.post('/api/auth/token?grant_type=password', { data: { email: ADMIN, password: DEMO_PASSWORD } });
  expect(session.ok(), await session.text()).toBeTruthy();
  return { authorization: `Bearer ${((await session.json()) as { access_token: string }).access_token}` };
}

export async function acmeId(request: APIRequestContext): Promise<string> {
  const orgs = (await (await request.get('/api/public/organizations')).json()) as Array<{ id: string; name: string }>;
  return orgs.find((o) => o.name === ORG)!.id;
}

/** Creates the site (00:00–24:00 every day, no minimum advance) with bays `bayNames`, as the org admin. */
export async function createGateSite(request: APIRequestContext, orgId: string, bayNames: string[]): Promise<GateSite> {
  const headers = await adminHeaders(request);
  const name = `Gate Test ${stampOf()}`;
  const timeZone = zoneNearNoon();
  const created = await request.post(`/api/orgs/${orgId}/sites`, {
    headers,
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
  for (const bayName of bayNames) {
    const bay = await request.post(`/api/orgs/${orgId}/bays`, { headers, data: { siteId: id, name: bayName, heightClearanceM: 4.5 } });
    expect(bay.status(), await bay.text()).toBe(201);
    bays.push({ id: ((await bay.json()) as { bay: { id: string } }).bay.id, name: bayName });
  }
  return { id, name, timeZone, bays };
}

/** Lifts a stop left by a failed test, then takes the site out of the organization's active sites. */
export async function deactivateGateSite(request: APIRequestContext, orgId: string, site: GateSite): Promise<void> {
  const headers = await adminHeaders(request);
  const lifted = await request.delete(`/api/sites/${site.id}/gate/emergency`, { headers });
  expect(lifted.ok(), await lifted.text()).toBeTruthy();
  const off = await request.post(`/api/orgs/${orgId}/sites/${site.id}/deactivate`, {
    headers,
    data: { resolution: { action: 'cancel', reason: 'E2E test site closed' } },
  });
  expect(off.status(), await off.text()).toBe(200);
}

/**
 * A booking made by the org admin through the API at the site's next half-hour slot (+ `laterSlots`
 * × 30 min) on bay number `bay`: approved (due now, inside the check-in window) or pending.
 */
export async function bookAtGate(
  request: APIRequestContext,
  orgId: string,
  site: GateSite,
  options: { approve: boolean; bay: number; laterSlots?: number },
): Promise<GateBooking> {
  const stamp = stampOf();
  const next = new Date(Math.ceil((Date.now() + 60_000) / 1_800_000) * 1_800_000 + (options.laterSlots ?? 0) * 1_800_000);
  const body = {
    ...vehicle(stamp),
    siteId: site.id,
    bayId: site.bays[options.bay]!.id,
    date: localDateOf(next, site.timeZone),
    slot: localTimeOf(next, site.timeZone),
    overrideMinAdvance: true,
    approve: options.approve,
  };
  const created = await request.post(`/api/orgs/${orgId}/bookings`, { data: body, headers: await adminHeaders(request) });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  return { id, registration: body.vehicleRegistration, tsrNumber: body.tsrNumber };
}
