import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDataIfEmpty } from '../../db/seed';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { signAccessToken } from '../../auth/tokens';

// The organization schedule API: one site's active bays in natural order, the bookings that hold
// a bay and the blackouts over site-local days — and nothing of another organization.

const NOW = '2026-11-23T00:00:00Z'; // Monday 23 Nov, 11:00 in Sydney (UTC+11)

type Body = {
  site: { id: string; name: string; timeZone: string; slotIntervalMin: number; operatingHours: Record<string, unknown> };
  bays: Array<{ id: string; name: string; heightClearanceM: number; lengthM: number | null; features: string[] }>;
  bookings: Array<{ id: string; status: string; bayId: string; startTime: string; endTime: string; version: number; tsrNumber: string; tenantName: string }>;
  blackouts: Array<{ id: string; bayId: string | null; start: string; end: string; reason: string | null }>;
};

describe.each(databaseKinds)('organization schedule API on %s', (kind) => {
  let t: TestApp;
  let acmeId: string;
  let harbourId: string;
  let siteId: string;
  let otherSiteId: string;
  let harbourSiteId: string;
  const bay: Record<string, string> = {};
  let admin: Record<string, string>;
  let dock: Record<string, string>;
  let security: Record<string, string>;
  let harbourAdmin: Record<string, string>;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  const signIn = async (email: string) => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [session] = await query<{ id: string }>(
      `insert into auth_sessions (user_id, expires_at) values ($1, $2::timestamptz + interval '1 day') returning id`,
      [user!.id, NOW],
    );
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: session!.id, email });
    return { authorization: `Bearer ${token}` };
  };

  const get = async (path: string, headers: Record<string, string>, orgId = acmeId) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/orgs/${orgId}${path}`, headers });
    return { status: response.statusCode, body: response.json() as Body & { error?: { code: string; message: string } } };
  };

  /** A booking from `start` to `end` (UTC instants) on a bay, in any status. */
  const booking = async (status: string, bayId: string, start: string, end: string, site = siteId) => {
    seq += 1;
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min)
       values ($1, $2, $3, $4, $5, 'haulier@example.test', $6, $7, $6, $7, 'rigid', $8, 3500, 3.5, $9, 'admin', 60) returning id`,
      [acmeId, site, bayId, `TSR-SCH-${seq}`, `Tenant ${seq}`, start, end, `SCH${seq}`, status],
    );
    return row!.id;
  };
  const blackout = async (bayId: string | null, start: string, end: string, reason: string, site = siteId) => {
    const [row] = await query<{ id: string }>(
      `insert into blackouts (org_id, site_id, bay_id, start_time, end_time, reason) values ($1, $2, $3, $4, $5, $6) returning id`,
      [acmeId, site, bayId, start, end, reason],
    );
    return row!.id;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
    harbourId = (await query<{ id: string }>(`select id from organizations where slug = 'harbour-foods'`))[0]!.id;
    harbourSiteId = (await query<{ id: string }>(`select id from sites where org_id = $1 limit 1`, [harbourId]))[0]!.id;
    siteId = (await query<{ id: string }>(`insert into sites (org_id, name, time_zone, slot_interval_min) values ($1, 'Schedule Yard', 'Australia/Sydney', 15) returning id`, [acmeId]))[0]!.id;
    otherSiteId = (await query<{ id: string }>(`insert into sites (org_id, name, time_zone) values ($1, 'Other Yard', 'Australia/Sydney') returning id`, [acmeId]))[0]!.id;
    for (const [name, active, features] of [
      ['S-10', true, '{hazardous}'],
      ['S-2', true, '{}'],
      ['S-1', true, '{refrigerated}'],
      ['S-OLD', false, '{}'],
    ] as const) {
      bay[name] = (await query<{ id: string }>(
        `insert into bays (org_id, site_id, name, height_clearance_m, length_m, active, features) values ($1, $2, $3, 4.5, 16, $4, $5) returning id`,
        [acmeId, siteId, name, active, features],
      ))[0]!.id;
    }
    bay.other = (await query<{ id: string }>(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, 'O-1', 5) returning id`, [acmeId, otherSiteId]))[0]!.id;
    admin = await signIn('admin@acme.test');
    dock = await signIn('dock@acme.test');
    security = await signIn('security@acme.test');
    harbourAdmin = await signIn('admin@harbour.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the site, its active bays in natural order, and what overlaps the site-local days', async () => {
    // Tuesday 24 Nov in Sydney runs from 2026-11-23T13:00Z to 2026-11-24T13:00Z.
    const morning = await booking('pending', bay['S-1']!, '2026-11-23T22:00:00Z', '2026-11-23T23:00:00Z'); // 09:00–10:00
    const acrossMidnight = await booking('approved', bay['S-2']!, '2026-11-24T12:30:00Z', '2026-11-24T13:30:00Z'); // 23:30–00:30
    const completed = await booking('completed', bay['S-10']!, '2026-11-23T13:00:00Z', '2026-11-23T14:00:00Z'); // 00:00–01:00
    await booking('cancelled', bay['S-1']!, '2026-11-24T00:00:00Z', '2026-11-24T01:00:00Z');
    await booking('declined', bay['S-2']!, '2026-11-24T00:00:00Z', '2026-11-24T01:00:00Z');
    await booking('no_show', bay['S-10']!, '2026-11-24T00:00:00Z', '2026-11-24T01:00:00Z');
    // The UTC 24th but Sydney's 25th (01:00): outside the day.
    const nextDay = await booking('approved', bay['S-1']!, '2026-11-24T14:00:00Z', '2026-11-24T15:00:00Z');
    // The day before ends exactly at the range's start: no overlap.
    await booking('approved', bay['S-1']!, '2026-11-23T12:00:00Z', '2026-11-23T13:00:00Z');
    await booking('approved', bay.other!, '2026-11-23T22:00:00Z', '2026-11-23T23:00:00Z', otherSiteId);

    const wholeSite = await blackout(null, '2026-11-23T20:00:00Z', '2026-11-23T21:00:00Z', 'Fire drill');
    const onBay = await blackout(bay['S-2']!, '2026-11-24T01:00:00Z', '2026-11-24T03:00:00Z', 'Leveller repair');
    await blackout(bay['S-OLD']!, '2026-11-24T01:00:00Z', '2026-11-24T03:00:00Z', 'Retired bay');
    await blackout(null, '2026-11-25T01:00:00Z', '2026-11-25T03:00:00Z', 'Later');
    await blackout(bay.other!, '2026-11-24T01:00:00Z', '2026-11-24T03:00:00Z', 'Other site', otherSiteId);

    const res = await get(`/schedule?siteId=${siteId}&from=2026-11-24&to=2026-11-24`, admin);
    expect(res.status).toBe(200);
    expect(res.body.site).toMatchObject({ id: siteId, name: 'Schedule Yard', timeZone: 'Australia/Sydney', slotIntervalMin: 15 });
    expect(res.body.site.operatingHours.mon).toEqual([{ open: '06:00', close: '22:00' }]);
    expect(res.body.bays.map((b) => b.name)).toEqual(['S-1', 'S-2', 'S-10']);
    expect(res.body.bays[0]).toEqual({ id: bay['S-1'], name: 'S-1', heightClearanceM: 4.5, lengthM: 16, features: ['refrigerated'] });
    expect(res.body.bookings.map((b) => b.id)).toEqual([completed, morning, acrossMidnight]);
    expect(res.body.bookings[1]).toEqual({
      id: morning,
      version: 1,
      status: 'pending',
      tsrNumber: expect.stringMatching(/^TSR-SCH-/),
      tenantName: expect.stringMatching(/^Tenant /),
      vehicleType: 'rigid',
      vehicleRegistration: expect.stringMatching(/^SCH/),
      bayId: bay['S-1'],
      startTime: '2026-11-23T22:00:00.000Z',
      endTime: '2026-11-23T23:00:00.000Z',
    });
    expect(res.body.blackouts).toEqual([
      { id: wholeSite, bayId: null, start: '2026-11-23T20:00:00.000Z', end: '2026-11-23T21:00:00.000Z', reason: 'Fire drill' },
      { id: onBay, bayId: bay['S-2'], start: '2026-11-24T01:00:00.000Z', end: '2026-11-24T03:00:00.000Z', reason: 'Leveller repair' },
    ]);

    // A week: the next day's booking and blackout join; a dockmaster of the organization sees it too.
    const week = await get(`/schedule?siteId=${siteId}&from=2026-11-23&to=2026-11-29`, dock);
    expect(week.status).toBe(200);
    expect(week.body.bookings.map((b) => b.id)).toEqual(expect.arrayContaining([morning, acrossMidnight, nextDay]));
    expect(week.body.blackouts.map((b) => b.reason)).toEqual(['Fire drill', 'Leveller repair', 'Later']);
  });

  it('refuses a range over 14 days, backwards or not a calendar date with a 400', async () => {
    const fourteen = await get(`/schedule?siteId=${siteId}&from=2026-11-23&to=2026-12-06`, admin);
    expect(fourteen.status).toBe(200);
    const fifteen = await get(`/schedule?siteId=${siteId}&from=2026-11-23&to=2026-12-07`, admin);
    expect(fifteen.status).toBe(400);
    expect(JSON.stringify(fifteen.body)).toContain('A schedule covers at most 14 days');
    const backwards = await get(`/schedule?siteId=${siteId}&from=2026-11-23&to=2026-11-22`, admin);
    expect(backwards.status).toBe(400);
    expect(JSON.stringify(backwards.body)).toContain('The last day must not be before the first day');
    expect((await get(`/schedule?siteId=${siteId}&from=2026-02-30&to=2026-03-01`, admin)).status).toBe(400);
    expect((await get(`/schedule?from=2026-11-23&to=2026-11-23`, admin)).status).toBe(400);
    expect((await get(`/schedule?siteId=not-a-site&from=2026-11-23&to=2026-11-23`, admin)).status).toBe(400);
  });

  it('answers an empty site with no bays, and 404 for unknown sites', async () => {
    const [empty] = await query<{ id: string }>(`insert into sites (org_id, name, time_zone) values ($1, 'Empty Yard', 'Europe/London') returning id`, [acmeId]);
    const res = await get(`/schedule?siteId=${empty!.id}&from=2026-11-23&to=2026-11-23`, admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ site: { name: 'Empty Yard', timeZone: 'Europe/London' }, bays: [], bookings: [], blackouts: [] });
    expect((await get(`/schedule?siteId=00000000-0000-4000-8000-000000000000&from=2026-11-23&to=2026-11-23`, admin)).status).toBe(404);
  });

  it('keeps every site to its organization: 404 across organizations, 401 without a session', async () => {
    const day = 'from=2026-11-24&to=2026-11-24';
    // Acme's admin asking for Harbour's site through Acme's prefix.
    const foreign = await get(`/schedule?siteId=${harbourSiteId}&${day}`, admin);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain('Harbour');
    // Harbour's admin asking for Acme's site, through either prefix.
    const viaOwn = await get(`/schedule?siteId=${siteId}&${day}`, harbourAdmin, harbourId);
    expect(viaOwn.status).toBe(404);
    expect(JSON.stringify(viaOwn.body)).not.toContain('TSR-SCH');
    expect((await get(`/schedule?siteId=${siteId}&${day}`, harbourAdmin)).status).toBe(404);
    // Security staff have no workspace; nobody signed in gets 401.
    expect((await get(`/schedule?siteId=${siteId}&${day}`, security)).status).toBe(404);
    expect((await get(`/schedule?siteId=${siteId}&${day}`, {})).status).toBe(401);
  });
});
