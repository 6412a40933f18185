import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RealtimeEvent } from '../../../domain/realtime';
import { seedDemoDataIfEmpty } from '../../db/seed';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { signAccessToken } from '../../auth/tokens';

// Blackouts through the API: one-offs and recurring series (expanded into rows the portal's
// availability reads), edits that rewrite only the future, live bookings in the way (409, then
// keep / move / cancel), bad input, and nobody outside the organization's admins writing.

const NOW = '2026-11-23T00:00:00Z'; // a Monday; midnight in London (UTC in winter)

describe.each(databaseKinds)('organization blackouts API on %s', (kind) => {
  let t: TestApp;
  let acmeId: string;
  let harbourId: string;
  let harbourSiteId: string;
  let harbourBayId: string;
  let siteId: string;
  let otherSiteId: string;
  let otherSiteBayId: string;
  let bay: Record<'t1' | 't2' | 'low', string>;
  let admin: Record<string, string>;
  let dock: Record<string, string>;
  let security: Record<string, string>;
  let harbourAdmin: Record<string, string>;
  let events: RealtimeEvent[];
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const url = (path: string, orgId = acmeId) => `/api/orgs/${orgId}${path}`;

  const signIn = async (email: string) => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [session] = await query<{ id: string }>(`insert into auth_sessions (user_id, expires_at) values ($1, $2::timestamptz + interval '30 days') returning id`, [user!.id, NOW]);
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: session!.id, email });
    return { authorization: `Bearer ${token}` };
  };

  type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
  const call = async (method: Method, path: string, headers: Record<string, string>, payload?: unknown) => {
    const response = await t.app.inject({ method, url: path, headers, payload: payload as never });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body };
  };

  /** A booking on the test site, in UTC (= London time in winter). */
  const booking = async (bayId: string, start: string, minutes = 60, status = 'approved') => {
    seq += 1;
    const end = new Date(Date.parse(start) + minutes * 60_000).toISOString();
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min)
       values ($1, $2, $3, $4, 'Blackout Freight', $5, $6, $7, $6, $7, 'rigid', $8, 3500, 3.5, $9, 'admin', $10) returning id`,
      [acmeId, siteId, bayId, `TSR-BLK-${seq}`, `haulier${seq}@example.test`, start, end, `BLK${seq}`, status, minutes],
    );
    return row!.id;
  };
  const bookingRow = async (id: string) =>
    (await query<{ status: string; bay_id: string; status_reason: string | null }>(`select status, bay_id, status_reason from bookings where id = $1`, [id]))[0]!;
  const counts = async () =>
    (
      await query<{ blackouts: number; series: number }>(
        `select (select count(*)::int from blackouts where site_id = $1) as blackouts, (select count(*)::int from blackout_series where site_id = $1) as series`,
        [siteId],
      )
    )[0]!;
  const oneOff = (overrides: Record<string, unknown> = {}) => ({
    siteId,
    bayId: bay.t1,
    startDate: '2026-11-24',
    startTime: '06:00',
    endDate: '2026-11-24',
    endTime: '12:00',
    reason: 'Resurfacing',
    ...overrides,
  });
  const weekly = (overrides: Record<string, unknown> = {}) => ({
    siteId,
    bayId: null,
    frequency: 'weekly',
    interval: 1,
    weekdays: ['tue'],
    startsOn: '2026-11-24',
    startLocal: '06:00',
    durationMin: 120,
    reason: 'Weekly maintenance',
    ...overrides,
  });

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
    harbourId = (await query<{ id: string }>(`select id from organizations where slug = 'harbour-foods'`))[0]!.id;
    [{ id: harbourSiteId }] = await query<{ id: string }>(`select id from sites where org_id = $1 limit 1`, [harbourId]);
    [{ id: harbourBayId }] = await query<{ id: string }>(`select id from bays where org_id = $1 limit 1`, [harbourId]);
    siteId = (await query<{ id: string }>(`insert into sites (org_id, name, time_zone) values ($1, 'Blackout Yard', 'Europe/London') returning id`, [acmeId]))[0]!.id;
    otherSiteId = (await query<{ id: string }>(`insert into sites (org_id, name, time_zone) values ($1, 'Other Yard', 'Europe/London') returning id`, [acmeId]))[0]!.id;
    otherSiteBayId = (await query<{ id: string }>(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, 'O-1', 4) returning id`, [acmeId, otherSiteId]))[0]!.id;
    const addBay = async (name: string, clearance: number) =>
      (await query<{ id: string }>(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, $3, $4) returning id`, [acmeId, siteId, name, clearance]))[0]!.id;
    // 6 m: taller than any demo bay, so a 5.8 m vehicle can only use these two.
    bay = { t1: await addBay('T-1', 6), t2: await addBay('T-2', 6), low: await addBay('T-LOW', 3) };
    admin = await signIn('admin@acme.test');
    dock = await signIn('dock@acme.test');
    security = await signIn('security@acme.test');
    harbourAdmin = await signIn('admin@harbour.test');
    events = [];
    const hub = t.ctx.realtime!;
    const publish = hub.publish.bind(hub);
    hub.publish = (event) => {
      events.push(event);
      publish(event);
    };
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    t.clock.set(NOW);
  });

  describe('one-off blackouts', () => {
    it('creates, lists, changes and deletes one, in the site’s time zone, audited and published', async () => {
      const created = await call('POST', url('/blackouts'), admin, oneOff());
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.blackout.id;
      expect(created.body).toMatchObject({
        outcomes: [],
        blackout: {
          kind: 'blackout',
          siteName: 'Blackout Yard',
          bayName: 'T-1',
          startTime: '2026-11-24T06:00:00.000Z',
          endTime: '2026-11-24T12:00:00.000Z',
          startDate: '2026-11-24',
          startLocal: '06:00',
          endLocal: '12:00',
          reason: 'Resurfacing',
          series: null,
          status: 'upcoming',
        },
      });
      expect(events.at(-1)).toMatchObject({ entity: 'blackout', action: 'created', id, orgId: acmeId, siteId });
      const [audit] = await query<{ action: string; actor_email: string; details: Record<string, unknown> }>(
        `select action, actor_email, details from audit_log where resource_id = $1`,
        [id],
      );
      expect(audit).toMatchObject({ action: 'blackout.created', actor_email: 'admin@acme.test', details: { bay: 'T-1', reason: 'Resurfacing' } });

      const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((i) => i.id);
      expect(ids(await call('GET', url(`/blackouts?siteId=${siteId}`), admin))).toContain(id);
      expect(ids(await call('GET', url(`/blackouts?bayId=${bay.t1}&from=2026-11-24&to=2026-11-24`), dock))).toEqual([id]);
      expect(ids(await call('GET', url(`/blackouts?bayId=${bay.t2}`), admin))).not.toContain(id);
      expect(ids(await call('GET', url(`/blackouts?siteId=${siteId}&from=2026-11-25`), admin))).not.toContain(id);

      const changed = await call('PATCH', url(`/blackouts/${id}`), admin, { endTime: '13:00', reason: 'Resurfacing, phase 2' });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body.blackout).toMatchObject({ startTime: '2026-11-24T06:00:00.000Z', endTime: '2026-11-24T13:00:00.000Z', reason: 'Resurfacing, phase 2' });
      expect(events.at(-1)).toMatchObject({ entity: 'blackout', action: 'updated', id });

      expect((await call('DELETE', url(`/blackouts/${id}`), admin)).status).toBe(204);
      expect(ids(await call('GET', url(`/blackouts?siteId=${siteId}`), admin))).not.toContain(id);
      expect(events.at(-1)).toMatchObject({ entity: 'blackout', action: 'deleted', id, siteId });
      const actions = await query<{ action: string }>(`select action from audit_log where resource_id = $1 order by created_at, id`, [id]);
      expect(actions.map((a) => a.action)).toEqual(['blackout.created', 'blackout.updated', 'blackout.deleted']);
      expect((await call('DELETE', url(`/blackouts/${id}`), admin)).status).toBe(404);
    });

    it('closes the whole site and pages the list', async () => {
      for (let day = 1; day <= 3; day++) {
        const res = await call('POST', url('/blackouts'), admin, oneOff({ bayId: null, startDate: `2027-01-0${day}`, endDate: `2027-01-0${day}`, reason: `Stocktake ${day}` }));
        expect(res.status).toBe(201);
        expect(res.body.blackout.bayName).toBeNull();
      }
      const page = await call('GET', url(`/blackouts?siteId=${siteId}&from=2027-01-01&to=2027-01-03&pageSize=10`), admin);
      expect(page.body).toMatchObject({ total: 3, page: 1, pageSize: 10 });
      const second = await call('GET', url(`/blackouts?siteId=${siteId}&from=2027-01-01&to=2027-01-03&pageSize=10&page=2`), admin);
      expect(second.body).toMatchObject({ total: 3, items: [] });
      // A bay's view includes its site's whole-site closures.
      expect((await call('GET', url(`/blackouts?bayId=${bay.t2}&from=2027-01-02&to=2027-01-02`), admin)).body.items.map((i: { reason: string }) => i.reason)).toEqual(['Stocktake 2']);
      expect((await call('GET', url(`/blackouts?pageSize=7`), admin)).status).toBe(400);
      expect((await call('GET', url(`/blackouts?from=2027-01-05&to=2027-01-01`), admin)).status).toBe(400);
    });

    it('shows holiday closures read-only', async () => {
      const [holiday] = await query<{ id: string }>(
        `insert into blackouts (org_id, site_id, start_time, end_time, reason, kind) values ($1, $2, '2026-12-25T00:00:00Z', '2026-12-26T00:00:00Z', 'Christmas Day', 'holiday') returning id`,
        [acmeId, siteId],
      );
      const list = await call('GET', url(`/blackouts?siteId=${siteId}&from=2026-12-25&to=2026-12-25`), dock);
      expect(list.body.items).toEqual([expect.objectContaining({ id: holiday!.id, kind: 'holiday', bayName: null, reason: 'Christmas Day' })]);
      const patch = await call('PATCH', url(`/blackouts/${holiday!.id}`), admin, { reason: 'Boxing Day' });
      expect(patch.status).toBe(409);
      expect(patch.body.error.code).toBe('holiday_closure');
      expect((await call('DELETE', url(`/blackouts/${holiday!.id}`), admin)).status).toBe(409);
      await query(`delete from blackouts where id = $1`, [holiday!.id]);
    });
  });

  describe('recurring blackouts', () => {
    const availability = async (date: string) => {
      const res = await call('POST', '/api/public/availability', {}, { orgId: acmeId, date, durationMin: 30, vehicleHeightM: 5.8 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.siteName).toBe('Blackout Yard');
      return Object.fromEntries((res.body.slots as Array<{ time: string; available: boolean }>).map((s) => [s.time, s.available]));
    };

    it('writes a weekly series as blackouts the public availability respects, 06:00 local across DST', async () => {
      expect((await availability('2026-11-24'))['06:00']).toBe(true);
      const res = await call('POST', url('/blackout-series'), admin, weekly());
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const series = res.body.series;
      expect(series).toMatchObject({
        summary: 'Every Tuesday 06:00–08:00',
        rrule: 'FREQ=WEEKLY;INTERVAL=1;BYDAY=TU',
        frequency: 'weekly',
        weekdays: ['tue'],
        bayName: null,
        expandedUntil: '2028-11-22', // today + 730 days
        nextStart: '2026-11-24T06:00:00.000Z',
      });
      expect(res.body.occurrences).toBe(105);
      expect(series.upcomingCount).toBe(105);
      expect(events.at(-1)).toMatchObject({ entity: 'blackout', action: 'created', id: series.id, siteId });

      // The portal: Tuesday mornings closed on every bay of the site, Wednesday open.
      const tuesday = await availability('2026-11-24');
      expect([tuesday['06:00'], tuesday['06:30'], tuesday['07:00'], tuesday['07:30'], tuesday['08:00']]).toEqual([false, false, false, false, true]);
      expect((await availability('2026-12-01'))['07:30']).toBe(false);
      expect((await availability('2026-11-25'))['06:00']).toBe(true);

      // 06:00 London: 06:00Z in winter, 05:00Z in summer time (from 2027-03-28).
      const starts = await query<{ start_time: Date }>(
        `select start_time from blackouts where series_id = $1 and start_time between '2027-03-20' and '2027-04-01' order by start_time`,
        [series.id],
      );
      expect(starts.map((r) => new Date(r.start_time).toISOString())).toEqual(['2027-03-23T06:00:00.000Z', '2027-03-30T05:00:00.000Z']);

      const listed = await call('GET', url(`/blackouts?siteId=${siteId}&from=2026-11-24&to=2026-11-24`), dock);
      expect(listed.body.items).toEqual([expect.objectContaining({ series: { id: series.id, summary: 'Every Tuesday 06:00–08:00' }, bayName: null })]);
      const seriesList = await call('GET', url(`/blackout-series?siteId=${siteId}`), dock);
      expect(seriesList.body.items.map((s: { id: string }) => s.id)).toContain(series.id);
      expect((await call('GET', url(`/blackout-series/${series.id}`), dock)).body.summary).toBe('Every Tuesday 06:00–08:00');

      const removed = await call('DELETE', url(`/blackout-series/${series.id}`), admin);
      expect(removed.body).toEqual({ deletedOccurrences: 105, keptOccurrences: 0 });
      expect((await availability('2026-11-24'))['06:00']).toBe(true);
      expect((await call('GET', url(`/blackout-series/${series.id}`), admin)).status).toBe(404);
    });

    it('rewrites only future occurrences on an edit, keeping history and exceptions; deleting keeps what has started', async () => {
      const res = await call('POST', url('/blackout-series'), admin, weekly({ bayId: bay.t2, frequency: 'daily', weekdays: [], startsOn: '2026-11-23', startLocal: '10:00', durationMin: 60, until: '2026-12-06', reason: 'Daily checks' }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.occurrences).toBe(14);
      const seriesId = res.body.series.id;
      const rows = async () =>
        (
          await query<{ id: string; start_time: Date; series_id: string | null; reason: string }>(
            `select id, start_time, series_id, reason from blackouts where bay_id = $1 and start_time < '2026-12-10' order by start_time`,
            [bay.t2],
          )
        ).map((r) => ({ ...r, start: new Date(r.start_time).toISOString() }));
      const idAt = async (start: string) => (await rows()).find((r) => r.start === start)!.id;

      // One occurrence deleted alone, another changed alone (it leaves the series).
      expect((await call('DELETE', url(`/blackouts/${await idAt('2026-11-26T10:00:00.000Z')}`), admin)).status).toBe(204);
      const moved = await call('PATCH', url(`/blackouts/${await idAt('2026-11-27T10:00:00.000Z')}`), admin, { startTime: '14:00', endTime: '15:00' });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body.blackout).toMatchObject({ series: null, startTime: '2026-11-27T14:00:00.000Z' });

      // A day and a half later the series moves to 11:00.
      t.clock.set('2026-11-24T12:00:00Z');
      const laterAdmin = await signIn('admin@acme.test'); // access tokens are short-lived
      const edited = await call('PATCH', url(`/blackout-series/${seriesId}`), laterAdmin, { startLocal: '11:00', reason: 'Daily checks (later)' });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      expect(edited.body.series).toMatchObject({ summary: 'Every day 11:00–12:00', reason: 'Daily checks (later)' });
      const after = await rows();
      expect(after.map((r) => [r.start.slice(0, 16), r.series_id ? 'series' : 'alone'])).toEqual([
        ['2026-11-23T10:00', 'series'], // history
        ['2026-11-24T10:00', 'series'], // started before the edit
        ['2026-11-25T11:00', 'series'],
        // 26th: deleted alone, stays deleted
        ['2026-11-27T14:00', 'alone'], // changed alone, not written again
        ['2026-11-28T11:00', 'series'],
        ['2026-11-29T11:00', 'series'],
        ['2026-11-30T11:00', 'series'],
        ['2026-12-01T11:00', 'series'],
        ['2026-12-02T11:00', 'series'],
        ['2026-12-03T11:00', 'series'],
        ['2026-12-04T11:00', 'series'],
        ['2026-12-05T11:00', 'series'],
        ['2026-12-06T11:00', 'series'],
      ]);
      expect(after[0]!.reason).toBe('Daily checks');
      expect(after[2]!.reason).toBe('Daily checks (later)');
      expect(edited.body.occurrences).toBe(10);

      const removed = await call('DELETE', url(`/blackout-series/${seriesId}`), laterAdmin);
      expect(removed.body).toEqual({ deletedOccurrences: 10, keptOccurrences: 2 });
      const left = await rows();
      expect(left.map((r) => [r.start.slice(0, 16), r.series_id])).toEqual([
        ['2026-11-23T10:00', null],
        ['2026-11-24T10:00', null],
        ['2026-11-27T14:00', null],
      ]);
      const [audit] = await query<{ details: Record<string, unknown> }>(`select details from audit_log where resource_id = $1 and action = 'blackout_series.deleted'`, [seriesId]);
      expect(audit!.details).toMatchObject({ occurrences_deleted: 10, occurrences_kept: 2 });
      for (const r of left) await query(`delete from blackouts where id = $1`, [r.id]);
    });
  });

  describe('live bookings in the way', () => {
    it('answers 409 with the bookings and changes nothing; then keeps them', async () => {
      const live = await booking(bay.t1, '2026-11-30T09:00:00Z');
      await booking(bay.t1, '2026-11-30T13:00:00Z'); // after the blackout
      await booking(bay.t1, '2026-11-30T10:00:00Z', 60, 'cancelled'); // not live
      await booking(bay.t2, '2026-11-30T10:00:00Z'); // another bay
      const before = await counts();
      const body = oneOff({ startDate: '2026-11-30', endDate: '2026-11-30', startTime: '08:00', endTime: '12:00' });
      const refused = await call('POST', url('/blackouts'), admin, body);
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('affected_bookings');
      expect(refused.body.error.message).toContain('1 upcoming booking is affected by closing bay T-1');
      expect(refused.body.error.details.affected.map((b: { id: string }) => b.id)).toEqual([live]);
      expect(await counts()).toEqual(before);

      const kept = await call('POST', url('/blackouts'), admin, { ...body, resolution: { action: 'keep' } });
      expect(kept.status, JSON.stringify(kept.body)).toBe(201);
      expect(kept.body.outcomes).toEqual([expect.objectContaining({ id: live, outcome: 'kept', bayName: 'T-1' })]);
      expect(await bookingRow(live)).toMatchObject({ status: 'approved', bay_id: bay.t1 });
      // Changing only the reason does not ask again about the bookings already kept.
      const renamed = await call('PATCH', url(`/blackouts/${kept.body.blackout.id}`), admin, { reason: 'Leveller repair' });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      // Making it longer does, for the booking it newly covers.
      const later = await booking(bay.t1, '2026-11-30T12:30:00Z', 30);
      const longer = await call('PATCH', url(`/blackouts/${kept.body.blackout.id}`), admin, { endTime: '13:00' });
      expect(longer.status).toBe(409);
      expect(longer.body.error.details.affected.map((b: { id: string }) => b.id)).toEqual([later]);
      expect((await query<{ end_time: Date }>(`select end_time from blackouts where id = $1`, [kept.body.blackout.id]))[0]!.end_time).toEqual(new Date('2026-11-30T12:00:00Z'));
    });

    it('moves them to another free compatible bay, the new blackout excluded', async () => {
      const first = await booking(bay.t1, '2026-12-01T09:00:00Z');
      const second = await booking(bay.t1, '2026-12-01T10:00:00Z');
      await booking(bay.t2, '2026-12-01T10:00:00Z'); // T-2 taken at 10:00: the second cannot move
      const res = await call('POST', url('/blackouts'), admin, oneOff({ startDate: '2026-12-01', endDate: '2026-12-01', startTime: '08:00', endTime: '12:00', resolution: { action: 'reassign' } }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.outcomes).toEqual([
        expect.objectContaining({ id: first, outcome: 'moved', bayName: 'T-2' }),
        expect.objectContaining({ id: second, outcome: 'not_moved' }),
      ]);
      expect((await bookingRow(first)).bay_id).toBe(bay.t2);
      expect((await bookingRow(second)).bay_id).toBe(bay.t1);
      const [{ tenant_email: email }] = await query<{ tenant_email: string }>(`select tenant_email from bookings where id = $1`, [first]);
      const mail = (await t.outbox()).filter((m) => m.subject?.startsWith('Booking rescheduled by the site') && [m.to].flat().some((a) => a?.text.includes(email)));
      expect(mail).toHaveLength(1);
      expect(mail[0]!.text).toContain('bay T-2');
    });

    it('cancels them with the reason e-mailed to the haulier; a series over bookings asks too', async () => {
      const id = await booking(bay.t1, '2026-12-02T09:00:00Z');
      const body = oneOff({ startDate: '2026-12-02', endDate: '2026-12-02', startTime: '08:00', endTime: '12:00' });
      const noReason = await call('POST', url('/blackouts'), admin, { ...body, resolution: { action: 'cancel' } });
      expect(noReason.status).toBe(400);
      expect((await bookingRow(id)).status).toBe('approved');
      const res = await call('POST', url('/blackouts'), admin, { ...body, resolution: { action: 'cancel', reason: 'Dock door repair' } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.outcomes).toEqual([expect.objectContaining({ id, outcome: 'cancelled' })]);
      expect(await bookingRow(id)).toMatchObject({ status: 'cancelled', status_reason: 'Dock door repair' });
      const mail = (await t.outbox()).filter((m) => m.subject?.startsWith('Booking cancelled')).at(-1);
      expect(mail?.text).toContain('Reason: Dock door repair');

      // Thursday 3 Dec 09:00 on T-1, under a Thursday series on T-1.
      const thursday = await booking(bay.t1, '2026-12-03T09:30:00Z', 30);
      const seriesBody = weekly({ bayId: bay.t1, weekdays: ['thu'], startsOn: '2026-11-26', startLocal: '09:00', durationMin: 60, until: '2026-12-31' });
      const asked = await call('POST', url('/blackout-series'), admin, seriesBody);
      expect(asked.status).toBe(409);
      expect(asked.body.error.details.affected.map((b: { id: string }) => b.id)).toEqual([thursday]);
      const moved = await call('POST', url('/blackout-series'), admin, { ...seriesBody, resolution: { action: 'reassign' } });
      expect(moved.status, JSON.stringify(moved.body)).toBe(201);
      expect(moved.body.outcomes).toEqual([expect.objectContaining({ id: thursday, outcome: 'moved', bayName: 'T-2' })]);
      // Its edit to Fridays asks about Friday's booking only.
      const friday = await booking(bay.t1, '2026-12-04T09:00:00Z', 30);
      const edit = await call('PATCH', url(`/blackout-series/${moved.body.series.id}`), admin, { weekdays: ['thu', 'fri'] });
      expect(edit.status).toBe(409);
      expect(edit.body.error.details.affected.map((b: { id: string }) => b.id)).toEqual([friday]);
      expect((await call('PATCH', url(`/blackout-series/${moved.body.series.id}`), admin, { weekdays: ['thu', 'fri'], resolution: { action: 'keep' } })).status).toBe(200);
      await call('DELETE', url(`/blackout-series/${moved.body.series.id}`), admin);
    });
  });

  describe('bad input', () => {
    it('answers 400 with the field and changes nothing', async () => {
      const before = await counts();
      const expect400 = async (method: Method, path: string, body: unknown, field: string, message?: string) => {
        const res = await call(method, url(path), admin, body);
        expect(res.status, `${path} ${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
        if (message) expect(res.body.error.message).toContain(message);
      };
      await expect400('POST', '/blackouts', oneOff({ endTime: '05:00' }), 'endTime', 'The end must be after the start');
      await expect400('POST', '/blackouts', oneOff({ endDate: '2026-11-23' }), 'endDate', 'The end must be after the start');
      await expect400('POST', '/blackouts', oneOff({ startDate: '2026-11-01', endDate: '2026-11-02' }), 'endDate', 'already over');
      await expect400('POST', '/blackouts', oneOff({ bayId: otherSiteBayId }), 'bayId', 'is not at Blackout Yard');
      await expect400('POST', '/blackouts', oneOff({ startTime: '25:00' }), 'startTime');
      await expect400('POST', '/blackouts', oneOff({ reason: 'x'.repeat(501) }), 'reason');
      await expect400('POST', '/blackout-series', weekly({ frequency: 'hourly' }), 'frequency', 'Repeat daily, weekly or monthly');
      await expect400('POST', '/blackout-series', weekly({ weekdays: [] }), 'weekdays', 'Choose at least one weekday');
      await expect400('POST', '/blackout-series', weekly({ interval: 0 }), 'interval');
      await expect400('POST', '/blackout-series', weekly({ durationMin: 10_081 }), 'durationMin');
      await expect400('POST', '/blackout-series', weekly({ until: '2026-11-20' }), 'until');
      await expect400('POST', '/blackout-series', weekly({ startsOn: '2026-11-22' }), 'startsOn', 'cannot be in the past');
      await expect400('POST', '/blackout-series', weekly({ weekdays: ['wed'], until: '2026-11-24' }), 'until', 'No blackout falls');
      await expect400('POST', '/blackout-series', weekly({ bayId: otherSiteBayId }), 'bayId');

      const one = (await call('POST', url('/blackouts'), admin, oneOff({ startDate: '2027-02-01', endDate: '2027-02-01' }))).body.blackout.id;
      const series = (await call('POST', url('/blackout-series'), admin, weekly({ until: '2026-12-31' }))).body.series.id;
      const mid = await counts();
      await expect400('PATCH', `/blackouts/${one}`, { endDate: '2027-01-31' }, 'endDate', 'The end must be after the start');
      await expect400('PATCH', `/blackouts/${one}`, { startTime: '13:00' }, 'endTime', 'The end must be after the start');
      await expect400('PATCH', `/blackout-series/${series}`, { frequency: 'weekly', weekdays: [] }, 'weekdays');
      await expect400('PATCH', `/blackout-series/${series}`, { until: '2026-11-01' }, 'until');
      await expect400('PATCH', `/blackout-series/${series}`, { frequency: 'yearly' }, 'frequency');
      expect(await counts()).toEqual(mid);
      expect(mid).toEqual({ blackouts: before.blackouts + 1 + 6, series: before.series + 1 });
      await call('DELETE', url(`/blackouts/${one}`), admin);
      await call('DELETE', url(`/blackout-series/${series}`), admin);
      expect(await counts()).toEqual(before);
    });

    it('answers 404 for unknown and malformed ids', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect((await call('PATCH', url(`/blackouts/${unknown}`), admin, { reason: 'x' })).status).toBe(404);
      expect((await call('DELETE', url('/blackouts/not-a-uuid'), admin)).status).toBe(404);
      expect((await call('GET', url('/blackout-series/not-a-uuid'), admin)).status).toBe(404);
      expect((await call('POST', url('/blackouts'), admin, oneOff({ bayId: unknown }))).status).toBe(404);
      expect((await call('POST', url('/blackouts'), admin, oneOff({ siteId: unknown }))).status).toBe(404);
    });
  });

  describe('outsiders', () => {
    it('keeps other organizations out (404), dockmasters from writing (403), anonymous callers out (401)', async () => {
      const one = (await call('POST', url('/blackouts'), admin, oneOff({ startDate: '2027-03-01', endDate: '2027-03-01', reason: 'Private reason' }))).body.blackout.id;
      const series = (await call('POST', url('/blackout-series'), admin, weekly({ until: '2026-12-31', reason: 'Private reason' }))).body.series.id;
      const before = await counts();

      // Acme's admin naming Harbour's site or bay.
      expect((await call('POST', url('/blackouts'), admin, oneOff({ siteId: harbourSiteId, bayId: null }))).status).toBe(404);
      expect((await call('POST', url('/blackouts'), admin, oneOff({ bayId: harbourBayId }))).status).toBe(404);
      expect((await call('POST', url('/blackout-series'), admin, weekly({ siteId: harbourSiteId }))).status).toBe(404);

      const writes: Array<{ method: Method; path: string; body?: unknown }> = [
        { method: 'POST', path: '/blackouts', body: oneOff({ startDate: '2027-04-01', endDate: '2027-04-01' }) },
        { method: 'PATCH', path: `/blackouts/${one}`, body: { reason: 'Changed' } },
        { method: 'DELETE', path: `/blackouts/${one}` },
        { method: 'POST', path: '/blackout-series', body: weekly({ startsOn: '2027-05-04', until: '2027-05-31' }) },
        { method: 'PATCH', path: `/blackout-series/${series}`, body: { reason: 'Changed' } },
        { method: 'DELETE', path: `/blackout-series/${series}` },
      ];
      const reads: Array<{ method: Method; path: string; body?: unknown }> = [
        { method: 'GET', path: '/blackouts' },
        { method: 'GET', path: `/blackouts?siteId=${siteId}` },
        { method: 'GET', path: '/blackout-series' },
        { method: 'GET', path: `/blackout-series/${series}` },
        { method: 'GET', path: '/blackout-options' },
      ];
      for (const route of writes) {
        const res = await call(route.method, url(route.path), dock, route.body);
        expect({ route: `${route.method} ${route.path}`, status: res.status }).toEqual({ route: `${route.method} ${route.path}`, status: 403 });
      }
      for (const route of reads) expect((await call(route.method, url(route.path), dock, route.body)).status).toBe(200);
      const callers = [
        { who: "another organization's admin", headers: harbourAdmin, status: 404 },
        { who: 'security staff', headers: security, status: 404 },
        { who: 'anonymous', headers: {}, status: 401 },
      ];
      for (const route of [...writes, ...reads]) {
        for (const caller of callers) {
          const res = await call(route.method, url(route.path), caller.headers, route.body);
          expect({ route: `${route.method} ${route.path}`, who: caller.who, status: res.status }).toEqual({ route: `${route.method} ${route.path}`, who: caller.who, status: caller.status });
          expect(JSON.stringify(res.body)).not.toContain('Private reason');
        }
      }
      // Harbour's admin through Harbour's own prefix with Acme's ids.
      expect((await call('PATCH', url(`/blackouts/${one}`, harbourId), harbourAdmin, { reason: 'x' })).status).toBe(404);
      expect((await call('DELETE', url(`/blackout-series/${series}`, harbourId), harbourAdmin)).status).toBe(404);
      expect((await call('DELETE', url(`/blackouts/${one}`, harbourId), harbourAdmin)).status).toBe(404);
      expect((await call('PATCH', url(`/blackout-series/${series}`, harbourId), harbourAdmin, { reason: 'x' })).status).toBe(404);
      expect((await call('GET', url('/blackouts', harbourId), harbourAdmin)).body.items.map((i: { id: string }) => i.id)).not.toContain(one);
      expect(await counts()).toEqual(before);
    });
  });
});
