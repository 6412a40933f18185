import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatingHours } from '../../../domain/constants';
import {
  REPORT_MESSAGES,
  type DwellReport,
  type NoShowReport,
  type PunctualityReport,
  type ReportOptions,
  type UtilisationReport,
  type VolumeReport,
} from '../../../domain/reports';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { addMember, createOrg, createUser } from '../../test/fixtures';
import { signAccessToken } from '../../auth/tokens';

// The reports API against a small data set checked by hand, on PGlite and PostgreSQL, at a frozen
// clock. The Yard (Australia/Sydney) is open 00:00–24:00 every day but Saturday; the range
// Sat 3 – Mon 5 October 2026 holds the start of daylight saving (Sunday 4 October: 02:00 → 03:00,
// a 23-hour day), a booking over that change, one over midnight, a site-wide blackout on the
// Sunday and a bay blackout on the Monday, and a cancelled, a declined and a no-show booking.
// Every figure below is worked out in the comments.

const NOW = '2026-11-23T00:00:00Z'; // Monday 23 November, 11:00 in Sydney

const allDay = [{ open: '00:00', close: '24:00' }];
const YARD_HOURS: OperatingHours = { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: [], sun: allDay };
const WEST_HOURS: OperatingHours = { ...YARD_HOURS, sat: allDay };

const RANGE = 'from=2026-10-03&to=2026-10-05';

describe.each(databaseKinds)('reports API on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let otherOrgId: string;
  let otherSiteId: string;
  let yard: { id: string; bays: Record<string, string> };
  let west: { id: string; bays: Record<string, string> };
  const ids: Record<string, string> = {};
  const headers: Record<string, Record<string, string>> = {};
  let freshCoId: string;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  const session = async (userId: string, email: string, scope: { orgId?: string; siteId?: string } = {}) => {
    const [row] = await query<{ id: string }>(
      `insert into auth_sessions (user_id, org_id, site_id, expires_at) values ($1, $2, $3, $4::timestamptz + interval '1 day') returning id`,
      [userId, scope.orgId ?? null, scope.siteId ?? null, NOW],
    );
    const { token } = await signAccessToken(t.ctx, { userId, sessionId: row!.id, email });
    return { authorization: `Bearer ${token}` };
  };
  const member = async (org: string, role: string, scope: { siteId?: string } = {}) => {
    const user = await createUser(t.ctx.database);
    await addMember(t.ctx.database, org, user.id, role);
    return session(user.id, user.email, { orgId: org, ...scope });
  };

  const get = async (url: string, as = headers.admin!) => {
    const response = await t.app.inject({ method: 'GET', url, headers: as });
    return response;
  };
  const report = async <T>(name: string, params = RANGE, as = headers.admin!): Promise<T> => {
    const res = await get(`/api/orgs/${orgId}/reports/${name}?${params}`, as);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };

  const site = async (name: string, timeZone: string, hours: OperatingHours, bayNames: string[]) => {
    const [row] = await query<{ id: string }>(
      `insert into sites (org_id, name, time_zone, operating_hours) values ($1, $2, $3, $4::jsonb) returning id`,
      [orgId, name, timeZone, JSON.stringify(hours)],
    );
    const bays: Record<string, string> = {};
    for (const bay of bayNames) {
      // In service since January: the ranges below are all after that.
      const [b] = await query<{ id: string }>(
        `insert into bays (org_id, site_id, name, height_clearance_m, created_at, updated_at) values ($1, $2, $3, 5, '2026-01-01T00:00Z', '2026-01-01T00:00Z') returning id`,
        [orgId, row!.id, bay],
      );
      bays[bay] = b!.id;
    }
    return { id: row!.id, bays };
  };

  type Booking = {
    site: { id: string; bays: Record<string, string> };
    bay: string;
    start: string;
    end: string;
    status: string;
    tenant: string;
    tenantId?: string;
    vehicle?: string;
    type?: string;
    source?: string;
    checkedIn?: string;
    started?: string;
    completed?: string;
  };
  let seq = 0;
  const booking = async (b: Booking) => {
    seq += 1;
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tenant_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, booking_type,
                             checked_in_at, started_at, completed_at)
       values ($1, $2, $3, $4, $5, $6, 'ops@example.test', $7, $8, $7, $8, $9, $10, 3500, 3.5, $11, $12, $13, $14, $15, $16) returning id`,
      [
        orgId, b.site.id, b.site.bays[b.bay], b.tenantId ?? null, `TSR-REP-${seq}`, b.tenant, b.start, b.end,
        b.vehicle ?? 'semi', `REP${seq}`, b.status, b.source ?? 'portal', b.type ?? 'delivery',
        b.checkedIn ?? null, b.started ?? null, b.completed ?? null,
      ],
    );
    return row!.id;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    orgId = (await createOrg(t.ctx.database, { name: 'Report Org' })).id;
    const other = await createOrg(t.ctx.database, { name: 'Other Org' });
    otherOrgId = other.id;
    otherSiteId = (await query<{ id: string }>(`insert into sites (org_id, name, time_zone) values ($1, 'Elsewhere', 'UTC') returning id`, [otherOrgId]))[0]!.id;

    yard = await site('Yard', 'Australia/Sydney', YARD_HOURS, ['Y-1', 'Y-2']);
    // An inactive bay is not in the utilisation table.
    await query(`insert into bays (org_id, site_id, name, height_clearance_m, active) values ($1, $2, 'Y-3', 5, false)`, [orgId, yard.id]);
    west = await site('West', 'UTC', WEST_HOURS, ['W-1']);
    freshCoId = (await query<{ id: string }>(`insert into tenants (org_id, name) values ($1, 'Fresh Co') returning id`, [orgId]))[0]!.id;
    const fresh = { tenant: 'Fresh Co', tenantId: freshCoId };

    // Sydney is UTC+10 until Sun 4 Oct 02:00 local (= 3 Oct 16:00Z), UTC+11 after.
    // Sat 22:00 → Sun 00:30 (Saturday is closed: only Sunday's 30 minutes count). Approved, never arrived.
    ids.satLate = await booking({ site: yard, bay: 'Y-1', start: '2026-10-03T12:00Z', end: '2026-10-03T14:30Z', status: 'approved', ...fresh });
    // Sun 01:30 (+10) → 04:00 (+11): 90 minutes across the change. In 01:20, at the bay 01:40, out 03:30 (+11).
    ids.dst = await booking({
      site: yard, bay: 'Y-1', start: '2026-10-03T15:30Z', end: '2026-10-03T17:00Z', status: 'completed', source: 'admin', type: 'pickup', ...fresh,
      checkedIn: '2026-10-03T15:20Z', started: '2026-10-03T15:40Z', completed: '2026-10-03T16:30Z',
    });
    // Sun 23:00 → Mon 01:00 over midnight. In 22:20 (40 min early), at the bay 23:05, out 00:45.
    ids.midnight = await booking({
      site: yard, bay: 'Y-1', start: '2026-10-04T12:00Z', end: '2026-10-04T14:00Z', status: 'completed', source: 'gate', ...fresh,
      checkedIn: '2026-10-04T11:20Z', started: '2026-10-04T12:05Z', completed: '2026-10-04T13:45Z',
    });
    // Mon 12:00 → 15:00 on Y-2, under the bay's 10:00–14:00 blackout until 14:00. In 12:50 (50 late), bay 13:00, out 15:20.
    ids.blackout = await booking({
      site: yard, bay: 'Y-2', start: '2026-10-05T01:00Z', end: '2026-10-05T04:00Z', status: 'completed', source: 'ssc', type: 'both',
      tenant: 'ACME Freight', vehicle: 'van', checkedIn: '2026-10-05T01:50Z', started: '2026-10-05T02:00Z', completed: '2026-10-05T04:20Z',
    });
    // Mon 09:30 → 10:00. In 10:05 (35 late), bay 10:10, out 10:30 (exactly the threshold: not an overstay).
    ids.late35 = await booking({
      site: yard, bay: 'Y-1', start: '2026-10-04T22:30Z', end: '2026-10-04T23:00Z', status: 'completed', source: 'demo',
      tenant: '  acme freight ', vehicle: 'rigid', checkedIn: '2026-10-04T23:05Z', started: '2026-10-04T23:10Z', completed: '2026-10-04T23:30Z',
    });
    // Mon 18:00 → 19:00. In 21:30 (210 late), bay 21:35, out 22:00: an overstay. A tenant name a spreadsheet would run.
    ids.veryLate = await booking({
      site: yard, bay: 'Y-1', start: '2026-10-05T07:00Z', end: '2026-10-05T08:00Z', status: 'completed',
      tenant: "=cmd|' /C calc'!A0", vehicle: 'van', checkedIn: '2026-10-05T10:30Z', started: '2026-10-05T10:35Z', completed: '2026-10-05T11:00Z',
    });
    // Mon 20:00 → 21:00 on Y-2, in 19:50, at the bay 20:00 and never checked out (an overstay, occupying until now).
    ids.stillThere = await booking({
      site: yard, bay: 'Y-2', start: '2026-10-05T09:00Z', end: '2026-10-05T10:00Z', status: 'overstay', type: 'pickup', vehicle: 'rigid', ...fresh,
      checkedIn: '2026-10-05T08:50Z', started: '2026-10-05T09:00Z',
    });
    ids.noShow = await booking({ site: yard, bay: 'Y-1', start: '2026-10-04T21:00Z', end: '2026-10-04T22:00Z', status: 'no_show', ...fresh }); // Mon 08:00
    ids.cancelled = await booking({ site: yard, bay: 'Y-2', start: '2026-10-05T05:00Z', end: '2026-10-05T06:00Z', status: 'cancelled', tenant: 'Acme Freight', vehicle: 'van' }); // Mon 16:00
    ids.declined = await booking({ site: yard, bay: 'Y-1', start: '2026-10-04T18:00Z', end: '2026-10-04T19:00Z', status: 'declined', ...fresh }); // Mon 05:00
    // West (UTC): Sunday 23:30 → Monday 00:30 there (Monday 10:30 in Sydney): its own Sunday.
    ids.west = await booking({
      site: west, bay: 'W-1', start: '2026-10-04T23:30Z', end: '2026-10-05T00:30Z', status: 'completed', vehicle: 'car', ...fresh,
      checkedIn: '2026-10-04T23:25Z', started: '2026-10-04T23:30Z', completed: '2026-10-05T00:30Z',
    });
    // The end of daylight saving: Sun 5 April 2026 03:00 (+11) → 02:00 (+10), a 25-hour day. 01:00 (+11) → 05:00 (+10): 300 minutes.
    ids.dstEnd = await booking({
      site: yard, bay: 'Y-1', start: '2026-04-04T14:00Z', end: '2026-04-04T19:00Z', status: 'completed', ...fresh,
      checkedIn: '2026-04-04T13:55Z', started: '2026-04-04T14:00Z', completed: '2026-04-04T19:00Z',
    });
    // Site-wide Sunday 20:00–21:00 (+11), and Y-2 on Monday 10:00–14:00.
    await query(`insert into blackouts (org_id, site_id, bay_id, start_time, end_time, reason) values ($1, $2, null, '2026-10-04T09:00Z', '2026-10-04T10:00Z', 'Drill')`, [orgId, yard.id]);
    await query(`insert into blackouts (org_id, site_id, bay_id, start_time, end_time, reason) values ($1, $2, $3, '2026-10-04T23:00Z', '2026-10-05T03:00Z', 'Repairs')`, [orgId, yard.id, yard.bays['Y-2']]);

    headers.admin = await member(orgId, 'org_admin');
    headers.dockAtYard = await member(orgId, 'dockmaster', { siteId: yard.id });
    headers.dock = await member(orgId, 'dockmaster');
    headers.security = await member(orgId, 'security', { siteId: yard.id });
    headers.otherAdmin = await member(otherOrgId, 'org_admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('bay utilisation', () => {
    it('counts booked and occupied minutes within open hours, per bay and site-local day, across a DST start and midnight', async () => {
      const r = await report<UtilisationReport>('utilisation', `${RANGE}&siteId=${yard.id}`);
      expect(r.range).toEqual({ from: '2026-10-03', to: '2026-10-05', days: 3 });
      expect(r.siteId).toBe(yard.id);
      expect(r.sites).toEqual([{ id: yard.id, name: 'Yard', timeZone: 'Australia/Sydney' }]);
      const cell = (bay: string, date: string) => {
        const c = r.cells.find((x) => x.bayId === yard.bays[bay] && x.date === date)!;
        return [c.openMinutes, c.bookedMinutes, c.occupiedMinutes];
      };
      // Saturday: closed, so the Saturday part of the 22:00 booking counts nowhere.
      expect(cell('Y-1', '2026-10-03')).toEqual([0, 0, 0]);
      // Sunday: 23 hours (1380) minus the site's hour-long blackout = 1320. Booked: 00:00–00:30 (30), 01:30–04:00
      // across the change (90), 23:00–24:00 (60) = 180. Occupied: 01:40–03:30 (50) + 23:05–24:00 (55) = 105.
      expect(cell('Y-1', '2026-10-04')).toEqual([1320, 180, 105]);
      // Monday: 1440. Booked: 00:00–01:00 (60) + 09:30–10:00 (30) + 18:00–19:00 (60); not the no-show nor the declined one.
      // Occupied: 00:00–00:45 (45) + 10:10–10:30 (20) + 21:35–22:00 (25).
      expect(cell('Y-1', '2026-10-05')).toEqual([1440, 150, 90]);
      expect(cell('Y-2', '2026-10-04')).toEqual([1320, 0, 0]);
      // Monday on Y-2: 1440 − the 4-hour blackout = 1200. Booked 14:00–15:00 (the rest is under the blackout) + 20:00–21:00;
      // the cancelled 16:00 one is not. Occupied 14:00–15:20 (80) + 20:00–24:00, still at the bay (240).
      expect(cell('Y-2', '2026-10-05')).toEqual([1200, 120, 320]);
      expect(r.cells).toHaveLength(6); // 2 active bays × 3 days; the inactive Y-3 has none

      expect(r.bays.map((b) => [b.bayName, b.openMinutes, b.bookedMinutes, b.occupiedMinutes, b.bookedRate, b.occupiedRate])).toEqual([
        ['Y-1', 2760, 330, 195, 0.1196, 0.0707],
        ['Y-2', 2520, 120, 320, 0.0476, 0.127],
      ]);
      expect(r.siteDays.map((d) => [d.date, d.openMinutes, d.bookedMinutes, d.occupiedMinutes])).toEqual([
        ['2026-10-03', 0, 0, 0],
        ['2026-10-04', 2640, 180, 105],
        ['2026-10-05', 2640, 270, 410],
      ]);
      expect(r.siteDays[0]!.bookedRate).toBeNull();
      expect(r.total).toEqual({ openMinutes: 5280, bookedMinutes: 450, occupiedMinutes: 515, bookedRate: 0.0852, occupiedRate: 0.0975 });
      expect(r.siteTotals).toEqual([{ siteId: yard.id, siteName: 'Yard', ...r.total }]);
    });

    it('gives a 25-hour day at the end of daylight saving its 25 hours', async () => {
      const r = await report<UtilisationReport>('utilisation', `from=2026-04-05&to=2026-04-05&siteId=${yard.id}`);
      expect(r.bays.map((b) => [b.bayName, b.openMinutes, b.bookedMinutes, b.occupiedMinutes])).toEqual([
        ['Y-1', 1500, 300, 300],
        ['Y-2', 1500, 0, 0],
      ]);
      expect(r.total.openMinutes).toBe(3000);
    });

    it('adds every site on its own days for the organization', async () => {
      const r = await report<UtilisationReport>('utilisation');
      expect(r.siteId).toBeNull();
      expect(r.sites.map((s) => s.name)).toEqual(['West', 'Yard']);
      // West is open all three days (3 × 1440); its booking is 23:30–00:30 there: 30 minutes on each of Sunday and Monday.
      const w = r.bays.find((b) => b.bayName === 'W-1')!;
      expect([w.openMinutes, w.bookedMinutes, w.occupiedMinutes]).toEqual([4320, 60, 60]);
      expect(r.cells.filter((c) => c.bayId === west.bays['W-1']).map((c) => [c.date, c.bookedMinutes])).toEqual([
        ['2026-10-03', 0],
        ['2026-10-04', 30],
        ['2026-10-05', 30],
      ]);
      expect(r.total).toMatchObject({ openMinutes: 5280 + 4320, bookedMinutes: 450 + 60, occupiedMinutes: 515 + 60 });
      expect(r.siteTotals.map((s) => [s.siteName, s.bookedMinutes])).toEqual([['West', 60], ['Yard', 450]]);
    });

    it('follows the bookings at once (no stored totals): a booking cancelled, then restored', async () => {
      await query(`update bookings set status = 'cancelled' where id = $1`, [ids.late35]);
      try {
        const r = await report<UtilisationReport>('utilisation', `${RANGE}&siteId=${yard.id}`);
        expect(r.bays[0]).toMatchObject({ bayName: 'Y-1', bookedMinutes: 300, occupiedMinutes: 175 });
      } finally {
        await query(`update bookings set status = 'completed' where id = $1`, [ids.late35]);
      }
      const again = await report<UtilisationReport>('utilisation', `${RANGE}&siteId=${yard.id}`);
      expect(again.bays[0]).toMatchObject({ bookedMinutes: 330, occupiedMinutes: 195 });
    });

    it('keeps a deactivated bay’s history and counts a new bay only from when it was made', async () => {
      const hist = await site('History', 'UTC', WEST_HOURS, ['H-1']);
      await booking({ site: hist, bay: 'H-1', start: '2026-11-20T10:00Z', end: '2026-11-20T12:00Z', status: 'completed', tenant: 'Fresh Co', checkedIn: '2026-11-20T09:55Z', started: '2026-11-20T10:00Z', completed: '2026-11-20T11:45Z' });
      const admin = headers.admin!;
      // H-1 leaves service now (Mon 23 Nov 00:00 UTC); H-2 is made on Sunday at noon.
      const off = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/bays/${hist.bays['H-1']}/deactivate`, headers: admin, payload: {} });
      expect(off.statusCode, off.body).toBe(200);
      t.clock.set('2026-11-22T12:00:00Z');
      try {
        const made = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/bays`, headers: await member(orgId, 'org_admin'), payload: { siteId: hist.id, name: 'H-2', heightClearanceM: 4 } });
        expect(made.statusCode, made.body).toBe(201);
      } finally {
        t.clock.set(NOW);
      }
      const periods = await query<{ name: string; active_from: Date; active_until: Date | null }>(
        `select b.name, p.active_from, p.active_until from bay_active_periods p join bays b on b.id = p.bay_id where p.site_id = $1 order by b.name`,
        [hist.id],
      );
      expect(periods.map((p) => [p.name, new Date(p.active_from).toISOString(), p.active_until && new Date(p.active_until).toISOString()])).toEqual([
        ['H-1', '2026-01-01T00:00:00.000Z', NOW.replace('Z', '.000Z')],
        ['H-2', '2026-11-22T12:00:00.000Z', null],
      ]);

      const r = await report<UtilisationReport>('utilisation', `from=2026-11-19&to=2026-11-22&siteId=${hist.id}`);
      // H-1, deactivated since: its four open days and its 2 booked hours stay in the report.
      // H-2: only the 12 hours since it was made, not four whole days.
      expect(r.bays.map((b) => [b.bayName, b.isActive, b.openMinutes, b.bookedMinutes])).toEqual([
        ['H-1', false, 4 * 1440, 120],
        ['H-2', true, 720, 0],
      ]);
      expect(r.cells.filter((c) => c.bayId !== hist.bays['H-1']).map((c) => [c.date, c.openMinutes])).toEqual([
        ['2026-11-19', 0],
        ['2026-11-20', 0],
        ['2026-11-21', 0],
        ['2026-11-22', 720],
      ]);
      expect(r.total).toMatchObject({ openMinutes: 4 * 1440 + 720, bookedMinutes: 120 });
      // Today H-1 is out of service: not in the table.
      const today = await report<UtilisationReport>('utilisation', `from=2026-11-23&to=2026-11-23&siteId=${hist.id}`);
      expect(today.bays.map((b) => b.bayName)).toEqual(['H-2']);
      const csv = await get(`/api/orgs/${orgId}/reports/utilisation.csv?from=2026-11-19&to=2026-11-22&siteId=${hist.id}`, admin);
      expect(csv.body).toContain('H-1 (inactive)');
      // The other tests count the organization's sites: this one goes.
      await query(`delete from bookings where site_id = $1`, [hist.id]);
      await query(`delete from sites where id = $1`, [hist.id]);
    });
  });

  describe('punctuality', () => {
    it('sorts arrivals into early, on time and late, per tenant, site and vehicle type', async () => {
      const r = await report<PunctualityReport>('punctuality', `${RANGE}&siteId=${yard.id}`);
      // Arrivals: −10 (01:30 booking), −40, +50, +35, +210, −10 minutes from the start.
      expect(r.total).toEqual({
        arrivals: 6,
        early: 1,
        onTime: 2,
        late: 3,
        earlyRate: 0.1667,
        onTimeRate: 0.3333,
        lateRate: 0.5,
        medianLateMinutes: 50,
        p90LateMinutes: 178, // 50 + 0.8 × (210 − 50)
        lateByBucket: [1, 1, 0, 0, 1],
      });
      const row = (dimension: string, label: string) => r.rows.find((x) => x.dimension === dimension && x.label === label)!;
      // 'ACME Freight' and '  acme freight ' are one unlinked tenant.
      expect(row('tenant', 'ACME Freight')).toMatchObject({ key: 'name:acme freight', arrivals: 2, late: 2, medianLateMinutes: 42.5, p90LateMinutes: 48.5, lateByBucket: [1, 1, 0, 0, 0] });
      expect(row('tenant', 'Fresh Co')).toMatchObject({ key: freshCoId, arrivals: 3, early: 1, onTime: 2, late: 0, medianLateMinutes: null });
      expect(row('site', 'Yard')).toMatchObject({ key: yard.id, arrivals: 6, late: 3 });
      expect(row('vehicle_type', 'Semi-trailer')).toMatchObject({ key: 'semi', arrivals: 2, early: 1, onTime: 1 });
      expect(row('vehicle_type', 'Van')).toMatchObject({ arrivals: 2, late: 2 });
      expect(row('vehicle_type', 'Rigid Truck')).toMatchObject({ arrivals: 2, onTime: 1, late: 1 });
      expect(r.rows.map((x) => [x.dimension, x.label, x.arrivals])).toEqual([
        ['tenant', 'Fresh Co', 3],
        ['tenant', 'ACME Freight', 2],
        ['tenant', "=cmd|' /C calc'!A0", 1],
        ['site', 'Yard', 6],
        ['vehicle_type', 'Rigid Truck', 2],
        ['vehicle_type', 'Semi-trailer', 2],
        ['vehicle_type', 'Van', 2],
      ]);
    });
  });

  describe('dwell and turn time', () => {
    it('gives the median, p90 and max of gate wait, time at bay and on site, and counts overstays', async () => {
      const r = await report<DwellReport>('dwell', `${RANGE}&siteId=${yard.id}`);
      // Gate wait 20, 45, 10, 5, 5, 10; at bay 50, 100, 140, 20, 25 (one still there); on site 70 (01:20 +10 → 03:30 +11), 145, 150, 25, 30.
      expect(r.total).toEqual({
        visits: 6,
        overstays: 2, // out 3.5 h after its end, and one still at the bay
        gateWait: { count: 6, medianMinutes: 10, p90Minutes: 32.5, maxMinutes: 45 },
        atBay: { count: 5, medianMinutes: 50, p90Minutes: 124, maxMinutes: 140 },
        onSite: { count: 5, medianMinutes: 70, p90Minutes: 148, maxMinutes: 150 },
      });
      const row = (dimension: string, label: string) => r.rows.find((x) => x.dimension === dimension && x.label === label)!;
      expect(row('bay', 'Y-1')).toMatchObject({ visits: 4, overstays: 1, atBay: { count: 4, medianMinutes: 37.5, p90Minutes: 85, maxMinutes: 100 } });
      expect(row('bay', 'Y-2')).toMatchObject({ visits: 2, overstays: 1, gateWait: { count: 2, medianMinutes: 10, p90Minutes: 10, maxMinutes: 10 } });
      expect(row('booking_type', 'Delivery')).toMatchObject({ visits: 3 });
      expect(row('booking_type', 'Pickup')).toMatchObject({ visits: 2, overstays: 1 });
      expect(row('booking_type', 'Both')).toMatchObject({ visits: 1, onSite: { count: 1, medianMinutes: 150, p90Minutes: 150, maxMinutes: 150 } });
      expect(row('site', 'Yard')).toMatchObject({ visits: 6 });
      expect(row('tenant', 'Fresh Co')).toMatchObject({ visits: 3, overstays: 1 });
      expect(row('vehicle_type', 'Van')).toMatchObject({ visits: 2, overstays: 1 });
      expect([...new Set(r.rows.map((x) => x.dimension))]).toEqual(['site', 'bay', 'tenant', 'vehicle_type', 'booking_type']);
    });
  });

  describe('no-shows and cancellations', () => {
    it('gives the rates per tenant and site and the daily trend, declined bookings left out', async () => {
      const r = await report<NoShowReport>('no-shows', `${RANGE}&siteId=${yard.id}`);
      expect(r.total).toEqual({ bookings: 9, noShows: 1, cancellations: 1, noShowRate: 0.1111, cancellationRate: 0.1111 });
      expect(r.rows.map((x) => [x.dimension, x.label, x.bookings, x.noShows, x.cancellations, x.noShowRate, x.cancellationRate])).toEqual([
        ['tenant', 'Fresh Co', 5, 1, 0, 0.2, 0],
        ['tenant', 'ACME Freight', 3, 0, 1, 0, 0.3333],
        ['tenant', "=cmd|' /C calc'!A0", 1, 0, 0, 0, 0],
        ['site', 'Yard', 9, 1, 1, 0.1111, 0.1111],
      ]);
      expect(r.trend.map((d) => [d.date, d.bookings, d.noShows, d.cancellations])).toEqual([
        ['2026-10-03', 1, 0, 0],
        ['2026-10-04', 2, 0, 0],
        ['2026-10-05', 6, 1, 1],
      ]);
    });
  });

  describe('volume', () => {
    it('counts bookings per site-local day, type, source and weekday × hour, cancelled and declined left out', async () => {
      const r = await report<VolumeReport>('volume', `${RANGE}&siteId=${yard.id}`);
      expect(r.total).toEqual({
        bookings: 8,
        byType: { delivery: 5, pickup: 2, both: 1 },
        bySource: { portal: 4, admin: 1, gate: 1, carrier_api: 1, other: 1 },
      });
      expect(r.days.map((d) => [d.date, d.bookings, d.byType.delivery, d.bySource.portal])).toEqual([
        ['2026-10-03', 1, 1, 1],
        ['2026-10-04', 2, 1, 0],
        ['2026-10-05', 5, 3, 3],
      ]);
      expect(r.weekdayHours).toHaveLength(7 * 24);
      const busy = r.weekdayHours.filter((c) => c.bookings > 0).map((c) => `${c.weekday} ${c.hour}:${c.bookings}`);
      // The 01:30 start (before the change, +10) is hour 1; Sunday 23:00 is hour 23.
      expect(busy).toEqual(['mon 8:1', 'mon 9:1', 'mon 12:1', 'mon 18:1', 'mon 20:1', 'sat 22:1', 'sun 1:1', 'sun 23:1']);

      const all = await report<VolumeReport>('volume');
      // West's booking starts on its own Sunday (Monday 10:30 in Sydney).
      expect(all.days.map((d) => d.bookings)).toEqual([1, 3, 5]);
      expect(all.weekdayHours.find((c) => c.weekday === 'sun' && c.hour === 23)!.bookings).toBe(2);
    });
  });

  describe('CSV', () => {
    it('downloads each report’s table with its header, formula-like text neutralized', async () => {
      const res = await get(`/api/orgs/${orgId}/reports/utilisation.csv?${RANGE}&siteId=${yard.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="baywise-utilisation-2026-10-03-to-2026-10-05.csv"');
      expect(parse(res.body, { bom: true })).toEqual([
        ['Site', 'Bay', 'Open hours', 'Booked hours', 'Occupied hours', 'Booked %', 'Occupied %'],
        ['Yard', 'Y-1', '46.00', '5.50', '3.25', '12.0', '7.1'],
        ['Yard', 'Y-2', '42.00', '2.00', '5.33', '4.8', '12.7'],
      ]);

      const tenants = await get(`/api/orgs/${orgId}/reports/punctuality.csv?${RANGE}&siteId=${yard.id}&groupBy=tenant`);
      const table = parse(tenants.body, { bom: true }) as string[][];
      expect(table[0]!.slice(0, 6)).toEqual(['Group by', 'Group', 'Arrivals', 'Early', 'On time', 'Late']);
      expect(table.slice(1).map((line) => line.slice(0, 3))).toEqual([
        ['Tenant', 'Fresh Co', '3'],
        ['Tenant', 'ACME Freight', '2'],
        ['Tenant', "'=cmd|' /C calc'!A0", '1'],
      ]);
      // Written with its apostrophe, unquoted (it holds no comma, quote or line break).
      expect(tenants.body).toContain("\r\nTenant,'=cmd|' /C calc'!A0,1,");

      const dwell = parse((await get(`/api/orgs/${orgId}/reports/dwell.csv?${RANGE}&siteId=${yard.id}`)).body, { bom: true }) as string[][];
      expect(dwell[0]).toContain('Gate wait median min');
      expect(dwell.length).toBe(1 + (await report<DwellReport>('dwell', `${RANGE}&siteId=${yard.id}`)).rows.length);

      const noShows = parse((await get(`/api/orgs/${orgId}/reports/no-shows.csv?${RANGE}&siteId=${yard.id}&groupBy=site`)).body, { bom: true });
      expect(noShows).toEqual([
        ['Group by', 'Group', 'Bookings', 'No-shows', 'No-show %', 'Cancellations', 'Cancellation %'],
        ['Site', 'Yard', '9', '1', '11.1', '1', '11.1'],
      ]);

      const volume = parse((await get(`/api/orgs/${orgId}/reports/volume.csv?${RANGE}&siteId=${yard.id}`)).body, { bom: true });
      expect(volume).toEqual([
        ['Date', 'Bookings', 'Deliveries', 'Pickups', 'Delivery and pickup', 'Portal', 'Admin', 'Gate (walk-in)', 'Carrier API', 'Other'],
        ['2026-10-03', '1', '1', '0', '0', '1', '0', '0', '0', '0'],
        ['2026-10-04', '2', '1', '1', '0', '0', '1', '1', '0', '0'],
        ['2026-10-05', '5', '3', '1', '1', '3', '0', '0', '1', '1'],
      ]);
    });
  });

  it('is described in the OpenAPI document, CSV routes included', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths).filter((p) => p.startsWith('/api/orgs/{orgId}/reports'));
    expect(paths).toEqual(expect.arrayContaining(['/api/orgs/{orgId}/reports', '/api/orgs/{orgId}/reports/utilisation', '/api/orgs/{orgId}/reports/dwell.csv']));
    expect(paths).toHaveLength(11);
  });

  describe('range and filters', () => {
    it('defaults to the last 30 days up to today at the site', async () => {
      const r = await report<VolumeReport>('volume', `siteId=${yard.id}`);
      expect(r.range).toEqual({ from: '2026-10-25', to: '2026-11-23', days: 30 });
      expect(r.days).toHaveLength(30);
      expect(r.generatedAt).toBe('2026-11-23T00:00:00.000Z');
    });

    it('answers a clear 400 for malformed dates, half a range, an end before the start or more than 366 days', async () => {
      const cases: Array<[string, string]> = [
        ['from=2026-02-30&to=2026-03-01', REPORT_MESSAGES.fromInvalid],
        ['from=2026-03-01&to=tomorrow', REPORT_MESSAGES.toInvalid],
        ['from=2026-03-01', REPORT_MESSAGES.bothDates],
        ['from=2026-03-02&to=2026-03-01', REPORT_MESSAGES.endBeforeStart],
        ['from=2025-01-01&to=2026-01-02', REPORT_MESSAGES.rangeTooLong],
      ];
      for (const [params, message] of cases) {
        for (const name of ['utilisation', 'punctuality', 'dwell', 'no-shows', 'volume', 'volume.csv', 'dwell.csv']) {
          const res = await get(`/api/orgs/${orgId}/reports/${name}?${params}`);
          expect(res.statusCode, `${name}?${params}`).toBe(400);
          expect(res.json().error.message).toBe(message);
        }
      }
      const grouped = await get(`/api/orgs/${orgId}/reports/dwell.csv?groupBy=colour`);
      expect(grouped.statusCode).toBe(400);
    });

    it('answers 404 for a site that is not the organization’s', async () => {
      for (const siteId of [otherSiteId, '00000000-0000-4000-8000-000000000000', 'not-a-site']) {
        const res = await get(`/api/orgs/${orgId}/reports/utilisation?siteId=${siteId}`);
        expect(res.statusCode).toBe(404);
        expect(res.json().error.message).toBe(REPORT_MESSAGES.siteNotFound);
      }
    });
  });

  describe('access', () => {
    it('lets organization admins see every site together or one', async () => {
      const options = (await get(`/api/orgs/${orgId}/reports`)).json() as ReportOptions;
      expect(options).toEqual({
        sites: [
          { id: west.id, name: 'West', timeZone: 'UTC', today: '2026-11-23' },
          { id: yard.id, name: 'Yard', timeZone: 'Australia/Sydney', today: '2026-11-23' },
        ],
        allSitesAllowed: true,
        lockedSiteId: null,
        defaultSiteId: null,
        today: '2026-11-23',
        defaultRange: { from: '2026-10-25', to: '2026-11-23' },
        maxRangeDays: 366,
      });
    });

    it('keeps a dockmaster signed in at a site to that site', async () => {
      const options = (await get(`/api/orgs/${orgId}/reports`, headers.dockAtYard)).json() as ReportOptions;
      expect(options).toMatchObject({ allSitesAllowed: false, lockedSiteId: yard.id, defaultSiteId: yard.id, sites: [{ id: yard.id }] });
      const own = await report<NoShowReport>('no-shows', RANGE, headers.dockAtYard);
      expect(own.siteId).toBe(yard.id);
      expect(own.total.bookings).toBe(9);
      const other = await get(`/api/orgs/${orgId}/reports/no-shows?${RANGE}&siteId=${west.id}`, headers.dockAtYard);
      expect(other.statusCode).toBe(403);
      expect(other.json().error.message).toBe(REPORT_MESSAGES.ownSiteOnly);
    });

    it('lets a dockmaster without a site pick one site, not all together', async () => {
      const options = (await get(`/api/orgs/${orgId}/reports`, headers.dock)).json() as ReportOptions;
      expect(options).toMatchObject({ allSitesAllowed: false, lockedSiteId: null, defaultSiteId: west.id });
      expect(options.sites).toHaveLength(2);
      const all = await get(`/api/orgs/${orgId}/reports/volume?${RANGE}`, headers.dock);
      expect(all.statusCode).toBe(403);
      expect(all.json().error.message).toBe(REPORT_MESSAGES.allSitesForAdmins);
      expect((await report<VolumeReport>('volume', `${RANGE}&siteId=${west.id}`, headers.dock)).total.bookings).toBe(1);
    });

    it('shows nothing to security staff, another organization or anyone signed out', async () => {
      for (const path of ['reports', `reports/utilisation?${RANGE}`, `reports/volume.csv?${RANGE}`]) {
        // Security staff have no organization workspace: the organization scope answers 404, as for strangers (decision 012).
        expect((await get(`/api/orgs/${orgId}/${path}`, headers.security)).statusCode).toBe(404);
        expect((await get(`/api/orgs/${orgId}/${path}`, headers.otherAdmin)).statusCode).toBe(404);
        expect((await get(`/api/orgs/${orgId}/${path}`, {})).statusCode).toBe(401);
      }
      // Their own organization's reports hold none of ours.
      const theirs = await get(`/api/orgs/${otherOrgId}/reports/volume?${RANGE}`, headers.otherAdmin);
      expect(theirs.statusCode).toBe(200);
      expect(theirs.json().total.bookings).toBe(0);
      expect((await get(`/api/orgs/${otherOrgId}/reports/volume?siteId=${yard.id}`, headers.otherAdmin)).statusCode).toBe(404);
    });

    it('answers empty reports for an organization without sites', async () => {
      const empty = await createOrg(t.ctx.database, { name: 'Empty Org' });
      const admin = await member(empty.id, 'org_admin');
      const options = (await get(`/api/orgs/${empty.id}/reports`, admin)).json() as ReportOptions;
      expect(options).toMatchObject({ sites: [], allSitesAllowed: true, defaultSiteId: null, today: '2026-11-23' });
      for (const name of ['utilisation', 'punctuality', 'dwell', 'no-shows', 'volume', 'volume.csv']) {
        expect((await get(`/api/orgs/${empty.id}/reports/${name}?${RANGE}`, admin)).statusCode, name).toBe(200);
      }
      const volume = (await get(`/api/orgs/${empty.id}/reports/volume?${RANGE}`, admin)).json() as VolumeReport;
      expect(volume.total.bookings).toBe(0);
      expect(volume.days).toHaveLength(3);
    });
  });
});
