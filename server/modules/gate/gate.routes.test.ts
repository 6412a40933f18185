import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDataIfEmpty } from '../../db/seed';
import { addMember, createBay, createOrg, createSite, createUser, signIn as signInWithPassword, bearer } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { signAccessToken } from '../../auth/tokens';
import { gateMailRenderers, GATE_EMERGENCY_MAIL_KIND } from './gate-mail';
import { checkInAtGate } from './gate-actions';

// The gate of one site: check in (its window, idempotent, one visit per vehicle), start, check out
// with the dwell time, Extend Time, approve/decline, walk-ins, the queue, the overview, the
// emergency stop and the portal refusing the stopped site — and nothing of it outside the site's
// organization. The clock is frozen; the site is in Sydney (UTC+11 in November).

const NOW = '2026-11-23T00:00:00Z'; // Monday 11:00 in Sydney
const at = (iso: string) => new Date(iso);
const minutes = (n: number) => n * 60_000;

describe.each(databaseKinds)('gate API on %s', (kind) => {
  let t: TestApp;
  let acmeId: string;
  let admin: Record<string, string>;
  let dock: Record<string, string>;
  let security: Record<string, string>;
  let harbourAdmin: Record<string, string>;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  const signIn = async (email: string) => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [session] = await query<{ id: string }>(
      `insert into auth_sessions (user_id, expires_at) values ($1, '2030-01-01T00:00:00Z') returning id`,
      [user!.id],
    );
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: session!.id, email });
    return { authorization: `Bearer ${token}` };
  };

  /** Who calls: signed in afresh at the frozen clock's time (access tokens are short-lived). */
  const as = (email: string) => ({ 'x-test-user': email });
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, who: Record<string, string>, payload?: unknown) => {
    const headers = who['x-test-user'] ? await signIn(who['x-test-user']) : who;
    const response = await t.app.inject({ method, url, headers, payload: payload as never });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body };
  };

  type Site = { id: string; bays: string[] };
  /** A fresh site of Acme in Sydney with `n` bays (clearance 5 m), so each test reads only its own day. */
  const makeSite = async (n = 2, orgId = acmeId): Promise<Site> => {
    seq += 1;
    const [site] = await query<{ id: string }>(`insert into sites (org_id, name, time_zone) values ($1, $2, 'Australia/Sydney') returning id`, [orgId, `Gate Yard ${seq}`]);
    const bays: string[] = [];
    for (let i = 1; i <= n; i++) {
      bays.push((await query<{ id: string }>(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, $3, 5) returning id`, [orgId, site!.id, `G-${i}`]))[0]!.id);
    }
    return { id: site!.id, bays };
  };

  type BookingOptions = { bay?: number; minutes?: number; reg?: string; checkedInAt?: string; orgId?: string };
  /** A booking on `site` in any status from `start` (UTC ISO). */
  const booking = async (site: Site, status: string, start: string, options: BookingOptions = {}) => {
    seq += 1;
    const end = new Date(Date.parse(start) + minutes(options.minutes ?? 30));
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min, checked_in_at)
       values ($1, $2, $3, $4, $5, 'haulier@example.test', $6, $7, $6, $7, 'rigid', $8, 3500, 3.5, $9, 'admin', $10, $11) returning id`,
      [options.orgId ?? acmeId, site.id, site.bays[options.bay ?? 0], `TSR-GATE-${seq}`, `Tenant ${seq}`, start, end.toISOString(), options.reg ?? `GATE${seq}`, status, options.minutes ?? 30, options.checkedInAt ?? null],
    );
    return row!.id;
  };
  const stateOf = async (id: string) =>
    (await query<{ version: number; status: string; bay_id: string }>(`select version, status, bay_id from bookings where id = $1`, [id]))[0]!;
  const auditOf = async (id: string, action: string) =>
    query<{ actor_email: string | null; actor_role: string | null; details: Record<string, unknown> }>(
      `select actor_email, actor_role, details from audit_log where resource_id = $1 and action = $2 order by created_at`,
      [id, action],
    );
  const gate = (site: Site, path: string) => `/api/sites/${site.id}/gate${path}`;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
    admin = as('admin@acme.test');
    dock = as('dock@acme.test');
    security = as('security@acme.test');
    harbourAdmin = as('admin@harbour.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('check-in', () => {
    it('opens 60 minutes before the start and closes at the no-show cut-off (inclusive), naming the window in site time', async () => {
      const site = await makeSite(3);
      // Starts 12:00 Sydney (01:00 UTC): check-in 11:00–12:45 Sydney.
      const early = await booking(site, 'approved', '2026-11-23T01:00:00Z', { bay: 0 });
      const late = await booking(site, 'approved', '2026-11-23T01:00:00Z', { bay: 1 });
      const tooLate = await booking(site, 'approved', '2026-11-23T01:00:00Z', { bay: 2 });

      t.clock.set(at('2026-11-22T23:59:59Z'));
      const before = await call('POST', gate(site, `/bookings/${early}/check-in`), security, {});
      expect(before.status).toBe(409);
      expect(before.body.error.code).toBe('outside_check_in_window');
      expect(before.body.error.message).toContain('from 11:00 to 12:45');
      expect(before.body.error.message).toContain('too early');
      expect((await stateOf(early)).status).toBe('approved');

      t.clock.set(at('2026-11-23T00:00:00Z'));
      const opened = await call('POST', gate(site, `/bookings/${early}/check-in`), security, {});
      expect(opened.status).toBe(200);
      expect(opened.body).toMatchObject({ unchanged: false, booking: { id: early, status: 'checked_in', version: 2 } });

      t.clock.set(at('2026-11-23T01:45:00Z'));
      expect((await call('POST', gate(site, `/bookings/${late}/check-in`), dock, {})).status).toBe(200);

      t.clock.set(at('2026-11-23T01:45:01Z'));
      const after = await call('POST', gate(site, `/bookings/${tooLate}/check-in`), admin, {});
      expect(after.status).toBe(409);
      expect(after.body.error.message).toContain('too late');

      // Audited with the person who acted.
      const [entry] = await auditOf(early, 'booking.checked_in');
      expect(entry).toMatchObject({ actor_email: 'security@acme.test', details: { from_status: 'approved', status: 'checked_in', actor: 'security', gate: true } });
      t.clock.set(at(NOW));
    });

    it('a second check-in of a checked-in booking is answered unchanged', async () => {
      const site = await makeSite();
      const id = await booking(site, 'approved', '2026-11-23T00:30:00Z');
      const first = await call('POST', gate(site, `/bookings/${id}/check-in`), security, { version: 1 });
      expect(first.status).toBe(200);
      const again = await call('POST', gate(site, `/bookings/${id}/check-in`), security, { version: 1 });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ unchanged: true, booking: { status: 'checked_in', version: 2 } });
      expect(await auditOf(id, 'booking.checked_in')).toHaveLength(1);
    });

    it('refuses a stale version, a booking in another status, and the same vehicle on site twice', async () => {
      const site = await makeSite(3);
      const stale = await booking(site, 'approved', '2026-11-23T00:30:00Z');
      const res = await call('POST', gate(site, `/bookings/${stale}/check-in`), dock, { version: 7 });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('stale_version');

      const pending = await booking(site, 'pending', '2026-11-23T00:30:00Z', { bay: 1 });
      const illegal = await call('POST', gate(site, `/bookings/${pending}/check-in`), dock, {});
      expect(illegal.status).toBe(409);
      expect(illegal.body.error.code).toBe('illegal_transition');

      // The truck is at the bay for its 10:30 visit; its 11:30 booking cannot check in meanwhile.
      const other = await makeSite();
      await booking(other, 'in_progress', '2026-11-22T23:30:00Z', { reg: 'TWICE1', checkedInAt: '2026-11-22T23:25:00Z', minutes: 30 });
      const second = await booking(site, 'approved', '2026-11-23T00:30:00Z', { reg: 'twice-1', bay: 2 });
      const twice = await call('POST', gate(site, `/bookings/${second}/check-in`), security, {});
      expect(twice.status).toBe(409);
      expect(twice.body.error.code).toBe('vehicle_on_site');
      expect(twice.body.error.message).toContain('already on site');
    });

    it('answers 404 for a booking of another site or organization, and for a non-uuid id', async () => {
      const site = await makeSite();
      const elsewhere = await makeSite();
      const id = await booking(elsewhere, 'approved', '2026-11-23T00:30:00Z');
      expect((await call('POST', gate(site, `/bookings/${id}/check-in`), admin, {})).status).toBe(404);
      expect((await call('POST', gate(site, `/bookings/not-a-uuid/check-in`), admin, {})).status).toBe(404);
      expect((await stateOf(id)).status).toBe('approved');
    });

    it('lets a site camera check in as the system, audited as automatic', async () => {
      const site = await makeSite();
      const id = await booking(site, 'approved', '2026-11-23T00:30:00Z');
      const result = await checkInAtGate(t.ctx, { orgId: acmeId, siteId: site.id, role: 'camera', auditActor: null, details: { automatic: true, plate_read_id: 'r-1' } }, id);
      expect(result).toMatchObject({ bookingId: id, status: 'checked_in', version: 2, unchanged: false });
      const [entry] = await auditOf(id, 'booking.checked_in');
      expect(entry).toMatchObject({ actor_role: 'system', details: { actor: 'system', automatic: true, plate_read_id: 'r-1' } });
      // A camera of another site's gate does not see it.
      const other = await makeSite();
      await expect(checkInAtGate(t.ctx, { orgId: acmeId, siteId: other.id, role: 'camera', auditActor: null }, id)).rejects.toMatchObject({ statusCode: 404 });
    });
  });

  describe('at the bay and out', () => {
    it('starts on the expected bay or another free compatible one, never on a busy one', async () => {
      const site = await makeSite(3);
      const a = await booking(site, 'checked_in', '2026-11-23T00:00:00Z', { bay: 0, checkedInAt: '2026-11-22T23:50:00Z' });
      const b = await booking(site, 'checked_in', '2026-11-23T00:00:00Z', { bay: 1, checkedInAt: '2026-11-22T23:55:00Z' });
      const moved = await call('POST', gate(site, `/bookings/${a}/start`), dock, { version: 1, bayId: site.bays[2] });
      expect(moved.status).toBe(200);
      expect(moved.body.booking).toMatchObject({ status: 'in_progress', bayId: site.bays[2], bayName: 'G-3' });
      const busy = await call('POST', gate(site, `/bookings/${b}/start`), dock, { bayId: site.bays[2] });
      expect(busy.status).toBe(409);
      expect(busy.body.error.code).toBe('bay_not_free');
      expect((await call('POST', gate(site, `/bookings/${b}/start`), security, {})).status).toBe(403);
      expect((await call('POST', gate(site, `/bookings/${b}/start`), dock, {})).body.booking).toMatchObject({ status: 'in_progress', bayId: site.bays[1] });
    });

    it('refuses to start a booking days ahead (checked in before this rule), and offers Start and Check In only inside their windows', async () => {
      const site = await makeSite(2);
      // Thursday 26 Nov 11:00 in Sydney, three days ahead.
      const early = await booking(site, 'checked_in', '2026-11-26T00:00:00Z', { bay: 0, checkedInAt: '2026-11-22T23:50:00Z' });
      const ahead = await booking(site, 'approved', '2026-11-23T01:30:00Z', { bay: 1 }); // 12:30 today: check-in opens 11:30
      const refused = await call('POST', gate(site, `/bookings/${early}/start`), dock, { version: 1 });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({
        code: 'outside_time_window',
        message: 'It is too early to start this booking at its bay: it can start from 10:00 on 2026-11-26 (site time, Australia/Sydney), 60 minutes before its booked start.',
      });
      expect(await stateOf(early)).toMatchObject({ status: 'checked_in', version: 1 });
      const daysAhead = await booking(site, 'approved', '2026-11-26T02:00:00Z', { bay: 1 });
      const refusedCheckIn = await call('POST', gate(site, `/bookings/${daysAhead}/check-in`), security, {});
      expect(refusedCheckIn.status).toBe(409);
      expect(refusedCheckIn.body.error.message).toBe('It is too early to check this booking in: check-in is open on 2026-11-26 from 12:00 to 13:45 (site time, Australia/Sydney).');
      expect(await stateOf(daysAhead)).toMatchObject({ status: 'approved', version: 1 });
      const tooEarly = await call('POST', gate(site, `/bookings/${ahead}/check-in`), dock, {});
      expect(tooEarly.status).toBe(409);
      expect(tooEarly.body.error.message).toBe('It is too early to check this booking in: check-in is open on 2026-11-23 from 11:30 to 13:15 (site time, Australia/Sydney).');
      const actionsOf = async (id: string) => {
        const overview = await call('GET', gate(site, '/overview'), dock);
        return [...overview.body.live, ...overview.body.upcoming].find((b: { id: string }) => b.id === id)?.actions;
      };
      expect(await actionsOf(early)).toEqual([]);
      expect((await call('GET', gate(site, '/queue'), dock)).body.items.find((i: { id: string }) => i.id === early).actions).toEqual([]);
      expect(await actionsOf(ahead)).toEqual([]);
      t.clock.set(at('2026-11-23T00:30:00Z'));
      try {
        expect(await actionsOf(ahead)).toEqual(['check_in']);
        expect((await call('POST', gate(site, `/bookings/${ahead}/check-in`), dock, {})).status).toBe(200);
        expect(await actionsOf(ahead)).toEqual(['start']);
      } finally {
        t.clock.set(at(NOW));
      }
    });

    it('does not call a vehicle to its own bay while another vehicle stands there or the bay is blacked out', async () => {
      const site = await makeSite(3);
      await booking(site, 'overstay', '2026-11-22T22:00:00Z', { bay: 0, checkedInAt: '2026-11-22T21:55:00Z' });
      const waiting = await booking(site, 'checked_in', '2026-11-23T00:00:00Z', { bay: 0, checkedInAt: '2026-11-22T23:50:00Z' });
      const refused = await call('POST', gate(site, `/bookings/${waiting}/start`), dock, { version: 1 });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'bay_not_free' });
      expect(refused.body.error.message).toContain('Bay G-1 is not free now');
      expect(await stateOf(waiting)).toMatchObject({ status: 'checked_in', version: 1 });
      // Naming its own bay is the same call.
      expect((await call('POST', gate(site, `/bookings/${waiting}/start`), dock, { bayId: site.bays[0] })).status).toBe(409);

      const blackedOut = await booking(site, 'checked_in', '2026-11-23T00:00:00Z', { bay: 1, checkedInAt: '2026-11-22T23:55:00Z' });
      await query(`insert into blackouts (org_id, site_id, bay_id, start_time, end_time) values ($1, $2, $3, '2026-11-22T23:30:00Z', '2026-11-23T00:30:00Z')`, [acmeId, site.id, site.bays[1]]);
      const queued = await call('GET', gate(site, '/queue'), dock);
      expect(queued.body.items.map((i: { isExpectedBayFree: boolean }) => i.isExpectedBayFree)).toEqual([false, false]);
      expect(queued.body.items[0].freeBays.map((b: { name: string }) => b.name)).toEqual(['G-3']);
      expect((await call('POST', gate(site, `/bookings/${blackedOut}/start`), dock, {})).body.error.code).toBe('bay_not_free');

      // Another free compatible bay is fine.
      const moved = await call('POST', gate(site, `/bookings/${waiting}/start`), dock, { version: 1, bayId: site.bays[2] });
      expect(moved.status).toBe(200);
      expect(moved.body.booking).toMatchObject({ status: 'in_progress', bayName: 'G-3' });
    });

    it('checks out from in progress or overstay with the dwell time; not from checked in', async () => {
      const site = await makeSite(3);
      const inProgress = await booking(site, 'in_progress', '2026-11-22T23:30:00Z', { bay: 0, checkedInAt: '2026-11-22T23:20:00Z' });
      const overstay = await booking(site, 'overstay', '2026-11-22T22:00:00Z', { bay: 1, checkedInAt: '2026-11-22T21:55:00Z' });
      const waiting = await booking(site, 'checked_in', '2026-11-23T00:10:00Z', { bay: 2, checkedInAt: '2026-11-22T23:58:00Z' });

      const out = await call('POST', gate(site, `/bookings/${inProgress}/check-out`), security, { version: 1 });
      expect(out.status).toBe(200);
      expect(out.body).toMatchObject({ dwellMinutes: 40, booking: { status: 'completed' } });
      const [entry] = await auditOf(inProgress, 'booking.completed');
      expect(entry!.details).toMatchObject({ dwell_minutes: 40, from_status: 'in_progress', actor: 'security' });

      const forced = await call('POST', gate(site, `/bookings/${overstay}/check-out`), dock, {});
      expect(forced.body).toMatchObject({ dwellMinutes: 125, booking: { status: 'completed' } });
      expect((await auditOf(overstay, 'booking.completed'))[0]!.details).toMatchObject({ forced: true });

      const refused = await call('POST', gate(site, `/bookings/${waiting}/check-out`), dock, {});
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('illegal_transition');
    });

    it('extends an overstay to a later end (staff only)', async () => {
      const site = await makeSite();
      const id = await booking(site, 'overstay', '2026-11-22T22:00:00Z', { checkedInAt: '2026-11-22T21:55:00Z' });
      expect((await call('POST', gate(site, `/bookings/${id}/extend`), security, { version: 1, endTime: '2026-11-23T01:00:00Z' })).status).toBe(403);
      const res = await call('POST', gate(site, `/bookings/${id}/extend`), dock, { version: 1, endTime: '2026-11-23T01:00:00Z' });
      expect(res.status).toBe(200);
      expect(res.body.booking).toMatchObject({ status: 'in_progress', endTime: '2026-11-23T01:00:00.000Z' });
    });

    it('approves and declines pending bookings; security may not', async () => {
      const site = await makeSite();
      const a = await booking(site, 'pending', '2026-11-23T03:00:00Z');
      const d = await booking(site, 'pending', '2026-11-23T04:00:00Z');
      const refused = await call('POST', gate(site, `/bookings/${a}/approve`), security, { version: 1 });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toContain('Only organization admins and dockmasters');
      expect((await call('POST', gate(site, `/bookings/${a}/approve`), dock, { version: 1 })).body.booking.status).toBe('approved');
      const noReason = await call('POST', gate(site, `/bookings/${d}/decline`), admin, { version: 1, reason: ' ' });
      expect(noReason.status).toBe(400);
      const declined = await call('POST', gate(site, `/bookings/${d}/decline`), admin, { version: 1, reason: 'Dock closed for works' });
      expect(declined.status).toBe(200);
      expect((await stateOf(d)).status).toBe('declined');
    });
  });

  describe('walk-ins and the queue', () => {
    const walkIn = (overrides: Record<string, unknown> = {}) => ({
      tsrNumber: 'TSR-WALK-1',
      tenantName: 'Roadside Freight',
      contactName: 'Sam Driver',
      tenantEmail: 'sam@roadside.example',
      expectedDurationMin: 45,
      vehicleType: 'rigid',
      vehicleRegistration: 'walk 01',
      vehicleHeightM: 3.8,
      specialAccessNeeds: [],
      driverInductionCompleted: true,
      termsAccepted: true,
      ...overrides,
    });

    it('books a walk-in now on a free compatible bay, checked in, source gate, audited', async () => {
      const site = await makeSite(2);
      await booking(site, 'in_progress', '2026-11-22T23:50:00Z', { bay: 0, checkedInAt: '2026-11-22T23:45:00Z' });
      t.clock.set(at('2026-11-23T00:00:42Z'));
      const res = await call('POST', gate(site, '/walk-ins'), security, walkIn());
      t.clock.set(at(NOW));
      expect(res.status).toBe(201);
      expect(res.body.booking).toMatchObject({
        status: 'checked_in',
        source: 'gate',
        bayId: site.bays[1],
        vehicleRegistration: 'WALK 01',
        startTime: '2026-11-23T00:00:00.000Z',
        endTime: '2026-11-23T00:45:00.000Z',
      });
      const [entry] = await auditOf(res.body.booking.id, 'booking.created');
      expect(entry).toMatchObject({ actor_email: 'security@acme.test', details: { source: 'gate', walk_in: true, status: 'checked_in' } });

      // The same truck again while on site, a vehicle no bay fits, and a form error.
      const again = await call('POST', gate(site, '/walk-ins'), security, walkIn({ tsrNumber: 'TSR-WALK-2' }));
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('vehicle_on_site');
      const full = await call('POST', gate(site, '/walk-ins'), security, walkIn({ vehicleRegistration: 'WALK02', vehicleHeightM: 3.5 }));
      expect(full.status).toBe(409);
      expect(full.body.error.code).toBe('no_free_bay');
      expect(full.body.error.message).toContain('No bay at');
      const invalid = await call('POST', gate(site, '/walk-ins'), security, walkIn({ tsrNumber: '' }));
      expect(invalid.status).toBe(400);
    });

    it('lists arrived vehicles by arrival with waiting time, their bay’s state and the free bays', async () => {
      const site = await makeSite(3);
      await booking(site, 'in_progress', '2026-11-22T23:30:00Z', { bay: 0, checkedInAt: '2026-11-22T23:20:00Z' });
      const second = await booking(site, 'checked_in', '2026-11-23T00:10:00Z', { bay: 1, checkedInAt: '2026-11-22T23:50:00Z' });
      const first = await booking(site, 'checked_in', '2026-11-23T00:30:00Z', { bay: 0, checkedInAt: '2026-11-22T23:40:00Z' });
      const res = await call('GET', gate(site, '/queue'), security);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ siteName: expect.stringMatching(/^Gate Yard/), timeZone: 'Australia/Sydney', emergency: { isStopped: false } });
      expect(res.body.items.map((i: { id: string }) => i.id)).toEqual([first, second]);
      expect(res.body.items[0]).toMatchObject({ waitingMinutes: 20, isExpectedBayFree: false, bayId: site.bays[0] });
      expect(res.body.items[0].freeBays.map((b: { name: string }) => b.name)).toEqual(['G-3']);
      expect(res.body.items[1]).toMatchObject({ waitingMinutes: 10, isExpectedBayFree: true });
      expect(res.body.items[1].actions).toEqual([]);
    });
  });

  describe('overview', () => {
    it('counts the site’s local day and shows the live list, upcoming arrivals and the bays', async () => {
      const site = await makeSite(3);
      const done = await booking(site, 'completed', '2026-11-22T20:00:00Z', { bay: 0, minutes: 60 });
      const overstay = await booking(site, 'overstay', '2026-11-22T22:00:00Z', { bay: 0, minutes: 60, checkedInAt: '2026-11-22T21:55:00Z' });
      const atBay = await booking(site, 'in_progress', '2026-11-22T23:30:00Z', { bay: 1, minutes: 60, checkedInAt: '2026-11-22T23:25:00Z' });
      // LATE once the reports' on-time window (30 min) has passed: 35 min after the start is late, 15 min is on time.
      const late = await booking(site, 'approved', '2026-11-22T23:25:00Z', { bay: 2, minutes: 20 });
      const inWindow = await booking(site, 'approved', '2026-11-22T23:45:00Z', { bay: 2, minutes: 20 });
      await booking(site, 'checked_in', '2026-11-23T00:15:00Z', { bay: 2, checkedInAt: '2026-11-22T23:59:00Z' });
      const soon = await booking(site, 'approved', '2026-11-23T02:00:00Z', { bay: 0, minutes: 60 });
      const pending = await booking(site, 'pending', '2026-11-23T03:00:00Z', { bay: 1, minutes: 60 });
      await booking(site, 'cancelled', '2026-11-23T04:00:00Z', { bay: 1, minutes: 60 });
      await booking(site, 'approved', '2026-11-24T02:00:00Z', { bay: 0, minutes: 60 }); // tomorrow in Sydney
      await query(`insert into blackouts (org_id, site_id, bay_id, start_time, end_time) values ($1, $2, $3, '2026-11-22T23:00:00Z', '2026-11-23T01:00:00Z')`, [acmeId, site.id, site.bays[2]]);

      const res = await call('GET', gate(site, '/overview'), dock);
      expect(res.status).toBe(200);
      expect(res.body.date).toBe('2026-11-23');
      expect(res.body.counters).toEqual({ expectedToday: 7, onSite: 3, waiting: 1, atBay: 1, late: 1, overstay: 1 });
      // Today's 9 less the cancelled one and the completed one: finished visits count, they are not listed.
      expect(res.body.live).toHaveLength(7);
      expect(res.body.live.map((b: { id: string }) => b.id)).not.toContain(done);
      expect(res.body.upcoming.map((b: { id: string }) => b.id)).toEqual([late, inWindow, soon, pending]);
      expect(res.body.upcoming[0]).toMatchObject({ isLate: true, actions: ['check_in'] });
      expect(res.body.upcoming[1]).toMatchObject({ isLate: false, actions: ['check_in'] });
      // Two hours ahead: check-in opens an hour before the start, so the gate offers nothing yet.
      expect(res.body.upcoming[2]).toMatchObject({ id: soon, actions: [] });
      expect(res.body.upcoming[3].actions).toEqual(['approve']);
      expect(res.body.live.find((b: { id: string }) => b.id === overstay).actions).toEqual(['force_check_out', 'extend']);
      expect(res.body.bays.map((b: { state: string }) => b.state)).toEqual(['overstay', 'occupied', 'blacked_out']);
      expect(res.body.bays[1].booking.id).toBe(atBay);
      expect(res.body.emergency).toEqual({ isStopped: false, since: null, reason: null, byEmail: null });

      const asSecurity = await call('GET', gate(site, '/overview'), security);
      expect(asSecurity.body.live.find((b: { id: string }) => b.id === overstay).actions).toEqual(['force_check_out']);
    });
  });

  describe('emergency stop', () => {
    it('stops the portal at the site at once, e-mails the org admins, and resumes', async () => {
      const db = t.ctx.database;
      const org = await createOrg(db, { name: 'Stop Org' });
      const site = await createSite(db, org.id, { name: 'Stop Dock', timeZone: 'Australia/Sydney' });
      await createBay(db, site, { name: 'S-1', heightClearanceM: 5 });
      const boss = await createUser(db, { email: 'boss@stop.example' });
      await addMember(db, org.id, boss.id, 'org_admin');
      const guard = await createUser(db, { email: 'guard@stop.example' });
      await addMember(db, org.id, guard.id, 'security');
      const bossAuth = bearer(await signInWithPassword(t.app, 'boss@stop.example'));
      const guardAuth = bearer(await signInWithPassword(t.app, 'guard@stop.example'));
      const url = `/api/sites/${site.id}/gate/emergency`;
      const availability = () => t.app.inject({ method: 'POST', url: '/api/public/availability', payload: { orgId: org.id, date: '2026-11-24', durationMin: 30 } });
      const request = {
        orgId: org.id, tsrNumber: 'TSR-STOP-1', tenantName: 'Fast Freight', contactName: 'Jo', tenantEmail: 'jo@fast.example', date: '2026-11-24', slot: '09:00',
        expectedDurationMin: 30, vehicleType: 'rigid', vehicleRegistration: 'STOP1', vehicleHeightM: 3.5, driverInductionCompleted: true, termsAccepted: true,
      };
      const submit = (body: Record<string, unknown>) => {
        const form = new FormData();
        form.append('data', JSON.stringify(body));
        return t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: form as never });
      };

      expect((await call('POST', url, guardAuth, { reason: 'Fire' })).status).toBe(403);
      expect((await call('POST', url, bossAuth, { reason: '' })).status).toBe(400);

      const stop = await call('POST', url, bossAuth, { reason: 'Fire alarm in the warehouse' });
      expect(stop.status).toBe(200);
      expect(stop.body).toMatchObject({ isStopped: true, reason: 'Fire alarm in the warehouse', byEmail: 'boss@stop.example', unchanged: false });
      expect((await call('POST', url, bossAuth, { reason: 'Again' })).body.unchanged).toBe(true);

      const day = (await availability()).json();
      expect(day.notice).toContain('Stop Dock is not taking bookings right now');
      expect(day.slots.every((s: { freeBays: number; available: boolean }) => s.freeBays === 0 && !s.available)).toBe(true);
      const refused = await submit(request);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toContain('not taking bookings right now');

      const overview = await call('GET', `/api/sites/${site.id}/gate/overview`, guardAuth);
      expect(overview.body.emergency).toMatchObject({ isStopped: true, reason: 'Fire alarm in the warehouse' });
      expect(overview.body.bays.map((b: { state: string }) => b.state)).toEqual(['stopped']);
      const queue = await call('GET', `/api/sites/${site.id}/gate/queue`, guardAuth);
      expect(queue.body).toMatchObject({ siteName: 'Stop Dock', emergency: { isStopped: true, reason: 'Fire alarm in the warehouse' } });
      const walk = await call('POST', `/api/sites/${site.id}/gate/walk-ins`, guardAuth, {
        tsrNumber: 'W', tenantName: 'W', contactName: 'W', tenantEmail: 'w@w.example', expectedDurationMin: 30, vehicleType: 'rigid',
        vehicleRegistration: 'W1', vehicleHeightM: 3, driverInductionCompleted: true, termsAccepted: true,
      });
      expect(walk.body.error.code).toBe('site_emergency');

      const [mail] = await query<{ kind: string; recipients: string[]; payload: Record<string, unknown> }>(
        `select kind, recipients, payload from mail_outbox where org_id = $1 and kind = $2 order by created_at`, [org.id, GATE_EMERGENCY_MAIL_KIND],
      );
      expect(mail).toMatchObject({ recipients: ['boss@stop.example'], payload: { state: 'stopped', siteName: 'Stop Dock' } });
      const rendered = await gateMailRenderers[GATE_EMERGENCY_MAIL_KIND]!(t.ctx, mail!.payload, mail!.recipients);
      expect(rendered).toMatchObject({ subject: 'Emergency stop at Stop Dock' });
      expect(rendered!.text).toContain('Reason: Fire alarm in the warehouse');
      expect(await query(`select 1 from audit_log where resource_id = $1 and action = 'site.emergency_stopped'`, [site.id])).toHaveLength(1);

      expect((await call('DELETE', url, guardAuth)).status).toBe(403);
      const resume = await call('DELETE', url, bossAuth);
      expect(resume.body).toMatchObject({ isStopped: false, unchanged: false });
      expect((await availability()).json().slots.some((s: { available: boolean }) => s.available)).toBe(true);
      const booked = await submit(request);
      expect(booked.statusCode).toBe(201);
      expect(await query(`select 1 from audit_log where resource_id = $1 and action = 'site.emergency_resumed'`, [site.id])).toHaveLength(1);
    });
  });

  describe('emergency stop at the gate', () => {
    it('offers no Start while the site is stopped (Start is refused), and offers it again after', async () => {
      const site = await makeSite(2);
      const id = await booking(site, 'checked_in', '2026-11-23T00:10:00Z', { bay: 1, checkedInAt: '2026-11-22T23:50:00Z' });
      const actionsNow = async () => {
        const overview = await call('GET', gate(site, '/overview'), dock);
        const queue = await call('GET', gate(site, '/queue'), dock);
        return [overview.body.live.find((b: { id: string }) => b.id === id).actions, queue.body.items[0].actions];
      };
      expect(await actionsNow()).toEqual([['start'], ['start']]);
      expect((await call('POST', gate(site, '/emergency'), dock, { reason: 'Drill' })).status).toBe(200);
      expect(await actionsNow()).toEqual([[], []]);
      expect((await call('DELETE', gate(site, '/emergency'), dock)).status).toBe(200);
      expect(await actionsNow()).toEqual([['start'], ['start']]);
    });
  });

  describe('emergency stop with two sites', () => {
    it('the stopped site offers nothing; the organization’s other site still takes the booking', async () => {
      const db = t.ctx.database;
      const org = await createOrg(db, { name: 'Two Site Org' });
      const stopped = await createSite(db, org.id, { name: 'Alpha Dock', timeZone: 'Australia/Sydney' });
      const open = await createSite(db, org.id, { name: 'Beta Dock', timeZone: 'Australia/Sydney' });
      await createBay(db, stopped, { name: 'A-1', heightClearanceM: 4 });
      const openBay = await createBay(db, open, { name: 'B-1', heightClearanceM: 5 });
      const boss = await createUser(db, { email: 'boss@twosite.example' });
      await addMember(db, org.id, boss.id, 'dockmaster');
      const auth = bearer(await signInWithPassword(t.app, 'boss@twosite.example'));
      expect((await call('POST', `/api/sites/${stopped.id}/gate/emergency`, auth, { reason: 'Power cut' })).status).toBe(200);

      const form = new FormData();
      form.append('data', JSON.stringify({
        orgId: org.id, tsrNumber: 'TSR-TWO-1', tenantName: 'Fast Freight', contactName: 'Jo', tenantEmail: 'jo@fast.example', date: '2026-11-24', slot: '09:00',
        expectedDurationMin: 30, vehicleType: 'rigid', vehicleRegistration: 'TWO1', vehicleHeightM: 3.5, driverInductionCompleted: true, termsAccepted: true,
      }));
      const res = await t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: form as never });
      expect(res.statusCode).toBe(201);
      const [row] = await query<{ bay_id: string }>(`select bay_id from bookings where org_id = $1`, [org.id]);
      // Best fit would be A-1 (lower clearance): the stopped site is skipped.
      expect(row!.bay_id).toBe(openBay.id);
    });
  });

  describe('live updates', () => {
    it('publishes a booking event for each move and a site event for the emergency state', async () => {
      const site = await makeSite();
      const id = await booking(site, 'approved', '2026-11-23T00:30:00Z');
      const hub = t.ctx.realtime!;
      const original = hub.publish.bind(hub);
      const events: Array<{ entity: string; action: string; id: string; siteId?: string | null }> = [];
      hub.publish = ((event: Parameters<typeof original>[0]) => {
        events.push(event as never);
        return original(event);
      }) as typeof hub.publish;
      try {
        await call('POST', gate(site, `/bookings/${id}/check-in`), security, {});
        await call('POST', gate(site, `/bookings/${id}/check-in`), security, {}); // unchanged: no event
        await call('POST', gate(site, '/emergency'), dock, { reason: 'Spill at the dock' });
        await call('DELETE', gate(site, '/emergency'), dock);
      } finally {
        hub.publish = original;
      }
      expect(events.map((e) => [e.entity, e.action, e.id])).toEqual([
        ['booking', 'checked_in', id],
        ['site', 'emergency_stopped', site.id],
        ['site', 'emergency_resumed', site.id],
      ]);
    });
  });

  describe('outsiders', () => {
    it('answers 404 to another organization, 401 without a session', async () => {
      const site = await makeSite();
      const id = await booking(site, 'approved', '2026-11-23T00:30:00Z');
      expect((await call('GET', gate(site, '/overview'), harbourAdmin)).status).toBe(404);
      expect((await call('POST', gate(site, `/bookings/${id}/check-in`), harbourAdmin, {})).status).toBe(404);
      expect((await call('POST', gate(site, '/emergency'), harbourAdmin, { reason: 'x' })).status).toBe(404);
      expect((await call('GET', gate(site, '/queue'), {})).status).toBe(401);
      expect((await call('POST', gate(site, `/bookings/${id}/check-in`), {}, {})).status).toBe(401);
      expect((await stateOf(id)).status).toBe('approved');
    });
  });
});
