import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../auth/tokens';
import { addMember, createBay, createOrg, createSite, createUser } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { SITE_CHOICE_OFF } from './public-booking.service';

// Issue 22 item 5: an organization may let hauliers choose the site in the portal. Off (the
// default): best fit over all sites, and a site in the request is refused. On: availability and
// the booking at the chosen site only; a site of another organization is not found.

const NOW = '2026-11-23T00:00:00Z';
const DATE = '2026-11-24';

describe.each(databaseKinds)('haulier chooses the site on %s', (kind) => {
  let t: TestApp;
  let org: { id: string };
  let north: { id: string; orgId: string };
  let south: { id: string; orgId: string };
  let foreignSite: { id: string };
  let admin: Record<string, string>;
  let seq = 0;

  const request = (overrides: Record<string, unknown> = {}) => {
    seq += 1;
    return {
      orgId: org.id,
      tsrNumber: `TSR-SITE-${seq}`,
      tenantName: 'Fast Freight Pty Ltd',
      contactName: 'Jo Driver',
      tenantEmail: 'jo@fastfreight.example',
      bookingType: 'delivery',
      date: DATE,
      slot: '09:00',
      expectedDurationMin: 60,
      vehicleType: 'rigid',
      vehicleRegistration: `SITE${seq}`,
      vehicleHeightM: 3.9,
      specialAccessNeeds: [],
      driverInductionCompleted: true,
      termsAccepted: true,
      ...overrides,
    };
  };
  const submit = (body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: body });
  const availability = (body: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/public/availability', payload: { orgId: org.id, date: DATE, durationMin: 60, vehicleHeightM: 3.9, ...body } });
  const siteOf = async (id: string) => (await t.ctx.database.query<{ site_id: string }>('select site_id from bookings where id = $1', [id]))[0]!.site_id;
  const setChoice = (on: boolean) =>
    t.app.inject({ method: 'PATCH', url: `/api/orgs/${org.id}/settings`, headers: admin, payload: { booking: { hauliersChooseSite: on } } });
  const infoOf = async () => (await t.app.inject({ method: 'GET', url: '/api/public/booking-info' })).json().organizations.find((o: { id: string }) => o.id === org.id);

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    org = await createOrg(db, { name: 'Two Site Org' });
    north = await createSite(db, org.id, { name: 'North Terminal', timeZone: 'Australia/Sydney' });
    south = await createSite(db, org.id, { name: 'South Terminal', timeZone: 'Australia/Sydney' });
    // North's bay fits a 3.9 m vehicle more tightly: best fit picks it.
    await createBay(db, north, { name: 'N-1', heightClearanceM: 4.2 });
    await createBay(db, south, { name: 'S-1', heightClearanceM: 5.5 });
    const other = await createOrg(db, { name: 'Other Org' });
    foreignSite = await createSite(db, other.id, { name: 'Elsewhere', timeZone: 'Australia/Sydney' });
    await createBay(db, foreignSite as { id: string; orgId: string }, { name: 'E-1', heightClearanceM: 5.5 });
    const user = await createUser(db, { email: 'admin@twosite.example' });
    await addMember(db, org.id, user.id, 'org_admin');
    const [session] = await db.query<{ id: string }>(`insert into auth_sessions (user_id, expires_at) values ($1, $2::timestamptz + interval '1 day') returning id`, [user.id, NOW]);
    const { token } = await signAccessToken(t.ctx, { userId: user.id, sessionId: session!.id, email: 'admin@twosite.example' });
    admin = { authorization: `Bearer ${token}` };
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.ctx.database.query('delete from bookings');
  });

  it('setting off (the default): best fit over all sites, and a chosen site is refused with a clear message', async () => {
    expect(await infoOf()).toMatchObject({ hauliersChooseSite: false });
    const grid = await availability();
    expect(grid.statusCode).toBe(200);
    expect(grid.json().compatibleBays).toBe(2);

    const refusedGrid = await availability({ siteId: south.id });
    expect(refusedGrid.statusCode).toBe(400);
    expect(refusedGrid.json().error).toMatchObject({ code: 'site_choice_off', message: SITE_CHOICE_OFF });
    const refused = await submit(request({ siteId: south.id }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('site_choice_off');

    const booked = await submit(request());
    expect(booked.statusCode).toBe(201);
    expect(await siteOf(booked.json().id)).toBe(north.id);
    // The next one at the same time goes to the other site: still best fit over all sites.
    const second = await submit(request());
    expect(second.statusCode).toBe(201);
    expect(await siteOf(second.json().id)).toBe(south.id);
  });

  it('setting on: availability and the booking at the chosen site only', async () => {
    expect((await setChoice(true)).statusCode).toBe(200);
    try {
      expect(await infoOf()).toMatchObject({ hauliersChooseSite: true });

      const southGrid = (await availability({ siteId: south.id })).json();
      expect(southGrid).toMatchObject({ compatibleBays: 1, siteName: 'South Terminal' });
      const northGrid = (await availability({ siteId: north.id })).json();
      expect(northGrid).toMatchObject({ compatibleBays: 1, siteName: 'North Terminal' });

      // Best fit would pick North; the haulier chose South.
      const atSouth = await submit(request({ siteId: south.id }));
      expect(atSouth.statusCode).toBe(201);
      expect(atSouth.json()).toMatchObject({ siteName: 'South Terminal', bayName: 'S-1' });
      expect(await siteOf(atSouth.json().id)).toBe(south.id);

      // South is full at 09:00: its grid says so, and a second request there is refused although North is free.
      const slot = (await availability({ siteId: south.id })).json().slots.find((s: { time: string }) => s.time === '09:00');
      expect(slot).toMatchObject({ freeBays: 0, available: false });
      const full = await submit(request({ siteId: south.id }));
      expect(full.statusCode).toBe(409);
      expect(full.json().error.code).toBe('no_available_bay');
      expect((await availability({ siteId: north.id })).json().slots.find((s: { time: string }) => s.time === '09:00')).toMatchObject({ freeBays: 1 });

      // Without a site the request is still best fit over all sites.
      const any = await submit(request());
      expect(any.statusCode).toBe(201);
      expect(await siteOf(any.json().id)).toBe(north.id);

      // Another organization's site, or no site at all: not found, nothing booked.
      expect((await availability({ siteId: foreignSite.id })).statusCode).toBe(404);
      const foreign = await submit(request({ siteId: foreignSite.id }));
      expect(foreign.statusCode).toBe(404);
      expect((await submit(request({ siteId: '00000000-0000-4000-8000-000000000000' }))).statusCode).toBe(404);
      expect((await t.ctx.database.query<{ n: number }>('select count(*)::int as n from bookings'))[0]!.n).toBe(2);
    } finally {
      await setChoice(false);
    }
  });

  it('the admin form’s availability per site follows the policy: none under best fit, each site’s bay or reason when hauliers choose', async () => {
    const sitesPreview = (body: Record<string, unknown> = {}) =>
      t.app.inject({ method: 'POST', url: `/api/orgs/${org.id}/bookings/preview-sites`, headers: admin, payload: { date: DATE, slot: '09:00', expectedDurationMin: 60, vehicleHeightM: 3.9, ...body } });
    const off = await sitesPreview();
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ hauliersChooseSite: false, sites: [] });

    expect((await setChoice(true)).statusCode).toBe(200);
    try {
      const free = (await sitesPreview()).json();
      expect(free).toEqual({
        hauliersChooseSite: true,
        sites: [
          { siteId: north.id, siteName: 'North Terminal', timeZone: 'Australia/Sydney', bayName: 'N-1', startTime: '2026-11-23T22:00:00.000Z', endTime: '2026-11-23T23:00:00.000Z', message: null },
          { siteId: south.id, siteName: 'South Terminal', timeZone: 'Australia/Sydney', bayName: 'S-1', startTime: '2026-11-23T22:00:00.000Z', endTime: '2026-11-23T23:00:00.000Z', message: null },
        ],
      });
      // South full at 09:00: North still has its bay, South says why; nothing is written.
      expect((await submit(request({ siteId: south.id }))).statusCode).toBe(201);
      const [n, s] = (await sitesPreview()).json().sites;
      expect(n).toMatchObject({ siteName: 'North Terminal', bayName: 'N-1', message: null });
      expect(s).toMatchObject({ siteName: 'South Terminal', bayName: null, startTime: null, message: expect.stringMatching(/^No compatible bay is available/) });
      // A vehicle no bay takes: each site says so.
      for (const site of (await sitesPreview({ vehicleHeightM: 6 })).json().sites) expect(site).toMatchObject({ bayName: null, message: expect.any(String) });
      expect((await t.ctx.database.query<{ n: number }>('select count(*)::int as n from bookings'))[0]!.n).toBe(1);
    } finally {
      await setChoice(false);
    }
  });
});
