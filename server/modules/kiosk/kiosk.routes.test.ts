import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrivalQrText, formatArrivalCode } from '../../../domain/arrival-code';
import type { RealtimeEvent } from '../../../domain/realtime';
import { signAccessToken } from '../../auth/tokens';
import { addMember, createOrg, createUser } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { arrivalCodeFor } from '../bookings/arrival-code';

// The gate kiosk (issue 26, decision 041): devices registered and revoked by admins; a device
// checks in its own site's bookings by arrival code or plate through the gate's window rules
// (frozen clock, a site in Sydney: UTC+11 in November); another site's or organization's device
// finds nothing; unknown trucks leave walk-in requests dock staff accept or decline.

const NOW = '2026-11-23T00:00:00Z'; // Monday 11:00 in Sydney
const minutes = (n: number) => n * 60_000;

describe.each(databaseKinds)('gate kiosk API on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let otherOrgId: string;
  let seq = 0;
  const published: RealtimeEvent[] = [];
  const headers: Record<string, Record<string, string>> = {};

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const session = async (email: string) => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [row] = await query<{ id: string }>(`insert into auth_sessions (user_id, expires_at) values ($1, '2030-01-01T00:00:00Z') returning id`, [user!.id]);
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: row!.id, email });
    return { authorization: `Bearer ${token}` };
  };
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who: Record<string, string> | string, payload?: unknown) => {
    const h = typeof who === 'string' ? await session(who) : who;
    const response = await t.app.inject({ method, url, headers: h, payload: payload as never });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body };
  };

  type Site = { id: string; orgId: string; bays: string[] };
  const makeSite = async (org = orgId, bays = 3): Promise<Site> => {
    seq += 1;
    const [site] = await query<{ id: string }>(`insert into sites (org_id, name, time_zone) values ($1, $2, 'Australia/Sydney') returning id`, [org, `Kiosk Yard ${seq}`]);
    const ids: string[] = [];
    for (let i = 1; i <= bays; i++) {
      ids.push((await query<{ id: string }>(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, $3, 5) returning id`, [org, site!.id, `K-${seq}-${i}`]))[0]!.id);
    }
    return { id: site!.id, orgId: org, bays: ids };
  };
  const booking = async (site: Site, status: string, start: string, options: { bay?: number; reg?: string; checkedInAt?: string } = {}) => {
    seq += 1;
    const end = new Date(Date.parse(start) + minutes(30));
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min, checked_in_at)
       values ($1, $2, $3, $4, 'Kiosk Freight', 'haulier@example.test', $5, $6, $5, $6, 'rigid', $7, 3500, 3.5, $8, 'admin', 30, $9) returning id`,
      [site.orgId, site.id, site.bays[options.bay ?? 0], `TSR-K-${seq}`, start, end.toISOString(), options.reg ?? `KSK${seq}`, status, options.checkedInAt ?? null],
    );
    return row!.id;
  };
  const registerKiosk = async (site: Site, admin = 'admin@kiosk.test') => {
    const res = await call('POST', `/api/orgs/${site.orgId}/settings/kiosk-devices`, admin, { siteId: site.id, name: `Gate tablet ${++seq}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.id as string, auth: { authorization: `Kiosk ${res.body.secret as string}` } };
  };
  const code = (bookingId: string) => arrivalCodeFor(t.ctx.authSecret, bookingId);
  const statusOf = async (id: string) => (await query<{ status: string }>(`select status from bookings where id = $1`, [id]))[0]!.status;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    orgId = (await createOrg(db, { name: 'Kiosk Co' })).id;
    otherOrgId = (await createOrg(db, { name: 'Other Kiosk Co' })).id;
    for (const [email, role, org] of [
      ['admin@kiosk.test', 'org_admin', orgId],
      ['dock@kiosk.test', 'dockmaster', orgId],
      ['security@kiosk.test', 'security', orgId],
      ['admin@other-kiosk.test', 'org_admin', otherOrgId],
    ] as const) {
      const user = await createUser(db, { email });
      await addMember(db, org, user.id, role);
    }
    const hub = t.ctx.realtime!;
    const publish = hub.publish.bind(hub);
    hub.publish = (event: RealtimeEvent) => {
      published.push(event);
      publish(event);
    };
    headers.none = {};
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('devices', () => {
    it('an admin registers a kiosk for a site, sees its secret once, and revokes it: the kiosk is refused at once (401), audited', async () => {
      const site = await makeSite();
      const created = await call('POST', `/api/orgs/${orgId}/settings/kiosk-devices`, 'admin@kiosk.test', { siteId: site.id, name: 'Gate house tablet' });
      expect(created.status).toBe(201);
      expect(created.body.secret).toMatch(/^bwkiosk_[A-Za-z0-9_-]{20,}$/);
      expect(created.body).toMatchObject({ name: 'Gate house tablet', siteId: site.id, hint: created.body.secret.slice(-4), revokedAt: null, lastUsedAt: null });
      const auth = { authorization: `Kiosk ${created.body.secret}` };

      const me = await call('GET', '/api/kiosk/me', auth);
      expect(me.status).toBe(200);
      expect(me.body).toEqual({ deviceName: 'Gate house tablet', siteName: expect.stringMatching(/^Kiosk Yard/), timeZone: 'Australia/Sydney', orgName: 'Kiosk Co', defaultLanguage: 'en', hasLogo: false });

      const list = await call('GET', `/api/orgs/${orgId}/settings/kiosk-devices`, 'admin@kiosk.test');
      const listed = list.body.find((d: { id: string }) => d.id === created.body.id);
      expect(listed).toMatchObject({ lastUsedAt: NOW.replace('Z', '.000Z'), createdByEmail: 'admin@kiosk.test' });
      expect(JSON.stringify(list.body)).not.toContain(created.body.secret);

      // Dock staff neither list nor register kiosks.
      expect((await call('POST', `/api/orgs/${orgId}/settings/kiosk-devices`, 'dock@kiosk.test', { siteId: site.id, name: 'Mine' })).status).toBe(403);

      expect((await call('DELETE', `/api/orgs/${orgId}/settings/kiosk-devices/${created.body.id}`, 'admin@kiosk.test')).status).toBe(204);
      const refused = await call('GET', '/api/kiosk/me', auth);
      expect(refused.status).toBe(401);
      expect(refused.body.error).toMatchObject({ code: 'kiosk_revoked', message: expect.stringContaining('revoked') });
      expect((await call('POST', '/api/kiosk/check-in', auth, { plate: 'ANY1' })).status).toBe(401);

      const audit = await query<{ action: string }>(`select action from audit_log where resource_id = $1 order by created_at, action`, [created.body.id]);
      expect(audit.map((a) => a.action).sort()).toEqual(['kiosk_device.created', 'kiosk_device.revoked']);
      // Another organization's admin cannot revoke it.
      expect((await call('DELETE', `/api/orgs/${otherOrgId}/settings/kiosk-devices/${created.body.id}`, 'admin@other-kiosk.test')).status).toBe(404);
    });

    it("opens in the organization's portal language, and in English when the stored portal settings are unreadable", async () => {
      const org = (await createOrg(t.ctx.database, { name: 'Kiosk Sprachen' })).id;
      const admin = await createUser(t.ctx.database, { email: 'admin@kiosk-sprachen.test' });
      await addMember(t.ctx.database, org, admin.id, 'org_admin');
      const site = await makeSite(org, 1);
      const { auth } = await registerKiosk(site, 'admin@kiosk-sprachen.test');
      const language = async () => (await call('GET', '/api/kiosk/me', auth)).body.defaultLanguage;
      expect(await language()).toBe('en');
      const saved = await call('PATCH', `/api/orgs/${org}/settings`, 'admin@kiosk-sprachen.test', { portal: { defaultLanguage: 'de' } });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(await language()).toBe('de');
      // A portal section no reader understands (written outside the app) falls back to the default.
      await query(`update organizations set settings = jsonb_set(settings, '{portal}', '{"defaultLanguage": "xx"}') where id = $1`, [org]);
      expect(await language()).toBe('en');
    });

    it('refuses a missing or unknown secret with 401 and what to do', async () => {
      const none = await call('GET', '/api/kiosk/me', headers.none!);
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('kiosk_secret_required');
      const unknown = await call('GET', '/api/kiosk/me', { authorization: 'Kiosk bwkiosk_thisIsNotARealSecretAtAll123' });
      expect(unknown.status).toBe(401);
      expect(unknown.body.error.code).toBe('kiosk_unknown');
      // A camera's bearer token is not a kiosk secret either.
      expect((await call('GET', '/api/kiosk/me', { authorization: 'Bearer nonsense' })).status).toBe(401);
    });
  });

  describe('check-in at the kiosk', () => {
    it('keeps the gate’s window: too early says when check-in opens, in site time; in the window the truck waits; too late sends it to the gate house', async () => {
      const site = await makeSite();
      const kiosk = await registerKiosk(site);
      // Starts 12:00 Sydney (01:00 UTC): check-in 11:00–12:45 Sydney.
      const early = await booking(site, 'approved', '2026-11-23T01:00:00Z', { bay: 0 });
      const late = await booking(site, 'approved', '2026-11-23T01:00:00Z', { bay: 1 });

      t.clock.set('2026-11-22T23:59:59Z');
      const tooEarly = await call('POST', '/api/kiosk/check-in', kiosk.auth, { code: formatArrivalCode(code(early)) });
      expect(tooEarly.status).toBe(200);
      expect(tooEarly.body).toMatchObject({ outcome: 'refused', reason: 'too_early', bookingId: early, action: expect.stringContaining('lorry park') });
      expect(tooEarly.body.message).toBe('Too early: check-in opens at 11:00 (your slot is at 12:00).');
      // The facts the message is written from, for a kiosk in another language (11:00 Sydney).
      expect(tooEarly.body.opensAt).toBe('2026-11-23T00:00:00.000Z');
      expect(await statusOf(early)).toBe('approved');

      t.clock.set('2026-11-23T00:00:00Z');
      const inWindow = await call('POST', '/api/kiosk/check-in', kiosk.auth, { code: arrivalQrText(code(early)) });
      expect(inWindow.body).toMatchObject({ outcome: 'wait', position: 1, bookingId: early });
      expect(await statusOf(early)).toBe('checked_in');
      // The gate's own check-in wrote the audit, as the system, naming the kiosk.
      const [entry] = await query<{ actor_role: string | null; details: Record<string, unknown> }>(
        `select actor_role, details from audit_log where resource_id = $1 and action = 'booking.checked_in'`,
        [early],
      );
      expect(entry!.details).toMatchObject({ gate: true, kiosk_device_id: kiosk.id });
      expect(published.some((e) => e.entity === 'booking' && e.id === early && e.action === 'checked_in' && e.siteId === site.id)).toBe(true);

      t.clock.set('2026-11-23T01:45:01Z');
      const tooLate = await call('POST', '/api/kiosk/check-in', kiosk.auth, { code: code(late).toLowerCase() });
      expect(tooLate.body).toMatchObject({ outcome: 'refused', reason: 'too_late', message: 'Too late: check-in for your 12:00 slot closed at 12:45.', action: 'Please report to the gate house.', closesAt: '2026-11-23T01:45:00.000Z' });
      expect(await statusOf(late)).toBe('approved');
      t.clock.set(NOW);
    });

    it('tells a truck a day early the day and time of its booking', async () => {
      const site = await makeSite();
      const kiosk = await registerKiosk(site);
      const tomorrow = await booking(site, 'approved', '2026-11-23T23:30:00Z'); // Tuesday 10:30 Sydney
      const res = await call('POST', '/api/kiosk/check-in', kiosk.auth, { code: code(tomorrow) });
      expect(res.body).toMatchObject({ outcome: 'refused', reason: 'too_early' });
      expect(res.body.message).toBe('Your booking is on Tuesday 24 November at 10:30. Check-in opens at 09:30 that day.');
    });

    it('finds today’s booking by plate (spaces and case ignored), answers a waiting place in arrival order, then "go to bay" once called', async () => {
      const site = await makeSite();
      const kiosk = await registerKiosk(site);
      const first = await booking(site, 'approved', '2026-11-23T00:30:00Z', { bay: 0, reg: 'AB12 CDE' });
      const second = await booking(site, 'approved', '2026-11-23T00:30:00Z', { bay: 1, reg: 'XY99 ZZZ' });
      // The same plate tomorrow is not today's booking.
      await booking(site, 'approved', '2026-11-24T00:30:00Z', { bay: 2, reg: 'XY99 ZZZ' });

      expect((await call('POST', '/api/kiosk/check-in', kiosk.auth, { plate: 'ab12cde' })).body).toMatchObject({ outcome: 'wait', position: 1, bookingId: first });
      t.clock.advance(minutes(2));
      expect((await call('POST', '/api/kiosk/check-in', kiosk.auth, { plate: ' xy99-zzz ' })).body).toMatchObject({ outcome: 'wait', position: 2, bookingId: second });
      // Again: the same answer (checked in once).
      expect((await call('POST', '/api/kiosk/check-in', kiosk.auth, { plate: 'XY99ZZZ' })).body).toMatchObject({ outcome: 'wait', position: 2 });

      // The dockmaster calls the first truck: the kiosk's status says where to go; the second moves up.
      const started = await call('POST', `/api/sites/${site.id}/gate/bookings/${first}/start`, 'dock@kiosk.test', {});
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const firstStatus = await call('GET', `/api/kiosk/bookings/${first}/status`, kiosk.auth);
      expect(firstStatus.body).toMatchObject({ status: 'in_progress', position: null, bayName: expect.stringMatching(/^K-/) });
      expect((await call('GET', `/api/kiosk/bookings/${second}/status`, kiosk.auth)).body).toMatchObject({ status: 'checked_in', position: 1 });
      expect((await call('POST', '/api/kiosk/check-in', kiosk.auth, { code: code(first) })).body).toMatchObject({ outcome: 'go_to_bay', bayName: firstStatus.body.bayName });
      t.clock.set(NOW);
    });

    it('refuses a booking not approved yet, and answers unknown and malformed codes clearly', async () => {
      const site = await makeSite();
      const kiosk = await registerKiosk(site);
      const pending = await booking(site, 'pending', '2026-11-23T00:30:00Z');
      expect((await call('POST', '/api/kiosk/check-in', kiosk.auth, { code: code(pending) })).body).toMatchObject({
        outcome: 'refused',
        reason: 'not_approved',
        action: 'Please report to the gate house.',
      });
      expect(await statusOf(pending)).toBe('pending');
      const unknown = await call('POST', '/api/kiosk/check-in', kiosk.auth, { code: 'ZZZZ-ZZZZ' });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('kiosk_booking_not_found');
      const malformed = await call('POST', '/api/kiosk/check-in', kiosk.auth, { code: 'hello' });
      expect(malformed.status).toBe(400);
      expect((await call('POST', '/api/kiosk/check-in', kiosk.auth, {})).status).toBe(400);
      expect((await call('POST', '/api/kiosk/check-in', kiosk.auth, { plate: 'NOPE 123' })).status).toBe(404);
    });

    it('a device of another site or organization never finds, checks in or reads a booking: 404', async () => {
      const siteA = await makeSite();
      const siteB = await makeSite();
      const foreign = await makeSite(otherOrgId);
      const kioskB = await registerKiosk(siteB);
      const kioskForeign = await registerKiosk(foreign, 'admin@other-kiosk.test');
      const id = await booking(siteA, 'approved', '2026-11-23T00:30:00Z', { reg: 'SITEA1' });
      for (const kiosk of [kioskB, kioskForeign]) {
        expect((await call('POST', '/api/kiosk/check-in', kiosk.auth, { code: code(id) })).status).toBe(404);
        expect((await call('POST', '/api/kiosk/check-in', kiosk.auth, { plate: 'SITEA1' })).status).toBe(404);
        expect((await call('GET', `/api/kiosk/bookings/${id}/status`, kiosk.auth)).status).toBe(404);
      }
      expect(await statusOf(id)).toBe('approved');
    });
  });

  describe('walk-in requests', () => {
    const walkIn = (reg: string) => ({
      tsrNumber: `TSR-WALK-${reg}`,
      tenantName: 'Roadside Freight',
      contactName: 'Sam Driver',
      tenantEmail: 'sam@roadside.example',
      expectedDurationMin: 30,
      vehicleType: 'rigid',
      vehicleRegistration: reg,
      vehicleHeightM: 3,
      driverInductionCompleted: true,
      termsAccepted: true,
    });

    it('an unknown truck registers at the kiosk; it shows live on the dock screens; a dockmaster accepts it (a walk-in, checked in) or declines it', async () => {
      const site = await makeSite();
      const kiosk = await registerKiosk(site);
      const asked = await call('POST', '/api/kiosk/walk-in-requests', kiosk.auth, { plate: 'wlk 001', company: 'Roadside Freight', driverName: 'Sam', phone: '+61 400 000 000' });
      expect(asked.status).toBe(201);
      expect(asked.body).toMatchObject({ status: 'pending' });
      expect(published.some((e) => e.entity === 'walk_in_request' && e.id === asked.body.requestId && e.siteId === site.id && e.action === 'created')).toBe(true);
      // A second tap is the same request.
      expect((await call('POST', '/api/kiosk/walk-in-requests', kiosk.auth, { plate: 'WLK001', company: 'Roadside Freight' })).body.requestId).toBe(asked.body.requestId);
      t.clock.advance(minutes(1));
      const other = await call('POST', '/api/kiosk/walk-in-requests', kiosk.auth, { plate: 'WLK 002', company: 'Other Freight', bookingType: 'pickup' });
      const invalid = await call('POST', '/api/kiosk/walk-in-requests', kiosk.auth, { plate: '', company: 'X' });
      expect(invalid.status).toBe(400);

      // Security staff see the list (the queue screen) but do not decide.
      const list = await call('GET', `/api/sites/${site.id}/kiosk/walk-in-requests`, 'security@kiosk.test');
      expect(list.status).toBe(200);
      expect(list.body.map((r: { vehicleRegistration: string }) => r.vehicleRegistration)).toEqual(['WLK 001', 'WLK 002']);
      expect(list.body[0]).toMatchObject({ companyName: 'Roadside Freight', driverName: 'Sam', driverPhone: '+61 400 000 000', bookingType: 'delivery', deviceName: expect.stringMatching(/^Gate tablet/) });
      expect((await call('POST', `/api/sites/${site.id}/kiosk/walk-in-requests/${asked.body.requestId}/accept`, 'security@kiosk.test', walkIn('WLK 001'))).status).toBe(403);
      // Another organization's admin sees nothing.
      expect((await call('GET', `/api/sites/${site.id}/kiosk/walk-in-requests`, 'admin@other-kiosk.test')).status).toBe(404);

      const accepted = await call('POST', `/api/sites/${site.id}/kiosk/walk-in-requests/${asked.body.requestId}/accept`, 'dock@kiosk.test', walkIn('WLK 001'));
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
      expect(accepted.body.booking).toMatchObject({ status: 'checked_in', vehicleRegistration: 'WLK 001', source: 'gate' });
      const [row] = await query<{ status: string; booking_id: string }>(`select status, booking_id from kiosk_walk_in_requests where id = $1`, [asked.body.requestId]);
      expect(row).toEqual({ status: 'accepted', booking_id: accepted.body.booking.id });
      const again = await call('POST', `/api/sites/${site.id}/kiosk/walk-in-requests/${asked.body.requestId}/accept`, 'dock@kiosk.test', walkIn('WLK 009'));
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('walk_in_request_decided');

      const declined = await call('POST', `/api/sites/${site.id}/kiosk/walk-in-requests/${other.body.requestId}/decline`, 'admin@kiosk.test', { reason: 'No slot today' });
      expect(declined.status).toBe(200);
      expect(declined.body).toMatchObject({ status: 'declined', decisionReason: 'No slot today' });
      expect((await call('GET', `/api/sites/${site.id}/kiosk/walk-in-requests`, 'dock@kiosk.test')).body).toEqual([]);
      expect((await call('POST', `/api/sites/${site.id}/kiosk/walk-in-requests/not-a-uuid/decline`, 'dock@kiosk.test', {})).status).toBe(404);
      t.clock.set(NOW);
    });

    it('a refused walk-in (no free bay) leaves the request pending: nothing is half-done', async () => {
      const site = await makeSite(orgId, 1);
      const kiosk = await registerKiosk(site);
      await booking(site, 'in_progress', '2026-11-22T23:50:00Z', { bay: 0, checkedInAt: '2026-11-22T23:45:00Z' });
      const asked = await call('POST', '/api/kiosk/walk-in-requests', kiosk.auth, { plate: 'FULL 01', company: 'Full Freight' });
      const refused = await call('POST', `/api/sites/${site.id}/kiosk/walk-in-requests/${asked.body.requestId}/accept`, 'dock@kiosk.test', walkIn('FULL 01'));
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('no_free_bay');
      const [row] = await query<{ status: string }>(`select status from kiosk_walk_in_requests where id = $1`, [asked.body.requestId]);
      expect(row!.status).toBe('pending');
    });
  });
});
