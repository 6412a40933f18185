import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPERATING_HOURS } from '../../../domain/constants';
import { SITE_NAME_TAKEN_MESSAGE, TIME_ZONE_MESSAGE } from '../../../domain/org-sites';
import { zonedTimeToUtc } from '../../../domain/slot-grid';
import { addMember, bearer, createBay, createOrg, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

// Settings › Sites & hours: sites created, edited, deactivated and reactivated by the organization's
// admins (read by its dockmasters), hours and time-zone changes that never move a booking but list
// the ones left outside, holiday closures — and the portal following each change at once.

// Monday 2026-11-23, 11:00 in Sydney (UTC+11).
const NOW = '2026-11-23T00:00:00Z';
const SYDNEY = 'Australia/Sydney';
const MONDAY = '2026-11-30';
const TUESDAY = '2026-12-01';

type Headers = Record<string, string>;

describe.each(databaseKinds)('organization sites API on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let otherOrgId: string;
  let admin: Headers;
  let dock: Headers;
  let security: Headers;
  let otherAdmin: Headers;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const url = (path: string, org = orgId) => `/api/orgs/${org}${path}`;
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers: Headers, payload?: unknown) => {
    const response = await t.app.inject({ method, url: path, headers, payload: payload as never });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body };
  };

  /** A site made through the API, with one 4.5 m bay. */
  const newSite = async (overrides: Record<string, unknown> = {}) => {
    seq += 1;
    const res = await call('POST', url('/sites'), admin, { name: `Yard ${seq}`, timeZone: SYDNEY, ...overrides });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const bay = await createBay(t.ctx.database, { id: res.body.id, orgId }, { name: `Y${seq}-1` });
    const second = await createBay(t.ctx.database, { id: res.body.id, orgId }, { name: `Y${seq}-2` });
    return { id: res.body.id as string, name: res.body.name as string, bayId: bay.id, secondBayId: second.id };
  };

  /** A booking at the site on `date` from local `from` to `to` ('HH:mm'). */
  const booking = async (site: { id: string; bayId: string; secondBayId?: string }, date: string, from: string, to: string, status = 'approved', onSecondBay = false) => {
    seq += 1;
    const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
    const start = zonedTimeToUtc(date, minutes(from), SYDNEY);
    const end = zonedTimeToUtc(date, minutes(to), SYDNEY);
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min)
       values ($1, $2, $3, $4, 'Site Test Freight', 'haulier@example.test', $5, $6, $5, $6, 'rigid', $7, 3000, 3, $8, 'admin', $9) returning id`,
      [orgId, site.id, onSecondBay ? site.secondBayId : site.bayId, `TSR-SITE-${seq}`, start.toISOString(), end.toISOString(), `SITE${seq}`, status, (end.getTime() - start.getTime()) / 60_000],
    );
    return row!.id;
  };
  const bookingRow = async (id: string) =>
    (await query<{ status: string; start_time: Date; status_reason: string | null }>(`select status, start_time, status_reason from bookings where id = $1`, [id]))[0]!;
  const siteRow = async (id: string) => (await query<Record<string, unknown>>(`select * from sites where id = $1`, [id]))[0]!;
  const auditActions = async (resourceId: string) =>
    (await query<{ action: string; details: Record<string, unknown> }>(`select action, details from audit_log where resource_id = $1 order by created_at, id`, [resourceId]));

  const availability = async (date: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/public/availability', payload: { orgId, date, durationMin: 30, vehicleHeightM: 3 } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { slots: { time: string; freeBays: number; available: boolean }[]; compatibleBays: number; notice: string | null };
  };
  const freeTimes = async (date: string) => (await availability(date)).slots.filter((s) => s.freeBays > 0).map((s) => s.time);

  const portalBooking = (date: string, slot: string) => {
    seq += 1;
    const form = new FormData();
    form.append(
      'data',
      JSON.stringify({
        orgId,
        tsrNumber: `TSR-PORTAL-${seq}`,
        tenantName: 'Portal Freight',
        contactName: 'Pat Portal',
        tenantEmail: 'pat@portal.test',
        date,
        slot,
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: `PRT${seq}`,
        vehicleHeightM: 3,
        driverInductionCompleted: true,
        termsAccepted: true,
      }),
    );
    return t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: form as never });
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    orgId = (await createOrg(db, { name: 'Sites Test Co' })).id;
    otherOrgId = (await createOrg(db, { name: 'Other Sites Co' })).id;
    const member = async (org: string, email: string, role: string) => {
      const user = await createUser(db, { email });
      await addMember(db, org, user.id, role, role === 'dockmaster' ? { employeeId: `E${email.length}` } : {});
      return bearer(await signIn(t.app, email));
    };
    admin = await member(orgId, 'admin@sites.test', 'org_admin');
    dock = await member(orgId, 'dock@sites.test', 'dockmaster');
    security = await member(orgId, 'guard@sites.test', 'security');
    otherAdmin = await member(otherOrgId, 'admin@other-sites.test', 'org_admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('create and read', () => {
    it('adds a site with the default rules, audited, listed with its counts for admins and dockmasters', async () => {
      const res = await call('POST', url('/sites'), admin, { name: '  North Yard ', timeZone: 'australia/sydney', address: '1 Dock Road', contactEmail: 'Gate@North.test' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'North Yard',
        timeZone: SYDNEY,
        address: '1 Dock Road',
        contactEmail: 'gate@north.test',
        contactPhone: null,
        operatingHours: DEFAULT_OPERATING_HOURS,
        slotIntervalMin: 30,
        minAdvanceMin: 120,
        bookingHorizonDays: 60,
        active: true,
        activeBays: 0,
        upcomingBookings: 0,
      });
      expect(await auditActions(res.body.id)).toEqual([expect.objectContaining({ action: 'site.created' })]);

      await createBay(t.ctx.database, { id: res.body.id, orgId }, { name: 'N-1' });
      await createBay(t.ctx.database, { id: res.body.id, orgId }, { name: 'N-2', active: false });
      const site = { id: res.body.id as string, bayId: (await query<{ id: string }>(`select id from bays where name = 'N-1'`))[0]!.id };
      await booking(site, MONDAY, '09:00', '10:00');
      await booking(site, MONDAY, '10:00', '11:00', 'cancelled');

      for (const headers of [admin, dock]) {
        const list = await call('GET', url('/sites/all'), headers);
        expect(list.status).toBe(200);
        expect(list.body.items.find((s: { id: string }) => s.id === site.id)).toMatchObject({ activeBays: 1, upcomingBookings: 1 });
        const one = await call('GET', url(`/sites/${site.id}`), headers);
        expect(one.body).toMatchObject({ id: site.id, activeBays: 1, upcomingBookings: 1 });
      }
      // The plain list of the site selector is still there (organizations module).
      expect((await call('GET', url('/sites'), dock)).status).toBe(200);
    });

    it('answers 404 for unknown and malformed site ids', async () => {
      expect((await call('GET', url('/sites/00000000-0000-4000-8000-000000000000'), admin)).status).toBe(404);
      expect((await call('GET', url('/sites/not-a-uuid'), admin)).status).toBe(404);
      expect((await call('PATCH', url('/sites/not-a-uuid'), admin, { name: 'X' })).status).toBe(404);
    });
  });

  describe('bad input: 400 with the field message, nothing changed', () => {
    it('refuses overlapping or reversed windows, an unknown time zone, a taken name and out-of-range numbers', async () => {
      const site = await newSite({ name: 'Harbour Gate' });
      await newSite({ name: 'Second Gate' });
      const before = await siteRow(site.id);
      const sitesBefore = (await query(`select id from sites`)).length;
      const hours = (mon: unknown) => ({ operatingHours: { ...DEFAULT_OPERATING_HOURS, mon } });
      const cases: Array<{ method: 'POST' | 'PATCH'; body: Record<string, unknown>; path: string; message: string }> = [
        { method: 'PATCH', body: hours([{ open: '09:00', close: '13:00' }, { open: '12:00', close: '17:00' }]), path: 'operatingHours.mon.1.open', message: 'Overlaps the window 09:00-13:00' },
        { method: 'PATCH', body: hours([{ open: '14:00', close: '10:00' }]), path: 'operatingHours.mon.0.close', message: 'Closing time must be after opening time' },
        { method: 'PATCH', body: hours([{ open: '13:00', close: '17:00' }, { open: '06:00', close: '12:00' }]), path: 'operatingHours.mon.1.open', message: 'List the opening windows in time order' },
        { method: 'PATCH', body: { timeZone: 'Mars/Olympus_Mons' }, path: 'timeZone', message: TIME_ZONE_MESSAGE },
        { method: 'PATCH', body: { timeZone: '+05:00' }, path: 'timeZone', message: TIME_ZONE_MESSAGE },
        { method: 'PATCH', body: { name: 'SECOND gate ' }, path: 'name', message: SITE_NAME_TAKEN_MESSAGE },
        { method: 'PATCH', body: { slotIntervalMin: 3 }, path: 'slotIntervalMin', message: 'At least 5 minutes' },
        { method: 'PATCH', body: { bookingHorizonDays: 731 }, path: 'bookingHorizonDays', message: 'At most 730 days (2 years)' },
        { method: 'PATCH', body: { name: '   ' }, path: 'name', message: 'Enter the site name' },
        { method: 'POST', body: { name: 'harbour gate', timeZone: SYDNEY }, path: 'name', message: SITE_NAME_TAKEN_MESSAGE },
        { method: 'POST', body: { name: 'Somewhere', timeZone: 'Nowhere/City' }, path: 'timeZone', message: TIME_ZONE_MESSAGE },
      ];
      for (const c of cases) {
        const res = await call(c.method, c.method === 'POST' ? url('/sites') : url(`/sites/${site.id}`), admin, c.body);
        expect({ case: c.body, status: res.status }).toEqual({ case: c.body, status: 400 });
        expect(res.body.error.details, JSON.stringify(res.body)).toContainEqual({ path: c.path, message: c.message });
      }
      expect(await siteRow(site.id)).toEqual(before);
      expect((await query(`select id from sites`)).length).toBe(sitesBefore);
      expect((await auditActions(site.id)).map((a) => a.action)).toEqual(['site.created']);
    });
  });

  describe('hours and time zone', () => {
    it('saves new hours without moving a booking and lists the ones they leave outside (not those still inside)', async () => {
      const site = await newSite();
      const lunch = await booking(site, MONDAY, '12:00', '13:00');
      const straddling = await booking(site, MONDAY, '11:30', '12:30', 'pending', true);
      const morning = await booking(site, MONDAY, '09:00', '10:00');
      await booking(site, MONDAY, '12:00', '12:30', 'cancelled');
      await booking(site, MONDAY, '05:00', '05:30'); // outside already: not this change's doing
      const lunchStart = (await bookingRow(lunch)).start_time;

      const res = await call('PATCH', url(`/sites/${site.id}`), admin, {
        operatingHours: { ...DEFAULT_OPERATING_HOURS, mon: [{ open: '06:00', close: '12:00' }, { open: '13:00', close: '22:00' }] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.site.operatingHours.mon).toEqual([{ open: '06:00', close: '12:00' }, { open: '13:00', close: '22:00' }]);
      expect(res.body.outsideHours.map((b: { id: string }) => b.id)).toEqual([straddling, lunch]);
      expect(res.body.outsideHours[0]).toMatchObject({ status: 'pending', bayId: site.secondBayId, tsrNumber: expect.stringMatching(/^TSR-SITE-/) });
      expect(res.body.outsideHours.map((b: { id: string }) => b.id)).not.toContain(morning);
      // Nothing moved or cancelled.
      expect(await bookingRow(lunch)).toMatchObject({ status: 'approved', start_time: lunchStart });
      const audit = (await auditActions(site.id)).at(-1)!;
      expect(audit.action).toBe('site.updated');
      expect(audit.details).toMatchObject({ changed: ['operatingHours'], outside_hours: expect.arrayContaining([expect.stringMatching(/^TSR-SITE-/)]) });

      // Saving the same hours again lists nothing: they are not this change's doing.
      const again = await call('PATCH', url(`/sites/${site.id}`), admin, { operatingHours: res.body.site.operatingHours, name: site.name });
      expect(again.body.outsideHours).toEqual([]);
    });

    it('moves to another time zone: bookings keep their instants, those now outside are listed, holidays keep their dates', async () => {
      const site = await newSite();
      // 07:00 in Sydney is 04:00 in Perth (UTC+8): before opening there. 10:00 Sydney is 07:00 Perth: still open.
      const early = await booking(site, TUESDAY, '07:00', '08:00');
      const later = await booking(site, TUESDAY, '10:00', '11:00');
      const holiday = await call('POST', url(`/sites/${site.id}/holidays`), admin, { name: 'Christmas Day', fromDate: '2026-12-25', toDate: '2026-12-25' });
      expect(holiday.status).toBe(201);
      expect(holiday.body.holiday).toMatchObject({ fromDate: '2026-12-25', toDate: '2026-12-25', startTime: '2026-12-24T13:00:00.000Z', endTime: '2026-12-25T13:00:00.000Z' });

      const res = await call('PATCH', url(`/sites/${site.id}`), admin, { timeZone: 'Australia/Perth' });
      expect(res.status).toBe(200);
      expect(res.body.site.timeZone).toBe('Australia/Perth');
      expect(res.body.outsideHours.map((b: { id: string }) => b.id)).toEqual([early]);
      expect(res.body.outsideHours.map((b: { id: string }) => b.id)).not.toContain(later);
      const holidays = await call('GET', url(`/sites/${site.id}/holidays`), dock);
      expect(holidays.body.items).toEqual([
        expect.objectContaining({ name: 'Christmas Day', fromDate: '2026-12-25', toDate: '2026-12-25', startTime: '2026-12-24T16:00:00.000Z', endTime: '2026-12-25T16:00:00.000Z' }),
      ]);
      expect((await auditActions(site.id)).at(-1)!.details).toMatchObject({ time_zone: { from: SYDNEY, to: 'Australia/Perth' } });
    });
  });

  describe('deactivate and reactivate', () => {
    it('lists upcoming bookings first, refuses to move them to another site, then keeps or cancels them as asked', async () => {
      const site = await newSite();
      const upcoming = await booking(site, MONDAY, '09:00', '10:00');
      await booking(site, '2026-11-20', '09:00', '10:00', 'completed');

      const first = await call('POST', url(`/sites/${site.id}/deactivate`), admin, {});
      expect(first.status).toBe(409);
      expect(first.body.error.code).toBe('affected_bookings');
      expect(first.body.error.details.affected.map((b: { id: string }) => b.id)).toEqual([upcoming]);
      expect((await siteRow(site.id)).active).toBe(true);

      const reassign = await call('POST', url(`/sites/${site.id}/deactivate`), admin, { resolution: { action: 'reassign' } });
      expect(reassign.status).toBe(400);
      expect(reassign.body.error.details).toContainEqual({ path: 'resolution.action', message: 'Bookings cannot be moved to another site: keep them or cancel them' });
      const noReason = await call('POST', url(`/sites/${site.id}/deactivate`), admin, { resolution: { action: 'cancel' } });
      expect(noReason.status).toBe(400);
      expect((await siteRow(site.id)).active).toBe(true);

      const res = await call('POST', url(`/sites/${site.id}/deactivate`), admin, { resolution: { action: 'cancel', reason: 'The yard is closing for good' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.site).toMatchObject({ active: false, upcomingBookings: 0 });
      expect(res.body.outcomes).toEqual([expect.objectContaining({ id: upcoming, outcome: 'cancelled' })]);
      expect(await bookingRow(upcoming)).toMatchObject({ status: 'cancelled', status_reason: 'The yard is closing for good' });
      expect((await auditActions(site.id)).map((a) => a.action)).toEqual(['site.created', 'site.deactivated']);

      const list = await call('GET', url('/sites/all'), admin);
      expect(list.body.items.find((s: { id: string }) => s.id === site.id)).toMatchObject({ active: false });
      const again = await call('POST', url(`/sites/${site.id}/reactivate`), admin);
      expect(again.status).toBe(200);
      expect(again.body.active).toBe(true);
      expect((await auditActions(site.id)).at(-1)!.action).toBe('site.reactivated');
    });

    it('deactivates keeping the bookings when asked, and straight away when none are upcoming', async () => {
      const site = await newSite();
      const upcoming = await booking(site, MONDAY, '09:00', '10:00');
      const res = await call('POST', url(`/sites/${site.id}/deactivate`), admin, { resolution: { action: 'keep' } });
      expect(res.status).toBe(200);
      expect(res.body.outcomes).toEqual([expect.objectContaining({ id: upcoming, outcome: 'kept' })]);
      expect((await bookingRow(upcoming)).status).toBe('approved');
      const empty = await newSite();
      const direct = await call('POST', url(`/sites/${empty.id}/deactivate`), admin);
      expect(direct.status).toBe(200);
      expect(direct.body.site.active).toBe(false);
    });
  });

  describe('holiday closures', () => {
    it('closes whole local days, asks about the bookings inside first, refuses bad dates and overlaps, and reopens on delete', async () => {
      const site = await newSite();
      const inside = await booking(site, TUESDAY, '15:00', '16:00');
      const body = { name: 'Show Day', fromDate: TUESDAY, toDate: TUESDAY };

      const first = await call('POST', url(`/sites/${site.id}/holidays`), admin, body);
      expect(first.status).toBe(409);
      expect(first.body.error.details.affected.map((b: { id: string }) => b.id)).toEqual([inside]);
      expect((await call('GET', url(`/sites/${site.id}/holidays`), admin)).body.items).toEqual([]);

      const bad = [
        { body: { ...body, fromDate: '2026-12-03', toDate: '2026-12-02' }, path: 'toDate', message: 'The last day cannot be before the first day' },
        { body: { ...body, fromDate: '2026-02-30' }, path: 'fromDate', message: 'Choose the first day' },
        { body: { ...body, name: ' ' }, path: 'name', message: 'Name the closure' },
        { body: { ...body, fromDate: '2026-11-01', toDate: '2026-11-02' }, path: 'toDate', message: 'This closure is over already: choose today or a later day' },
        { body: { ...body, fromDate: '2026-12-01', toDate: '2028-01-01' }, path: 'toDate', message: 'A closure can last at most 366 days' },
        // Issue 21: a blank day, and days whose next day has no date, are refused by name, never a 500.
        { body: { ...body, fromDate: '' }, path: 'fromDate', message: 'Choose the first day' },
        { body: { ...body, fromDate: '', toDate: '' }, path: 'toDate', message: 'Choose the last day' },
        { body: { ...body, fromDate: '9999-12-31', toDate: '9999-12-31' }, path: 'fromDate', message: 'Choose a first day within the next 10 years' },
        { body: { ...body, fromDate: '2037-01-01', toDate: '2037-01-01' }, path: 'fromDate', message: 'Choose a first day within the next 10 years' },
      ];
      for (const c of bad) {
        const res = await call('POST', url(`/sites/${site.id}/holidays`), admin, c.body);
        expect(res.status, JSON.stringify(c.body)).toBe(400);
        expect(res.body.error.details, JSON.stringify(c.body)).toContainEqual({ path: c.path, message: c.message });
      }

      const kept = await call('POST', url(`/sites/${site.id}/holidays`), admin, { ...body, resolution: { action: 'keep' } });
      expect(kept.status, JSON.stringify(kept.body)).toBe(201);
      // Local midnight to the next local midnight in Sydney (UTC+11).
      expect(kept.body.holiday).toMatchObject({ name: 'Show Day', fromDate: TUESDAY, toDate: TUESDAY, startTime: '2026-11-30T13:00:00.000Z', endTime: '2026-12-01T13:00:00.000Z' });
      expect(kept.body.outcomes).toEqual([expect.objectContaining({ id: inside, outcome: 'kept' })]);
      expect((await bookingRow(inside)).status).toBe('approved');
      const [row] = await query<{ kind: string; bay_id: string | null; reason: string }>(`select kind, bay_id, reason from blackouts where id = $1`, [kept.body.holiday.id]);
      expect(row).toEqual({ kind: 'holiday', bay_id: null, reason: 'Show Day' });

      const overlap = await call('POST', url(`/sites/${site.id}/holidays`), admin, { name: 'Long weekend', fromDate: '2026-11-29', toDate: TUESDAY });
      expect(overlap.status).toBe(400);
      expect(overlap.body.error.details[0]).toMatchObject({ path: 'fromDate', message: expect.stringContaining('Overlaps the closure “Show Day”') });

      // Cancelling the bookings inside, in the same request as the closure.
      const wed = await booking(site, '2026-12-02', '08:00', '09:00');
      const cancelled = await call('POST', url(`/sites/${site.id}/holidays`), admin, { name: 'Stocktake', fromDate: '2026-12-02', toDate: '2026-12-02', resolution: { action: 'cancel', reason: 'Closed for stocktake' } });
      expect(cancelled.status).toBe(201);
      expect(await bookingRow(wed)).toMatchObject({ status: 'cancelled', status_reason: 'Closed for stocktake' });

      const list = await call('GET', url(`/sites/${site.id}/holidays`), dock);
      expect(list.body.items.map((h: { name: string }) => h.name)).toEqual(['Show Day', 'Stocktake']);
      expect((await call('DELETE', url(`/sites/${site.id}/holidays/${kept.body.holiday.id}`), dock)).status).toBe(403);
      expect((await call('DELETE', url(`/sites/${site.id}/holidays/${kept.body.holiday.id}`), admin)).status).toBe(204);
      expect((await call('DELETE', url(`/sites/${site.id}/holidays/${kept.body.holiday.id}`), admin)).status).toBe(404);
      expect((await call('DELETE', url(`/sites/${site.id}/holidays/nope`), admin)).status).toBe(404);
      expect((await call('GET', url(`/sites/${site.id}/holidays`), admin)).body.items.map((h: { name: string }) => h.name)).toEqual(['Stocktake']);
      expect((await auditActions(kept.body.holiday.id)).map((a) => a.action)).toEqual(['site.holiday_created', 'site.holiday_deleted']);
    });
  });

  describe('the portal follows at once', () => {
    it('shows the lunch break after the hours change, nothing on a holiday, and no site once deactivated', async () => {
      // An organization of its own, so the portal sees this one site only.
      const db = t.ctx.database;
      const portalOrg = await createOrg(db, { name: 'Portal Follow Co' });
      const owner = await createUser(db, { email: 'owner@follow.test' });
      await addMember(db, portalOrg.id, owner.id, 'org_admin');
      const ownerHeaders = bearer(await signIn(t.app, 'owner@follow.test'));
      const saved = orgId;
      orgId = portalOrg.id;
      try {
        const created = await call('POST', url('/sites'), ownerHeaders, { name: 'Follow Yard', timeZone: SYDNEY });
        expect(created.status).toBe(201);
        const siteId = created.body.id as string;
        await createBay(db, { id: siteId, orgId }, { name: 'F-1' });

        expect(await freeTimes(MONDAY)).toEqual(expect.arrayContaining(['11:30', '12:00', '12:30', '13:00']));
        // A booking through the portal first, so its rules are cached before the change.
        expect((await portalBooking(MONDAY, '09:00')).statusCode).toBe(201);

        const patched = await call('PATCH', url(`/sites/${siteId}`), ownerHeaders, {
          operatingHours: { ...DEFAULT_OPERATING_HOURS, mon: [{ open: '06:00', close: '12:00' }, { open: '13:00', close: '22:00' }] },
        });
        expect(patched.status).toBe(200);
        const monday = await freeTimes(MONDAY);
        expect(monday).toContain('11:30');
        expect(monday).toContain('13:00');
        expect(monday).not.toContain('12:00');
        expect(monday).not.toContain('12:30');
        const lunchTry = await portalBooking('2026-12-07', '12:00');
        expect(lunchTry.statusCode).toBe(400);
        expect(lunchTry.json().error.message).toBe('The selected time slot is outside operating hours');
        expect((await portalBooking('2026-12-07', '13:00')).statusCode).toBe(201);

        expect((await freeTimes(TUESDAY)).length).toBeGreaterThan(0);
        const holiday = await call('POST', url(`/sites/${siteId}/holidays`), ownerHeaders, { name: 'Show Day', fromDate: TUESDAY, toDate: TUESDAY });
        expect(holiday.status).toBe(201);
        expect(await freeTimes(TUESDAY)).toEqual([]);
        expect((await portalBooking(TUESDAY, '10:00')).statusCode).toBe(409);
        expect((await freeTimes('2026-12-02')).length).toBeGreaterThan(0);

        const off = await call('POST', url(`/sites/${siteId}/deactivate`), ownerHeaders, { resolution: { action: 'keep' } });
        expect(off.status).toBe(200);
        const after = await availability('2026-12-02');
        expect(after.compatibleBays).toBe(0);
        expect(after.slots.filter((s) => s.freeBays > 0)).toEqual([]);
        const info = await t.app.inject({ method: 'GET', url: '/api/public/booking-info' });
        const org = (info.json().organizations as { id: string; sites: { id: string }[] }[]).find((o) => o.id === orgId);
        expect(org?.sites.map((s) => s.id) ?? []).not.toContain(siteId);
        expect((await portalBooking('2026-12-02', '10:00')).statusCode).not.toBe(201);
      } finally {
        orgId = saved;
      }
    });
  });

  describe('outsiders', () => {
    it('answers 404 to another organization and security staff, 401 to the anonymous, 403 to a dockmaster writing', async () => {
      const site = await newSite();
      const holiday = await call('POST', url(`/sites/${site.id}/holidays`), admin, { name: 'Closed', fromDate: '2027-01-05', toDate: '2027-01-05' });
      const before = await siteRow(site.id);
      const writes: Array<{ method: 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown }> = [
        { method: 'POST', path: '/sites', body: { name: 'Intruder Yard', timeZone: SYDNEY } },
        { method: 'PATCH', path: `/sites/${site.id}`, body: { name: 'Renamed' } },
        { method: 'POST', path: `/sites/${site.id}/deactivate`, body: { resolution: { action: 'keep' } } },
        { method: 'POST', path: `/sites/${site.id}/reactivate` },
        { method: 'POST', path: `/sites/${site.id}/holidays`, body: { name: 'Intruder', fromDate: '2027-02-01', toDate: '2027-02-01' } },
        { method: 'DELETE', path: `/sites/${site.id}/holidays/${holiday.body.holiday.id}` },
      ];
      const reads = [{ method: 'GET' as const, path: '/sites/all' }, { method: 'GET' as const, path: `/sites/${site.id}` }, { method: 'GET' as const, path: `/sites/${site.id}/holidays` }];
      const callers = [
        { who: 'another organization’s admin', headers: () => otherAdmin, status: 404 },
        { who: 'security staff', headers: () => security, status: 404 },
        { who: 'anonymous', headers: () => ({}), status: 401 },
      ];
      for (const route of [...reads, ...writes]) {
        for (const caller of callers) {
          const res = await call(route.method, url(route.path), caller.headers(), 'body' in route ? route.body : undefined);
          expect({ route: route.path, who: caller.who, status: res.status }).toEqual({ route: route.path, who: caller.who, status: caller.status });
          expect(JSON.stringify(res.body)).not.toContain(site.name);
        }
        // The other organization's admin through their own organization's prefix, with this site's id.
        if (route.path.includes(site.id)) {
          const res = await call(route.method, url(route.path, otherOrgId), otherAdmin, 'body' in route ? route.body : undefined);
          expect({ route: route.path, status: res.status }).toEqual({ route: route.path, status: 404 });
        }
      }
      for (const route of writes) {
        const res = await call(route.method, url(route.path), dock, route.body);
        expect({ route: route.path, status: res.status }).toEqual({ route: route.path, status: 403 });
      }
      for (const route of reads) expect((await call(route.method, url(route.path), dock)).status).toBe(200);
      expect(await siteRow(site.id)).toEqual(before);
      expect((await query(`select 1 from sites where name in ('Intruder Yard', 'Renamed')`)).length).toBe(0);
      expect((await query(`select 1 from blackouts where reason = 'Intruder'`)).length).toBe(0);
    });
  });
});
