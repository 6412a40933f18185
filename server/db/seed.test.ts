import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPERATING_HOURS, DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../domain/constants';
import { RELEASED_BOOKING_STATUSES } from '../../domain/booking-lifecycle';
import { verifyPassword } from '../auth/passwords';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import { buildDemoData, localDay, toMinutes } from './demo-data';
import { seedDemoDataIfEmpty } from './seed';

// 11:00 on a Monday in Sydney, 10:00 in Brisbane: the docks are busy.
const NOW = '2026-11-23T00:00:00Z';
const released = RELEASED_BOOKING_STATUSES.map((s) => `'${s}'`).join(', ');

describe('demo data generator', () => {
  it('is reproducible: the same clock gives the same bookings', () => {
    const project = (now: string) =>
      buildDemoData({ now: new Date(now), passwordHash: 'x' }).bookings.map((b) => [
        b.tsrNumber,
        b.startTime.toISOString(),
        b.endTime.toISOString(),
        b.status,
        b.vehicleRegistration,
      ]);
    expect(project(NOW)).toEqual(project(NOW));
    expect(project(NOW)).not.toEqual(project('2026-11-24T00:00:00Z'));
  });

  it('keeps vehicles within bay clearance and bookings within operating hours, in every season', () => {
    for (const now of [NOW, '2026-04-05T01:30:00Z', '2026-10-04T10:00:00Z', '2027-06-30T20:00:00Z']) {
      const data = buildDemoData({ now: new Date(now), passwordHash: 'x' });
      const bayById = new Map(data.bays.map((b) => [b.id, b]));
      const siteById = new Map(data.sites.map((s) => [s.id, s]));
      expect(data.bookings.length).toBeGreaterThanOrEqual(400);
      expect(data.bookings.length).toBeLessThanOrEqual(700);
      for (const booking of data.bookings) {
        const bay = bayById.get(booking.bayId)!;
        const site = siteById.get(booking.siteId)!;
        expect(bay.siteId).toBe(site.id);
        expect(booking.vehicleHeightM).toBeLessThanOrEqual(bay.heightClearanceM);
        expect((booking.specialAccessNeeds ?? []).every((need) => bay.features!.includes(need))).toBe(true);
        const minutes = (booking.endTime.getTime() - booking.startTime.getTime()) / 60_000;
        expect(minutes).toBe(booking.expectedDurationMin);
        expect(minutes).toBeGreaterThanOrEqual(30);
        expect(minutes).toBeLessThanOrEqual(120);
        // Local opening hours of the booking's own day in the site's zone.
        const tz = site.timeZone!;
        const hours = DEFAULT_OPERATING_HOURS[localDay(booking.startTime, tz, 0).weekday][0];
        expect(hours).toBeTruthy();
        const fmt = (d: Date) =>
          new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
        expect(toMinutes(fmt(booking.startTime))).toBeGreaterThanOrEqual(toMinutes(hours!.open));
        expect(toMinutes(fmt(booking.endTime)) || 24 * 60).toBeLessThanOrEqual(toMinutes(hours!.close));
        // Lifecycle timestamps never lie in the future and follow each other.
        const chain = [booking.createdAt, booking.checkedInAt, booking.startedAt, booking.completedAt].filter(
          (d): d is Date => !!d,
        );
        for (let i = 1; i < chain.length; i++) expect(chain[i].getTime()).toBeGreaterThan(chain[i - 1].getTime());
        for (const at of [booking.createdAt, booking.approvedAt, booking.checkedInAt, booking.startedAt, booking.completedAt]) {
          if (at) expect(at.getTime()).toBeLessThanOrEqual(new Date(now).getTime());
        }
      }
      // No two bookings, and no booking and blackout, share a bay at the same time.
      const taken = new Map<string, [number, number][]>();
      const siteBays = (siteId: string) => data.bays.filter((b) => b.siteId === siteId).map((b) => b.id!);
      for (const b of data.blackouts) {
        for (const bayId of b.bayId ? [b.bayId] : siteBays(b.siteId)) {
          taken.set(bayId, [...(taken.get(bayId) ?? []), [b.startTime.getTime(), b.endTime.getTime()]]);
        }
      }
      for (const b of data.bookings) {
        const [s, e] = [b.startTime.getTime(), b.endTime.getTime()];
        expect((taken.get(b.bayId) ?? []).some(([a, z]) => s < z && a < e)).toBe(false);
        taken.set(b.bayId, [...(taken.get(b.bayId) ?? []), [s, e]]);
      }
    }
  });
});

// How long seeding takes is bench/demo-seed.ts's figure (it was a < 3 s assertion here).
describe.each(databaseKinds)('demo seed on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    expect(await seedDemoDataIfEmpty(t.ctx)).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
  });

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  it('creates the two organizations, three sites and their bays', async () => {
    expect(await query(`select name, slug, status, active from organizations order by name`)).toEqual([
      { name: 'Acme Logistics', slug: 'acme-logistics', status: 'active', active: true },
      { name: 'Harbour Foods', slug: 'harbour-foods', status: 'active', active: true },
    ]);
    const sites = await query<{ org: string; site: string; tz: string; bays: number; min: number; max: number }>(
      `select o.name as org, s.name as site, s.time_zone as tz, count(b.id)::int as bays,
              min(b.height_clearance_m)::float as min, max(b.height_clearance_m)::float as max
         from sites s join organizations o on o.id = s.org_id join bays b on b.site_id = s.id
        group by o.name, s.name, s.time_zone order by o.name, s.name`,
    );
    expect(sites).toEqual([
      { org: 'Acme Logistics', site: 'North Terminal', tz: 'Australia/Sydney', bays: 12, min: 3.8, max: 5.5 },
      { org: 'Acme Logistics', site: 'South Terminal', tz: 'Australia/Sydney', bays: 8, min: expect.any(Number), max: 4.2 },
      { org: 'Harbour Foods', site: 'Harbour DC', tz: 'Australia/Brisbane', bays: 4, min: expect.any(Number), max: expect.any(Number) },
    ]);
    const [north] = await query<{ operating_hours: unknown; emergency_contacts: unknown; address: string }>(
      `select operating_hours, emergency_contacts, address from sites where name = 'North Terminal'`,
    );
    expect(north.operating_hours).toEqual(DEFAULT_OPERATING_HOURS);
    expect(north.emergency_contacts).toEqual([
      { label: 'Security', extension: '2222' },
      { label: 'First aid', extension: '3333' },
      { label: 'Site manager', extension: '4444' },
    ]);
    expect(north.address).toBeTruthy();
    const names = await query<{ name: string }>(
      `select b.name from bays b join sites s on s.id = b.site_id where s.name = 'North Terminal' order by b.name`,
    );
    expect(names.map((r) => r.name)).toEqual(Array.from({ length: 12 }, (_, i) => `N-${String(i + 1).padStart(2, '0')}`));
  });

  it('creates the demo accounts with their roles, employee ID and the demo password', async () => {
    const rows = await query<{ email: string; platform_role: string | null; role: string | null; org: string | null; employee_id: string | null; confirmed: boolean; password_hash: string }>(
      `select u.email, u.platform_role, m.role, o.name as org, m.employee_id,
              u.email_confirmed_at is not null as confirmed, u.password_hash
         from users u left join org_memberships m on m.user_id = u.id and m.active
         left join organizations o on o.id = m.org_id order by u.email`,
    );
    const byEmail = new Map(rows.map((r) => [r.email, r]));
    for (const account of DEMO_ACCOUNTS) {
      const row = byEmail.get(account.email);
      expect(row, account.email).toBeTruthy();
      expect(row!.confirmed).toBe(true);
      if (account.role === 'super_admin') {
        expect(row!.platform_role).toBe('super_admin');
        expect(row!.role).toBeNull();
      } else {
        expect(row!.role).toBe(account.role);
        expect(row!.platform_role).toBeNull();
      }
    }
    expect(byEmail.get('admin@acme.test')!.org).toBe('Acme Logistics');
    expect(byEmail.get('dock@acme.test')!.org).toBe('Acme Logistics');
    expect(byEmail.get('dock@acme.test')!.employee_id).toBe('D1001');
    expect(byEmail.get('admin@harbour.test')!.org).toBe('Harbour Foods');
    expect(await verifyPassword(byEmail.get('dock@acme.test')!.password_hash, DEMO_PASSWORD)).toBe(true);
    // One hash computed once and shared.
    expect(new Set(rows.map((r) => r.password_hash)).size).toBe(1);
  });

  it('creates bookings around now, with no live overlap on any bay', async () => {
    const [{ total }] = await query<{ total: number }>(`select count(*)::int as total from bookings`);
    expect(total).toBeGreaterThanOrEqual(400);
    expect(total).toBeLessThanOrEqual(700);
    // The reports have something to show: bookings from the portal, the admin and the gate, and
    // arrivals early, on time and late (against the ±30 min booking window).
    const sources = await query<{ source: string }>(`select distinct source from bookings order by source`);
    expect(sources.map((r) => r.source)).toEqual(['admin', 'gate', 'portal']);
    const [arrivals] = await query<{ early: number; on_time: number; late: number }>(
      `select count(*) filter (where checked_in_at < start_time - interval '30 minutes')::int as early,
              count(*) filter (where checked_in_at between start_time - interval '30 minutes' and start_time + interval '30 minutes')::int as on_time,
              count(*) filter (where checked_in_at > start_time + interval '30 minutes')::int as late
         from bookings where checked_in_at is not null`,
    );
    expect(arrivals!.early).toBeGreaterThan(0);
    expect(arrivals!.late).toBeGreaterThan(0);
    expect(arrivals!.on_time).toBeGreaterThan(arrivals!.early + arrivals!.late);
    const [{ overlaps }] = await query<{ overlaps: number }>(
      `select count(*)::int as overlaps from bookings a join bookings b
          on a.bay_id = b.bay_id and a.id < b.id
         and tstzrange(a.start_time, a.end_time, '[)') && tstzrange(b.start_time, b.end_time, '[)')
       where a.status not in (${released}) and b.status not in (${released})`,
    );
    expect(overlaps).toBe(0);
    const [{ too_high }] = await query<{ too_high: number }>(
      `select count(*)::int as too_high from bookings k join bays b on b.id = k.bay_id where k.vehicle_height_m > b.height_clearance_m`,
    );
    expect(too_high).toBe(0);
    const [range] = await query<{ first: Date; last: Date }>(`select min(start_time) as first, max(start_time) as last from bookings`);
    const now = new Date(NOW).getTime();
    expect(now - new Date(range.first).getTime()).toBeGreaterThan(28 * 86_400_000);
    expect(new Date(range.last).getTime() - now).toBeGreaterThan(12 * 86_400_000);
    const statuses = await query<{ when: string; status: string }>(
      `select distinct case when k.end_time <= $1 then 'past' when k.start_time > $1 then 'future' else 'now' end as when, k.status
         from bookings k`,
      [NOW],
    );
    const set = (when: string) => new Set(statuses.filter((s) => s.when === when).map((s) => s.status));
    expect([...set('past')].every((s) => ['completed', 'no_show', 'cancelled', 'declined', 'overstay'].includes(s))).toBe(true);
    expect(set('past')).toContain('completed');
    expect([...set('future')].every((s) => ['pending', 'approved', 'checked_in', 'cancelled', 'declined'].includes(s))).toBe(true);
    expect(set('future')).toContain('pending');
    expect(set('future')).toContain('approved');
    const today = await query<{ status: string }>(
      `select distinct k.status from bookings k join sites s on s.id = k.site_id
        where (k.start_time at time zone s.time_zone)::date = ($1::timestamptz at time zone s.time_zone)::date`,
      [NOW],
    );
    const todayStatuses = today.map((r) => r.status);
    for (const status of ['checked_in', 'in_progress', 'approved', 'pending', 'completed']) expect(todayStatuses).toContain(status);
    const [{ tsr_ok }] = await query<{ tsr_ok: boolean }>(
      `select bool_and(tsr_number ~ '^TSR-\\d{4}-\\d{5}$') and count(distinct tsr_number) = count(*) as tsr_ok from bookings`,
    );
    expect(tsr_ok).toBe(true);
  });

  it('adds billing, paid invoices, blackouts, tenants and an audit trail', async () => {
    const [counts] = await query<Record<string, number>>(
      `select (select count(*)::int from plans) as plans,
              (select count(*)::int from billing where status = 'active') as billing,
              (select count(*)::int from invoices where status = 'paid' and paid_at > $1::timestamptz - interval '60 days') as paid,
              (select count(*)::int from blackouts where bay_id is null) as site_blackouts,
              (select count(*)::int from blackouts where bay_id is not null and start_time > $1::timestamptz) as future_bay_blackouts,
              (select count(*)::int from tenants) as tenants,
              (select count(*)::int from audit_log) as audit`,
      [NOW],
    );
    expect(counts.plans).toBe(3);
    expect(counts.billing).toBe(2);
    expect(counts.paid).toBeGreaterThanOrEqual(3);
    expect(counts.site_blackouts).toBe(1);
    expect(counts.future_bay_blackouts).toBe(1);
    expect(counts.tenants).toBeGreaterThanOrEqual(6);
    expect(counts.audit).toBeGreaterThanOrEqual(5);
  });

  it('does nothing the second time', async () => {
    const before = await query<{ n: number }>(`select (select count(*) from bookings) + (select count(*) from users) as n`);
    expect(await seedDemoDataIfEmpty(t.ctx)).toBe(false);
    const after = await query<{ n: number }>(`select (select count(*) from bookings) + (select count(*) from users) as n`);
    expect(after).toEqual(before);
    expect(await query(`select count(*)::int as n from organizations`)).toEqual([{ n: 2 }]);
  });
});
