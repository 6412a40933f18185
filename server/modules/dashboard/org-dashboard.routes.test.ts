import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPERATING_HOURS } from '../../../domain/constants';
import { seedDemoDataIfEmpty } from '../../db/seed';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { signAccessToken } from '../../auth/tokens';

// The organization admin dashboard API: every figure checked against bookings inserted here, at a
// frozen clock, with "today" being each site's own day; and nothing of it reachable from outside.

// Monday 23 November 2026, 11:00 in Sydney (UTC+11); Sunday 22 November, 16:00 in Los Angeles (UTC-8).
const NOW = '2026-11-23T00:00:00Z';

type Dashboard = {
  generatedAt: string;
  siteId: string | null;
  stats: { pendingRequests: number; todaysBookings: number; onSiteNow: number; lateArrivals: number; utilisationPercent: number };
  recentRequests: Array<{ id: string; version: number; status: string; tsrNumber: string; tenantName: string; bayName: string; vehicleType: string }>;
  liveOperations: { onSite: Array<{ id: string; status: string; bayName: string }>; nextArrivals: Array<{ id: string; status: string }> };
  sites: Array<{
    id: string;
    name: string;
    today: string;
    activeBays: number;
    occupiedBays: number;
    todaysBookings: number;
    isOpenToday: boolean;
    bookedMinutes: number;
    capacityMinutes: number;
    utilisationPercent: number;
  }>;
};

describe.each(databaseKinds)('organization dashboard API on %s', (kind) => {
  let t: TestApp;
  let acmeId: string;
  let harbourSiteId: string;
  let yard: { id: string; bays: string[] };
  let west: { id: string; bays: string[] };
  let closed: { id: string; bays: string[] };
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

  const get = async (url: string, headers: Record<string, string>) => {
    const response = await t.app.inject({ method: 'GET', url, headers });
    return { status: response.statusCode, body: response.json() };
  };
  const dashboard = async (siteId?: string, headers = admin) => {
    const res = await get(`/api/orgs/${acmeId}/dashboard${siteId ? `?siteId=${siteId}` : ''}`, headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Dashboard;
  };

  const site = async (name: string, timeZone: string, bayNames: string[], hours = DEFAULT_OPERATING_HOURS) => {
    const [row] = await query<{ id: string }>(
      `insert into sites (org_id, name, time_zone, operating_hours) values ($1, $2, $3, $4::jsonb) returning id`,
      [acmeId, name, timeZone, JSON.stringify(hours)],
    );
    const bays: string[] = [];
    for (const bay of bayNames) {
      bays.push((await query<{ id: string }>(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, $3, 5) returning id`, [acmeId, row!.id, bay]))[0]!.id);
    }
    return { id: row!.id, bays };
  };

  /** A booking at `hoursFromNow` for `minutes`; later calls are created later (newest last). */
  const booking = async (at: { id: string; bays: string[] }, bay: number, status: string, hoursFromNow: number, minutes = 60) => {
    seq += 1;
    const start = new Date(Date.parse(NOW) + hoursFromNow * 3_600_000);
    const end = new Date(start.getTime() + minutes * 60_000);
    const createdAt = new Date(Date.parse(NOW) - 3_600_000 + seq * 1000);
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min, created_at)
       values ($1, $2, $3, $4, $5, 'haulier@example.test', $6, $7, $6, $7, 'semi', $8, 3500, 3.5, $9, 'admin', $10, $11) returning id`,
      [acmeId, at.id, at.bays[bay], `TSR-DASH-${seq}`, `Tenant ${seq}`, start.toISOString(), end.toISOString(), `DASH${seq}`, status, minutes, createdAt.toISOString()],
    );
    return row!.id;
  };

  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
    const harbourId = (await query<{ id: string }>(`select id from organizations where slug = 'harbour-foods'`))[0]!.id;
    harbourSiteId = (await query<{ id: string }>(`select id from sites where org_id = $1 limit 1`, [harbourId]))[0]!.id;
    yard = await site('Dash Yard', 'Australia/Sydney', ['D-1', 'D-2']);
    // An inactive bay counts neither in capacity nor in booked minutes.
    await query(`insert into bays (org_id, site_id, name, height_clearance_m, active) values ($1, $2, 'D-3', 5, false)`, [acmeId, yard.id]);
    west = await site('Dash West', 'America/Los_Angeles', ['W-1']);
    closed = await site('Dash Closed', 'Australia/Sydney', ['C-1'], { ...DEFAULT_OPERATING_HOURS, mon: [] });

    // Dash Yard, Monday 23 Nov in Sydney, now 11:00; opening hours 06:00-22:00.
    ids.completed = await booking(yard, 0, 'completed', -4); // 07:00
    ids.yesterday = await booking(yard, 0, 'completed', -24); // Sunday: not today
    ids.overstay = await booking(yard, 1, 'overstay', -3); // 08:00, still on site
    ids.inProgress = await booking(yard, 0, 'in_progress', -2); // 09:00, at the bay
    ids.pendingPast = await booking(yard, 0, 'pending', -1); // 10:00: today, but not a request from now on
    ids.late = await booking(yard, 1, 'approved', -0.5); // 10:30, not checked in: on time until 11:00 (the on-time window), late after
    ids.pendingToday = await booking(yard, 0, 'pending', 2); // 13:00
    ids.approvedToday = await booking(yard, 1, 'approved', 3); // 14:00
    ids.declined = await booking(yard, 0, 'declined', 4); // released: nowhere
    ids.cancelled = await booking(yard, 1, 'cancelled', 5); // released: nowhere
    ids.tomorrow = await booking(yard, 1, 'approved', 14); // 01:00 Tuesday: not today
    ids.pendingLater = await booking(yard, 0, 'pending', 480); // in 20 days: a pending request, not today

    // Dash West, Sunday 22 Nov in Los Angeles, now 16:00; Sunday hours 10:00-16:00.
    ids.westCompleted = await booking(west, 0, 'completed', -2); // 14:00-15:00 local
    ids.westEvening = await booking(west, 0, 'approved', 2); // 18:00 local: today there, after closing
    ids.westMonday = await booking(west, 0, 'approved', 10); // 02:00 Monday there: not today (though Monday in Sydney)

    // Dash Closed: closed on Mondays.
    ids.closedToday = await booking(closed, 0, 'approved', 1);

    admin = await signIn('admin@acme.test');
    dock = await signIn('dock@acme.test');
    security = await signIn('security@acme.test');
    harbourAdmin = await signIn('admin@harbour.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts one site’s figures on its own calendar day', async () => {
    const d = await dashboard(yard.id);
    expect(d.generatedAt).toBe('2026-11-23T00:00:00.000Z');
    expect(d.siteId).toBe(yard.id);
    expect(d.stats).toEqual({
      pendingRequests: 2, // 13:00 today and in 20 days; not the one whose start has passed
      todaysBookings: 7, // completed, overstay, in progress, pending 10:00 and 13:00, approved 10:30 and 14:00
      onSiteNow: 2, // overstay and in progress
      lateArrivals: 0, // approved 10:30, not checked in: still inside the 30-minute on-time window at 11:00
      utilisationPercent: 22, // 7 × 60 booked ÷ (2 active bays × 960 open minutes) = 21.9 %
    });
    expect(d.sites).toEqual([
      {
        id: yard.id,
        name: 'Dash Yard',
        timeZone: 'Australia/Sydney',
        today: '2026-11-23',
        activeBays: 2,
        occupiedBays: 2,
        todaysBookings: 7,
        isOpenToday: true,
        bookedMinutes: 420,
        capacityMinutes: 1920,
        utilisationPercent: 22,
      },
    ]);
  });

  it('lists the five latest requests, live operations and the next arrivals of today', async () => {
    const d = await dashboard(yard.id);
    expect(d.recentRequests.map((r) => r.id)).toEqual([ids.pendingLater, ids.tomorrow, ids.cancelled, ids.declined, ids.approvedToday]);
    expect(d.recentRequests[0]).toMatchObject({ status: 'pending', tsrNumber: expect.stringMatching(/^TSR-DASH-/), bayName: 'D-1', vehicleType: 'semi', version: 1 });
    expect(d.liveOperations.onSite.map((b) => [b.id, b.status, b.bayName])).toEqual([
      [ids.overstay, 'overstay', 'D-2'],
      [ids.inProgress, 'in_progress', 'D-1'],
    ]);
    expect(d.liveOperations.nextArrivals.map((b) => b.id)).toEqual([ids.pendingToday, ids.approvedToday]);
  });

  it('takes each site’s own day and hours: another time zone, and a closed day', async () => {
    const w = await dashboard(west.id);
    expect(w.sites[0]).toMatchObject({ today: '2026-11-22', todaysBookings: 2, bookedMinutes: 60, capacityMinutes: 360, utilisationPercent: 17, isOpenToday: true });
    expect(w.stats).toMatchObject({ todaysBookings: 2, pendingRequests: 0, lateArrivals: 0, utilisationPercent: 17 });
    expect(w.liveOperations.nextArrivals.map((b) => b.id)).toEqual([ids.westEvening]);

    const c = await dashboard(closed.id);
    expect(c.sites[0]).toMatchObject({ today: '2026-11-23', todaysBookings: 1, isOpenToday: false, capacityMinutes: 0, utilisationPercent: 0 });
    expect(c.stats.utilisationPercent).toBe(0);
  });

  it('adds the sites up for the whole organization', async () => {
    const all = await dashboard();
    expect(all.siteId).toBeNull();
    const names = all.sites.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['North Terminal', 'South Terminal', 'Dash Yard', 'Dash West', 'Dash Closed']));
    expect(all.stats.todaysBookings).toBe(all.sites.reduce((n, s) => n + s.todaysBookings, 0));
    const occupied = all.sites.reduce((n, s) => n + s.occupiedBays, 0);
    expect(all.stats.onSiteNow).toBeGreaterThanOrEqual(occupied);
    const booked = all.sites.reduce((n, s) => n + s.bookedMinutes, 0);
    const capacity = all.sites.reduce((n, s) => n + s.capacityMinutes, 0);
    expect(all.stats.utilisationPercent).toBe(Math.round((booked / capacity) * 100));
    // Against the database directly, org-wide.
    const [row] = await query<{ pending: number; onsite: number; late: number }>(
      `select count(*) filter (where status = 'pending' and start_time >= $2)::int as pending,
              count(*) filter (where status in ('checked_in', 'in_progress', 'overstay'))::int as onsite,
              count(*) filter (where status = 'approved' and start_time < $2::timestamptz - interval '30 minutes')::int as late
         from bookings where org_id = $1`,
      [acmeId, NOW],
    );
    expect(all.stats).toMatchObject({ pendingRequests: row!.pending, onSiteNow: row!.onsite, lateArrivals: row!.late });
    expect(all.recentRequests).toHaveLength(5);
  });

  it('follows the clock: a request whose start passes stops being pending and an approval becomes late', async () => {
    t.clock.set('2026-11-23T02:30:00Z'); // 13:30 in Sydney
    try {
      // Access tokens are short-lived: sign in again at the new time.
      const d = await dashboard(yard.id, await signIn('admin@acme.test'));
      expect(d.stats.pendingRequests).toBe(1);
      expect(d.stats.lateArrivals).toBe(1);
      expect(d.liveOperations.nextArrivals.map((b) => b.id)).toEqual([ids.approvedToday]);
    } finally {
      t.clock.set(NOW);
    }
  });

  it('is for the organization’s own staff only', async () => {
    expect((await get(`/api/orgs/${acmeId}/dashboard`, harbourAdmin)).status).toBe(404);
    expect((await get(`/api/orgs/${acmeId}/dashboard`, security)).status).toBe(404);
    expect((await get(`/api/orgs/${acmeId}/dashboard`, {})).status).toBe(401);
    expect((await get(`/api/orgs/${acmeId}/dashboard?siteId=${harbourSiteId}`, admin)).status).toBe(404);
    expect((await get(`/api/orgs/${acmeId}/dashboard?siteId=not-a-uuid`, admin)).status).toBe(400);
    expect((await dashboard(yard.id, dock)).stats.pendingRequests).toBe(2);
  });
});
