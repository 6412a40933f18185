import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DwellReport } from '../../../domain/reports';
import { seedDemoDataIfEmpty } from '../../db/seed';
import { signAccessToken } from '../../auth/tokens';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { gateMailRenderers, GATE_HAULIER_HOLD_MAIL_KIND } from './gate-mail';

// Issue 22 items 6 and 7: the emergency stop holds the gate (check-in, start at bay and call to bay
// refused while the site is stopped; the hauliers due today told once at the stop and once at the
// resume), and Extend Time keeps the history (the real start stays, for the gate and the dwell
// report). The clock is frozen; each test has its own site of Acme in Sydney (UTC+11 in November).

const NOW = '2026-11-23T00:00:00Z'; // Monday 11:00 in Sydney
const at = (iso: string) => new Date(iso);

describe.each(databaseKinds)('gate holds on %s', (kind) => {
  let t: TestApp;
  let acmeId: string;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  const signIn = async (email: string) => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [session] = await query<{ id: string }>(`insert into auth_sessions (user_id, expires_at) values ($1, '2030-01-01T00:00:00Z') returning id`, [user!.id]);
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: session!.id, email });
    return { authorization: `Bearer ${token}` };
  };
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, email: string, payload?: unknown) => {
    const response = await t.app.inject({ method, url, headers: await signIn(email), payload: payload as never });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body };
  };
  const ADMIN = 'admin@acme.test';
  const DOCK = 'dock@acme.test';
  const SECURITY = 'security@acme.test';

  type Site = { id: string; name: string; bays: string[] };
  const makeSite = async (n = 2): Promise<Site> => {
    seq += 1;
    const name = `Hold Yard ${seq}`;
    const [site] = await query<{ id: string }>(`insert into sites (org_id, name, time_zone) values ($1, $2, 'Australia/Sydney') returning id`, [acmeId, name]);
    const bays: string[] = [];
    for (let i = 1; i <= n; i++) {
      bays.push((await query<{ id: string }>(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, $3, 5) returning id`, [acmeId, site!.id, `H-${i}`]))[0]!.id);
    }
    return { id: site!.id, name, bays };
  };

  type BookingOptions = { bay?: number; minutes?: number; email?: string; checkedInAt?: string; startedAt?: string };
  /** A booking on `site` in any status from `start` (UTC ISO). */
  const booking = async (site: Site, status: string, start: string, options: BookingOptions = {}) => {
    seq += 1;
    const end = new Date(Date.parse(start) + (options.minutes ?? 30) * 60_000);
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min, checked_in_at, started_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $7, $8, 'rigid', $9, 3500, 3.5, $10, 'admin', $11, $12, $13) returning id`,
      [
        acmeId, site.id, site.bays[options.bay ?? 0], `TSR-HOLD-${seq}`, `Tenant ${seq}`, options.email ?? `driver${seq}@haulier.test`,
        start, end.toISOString(), `HOLD${seq}`, status, options.minutes ?? 30, options.checkedInAt ?? null, options.startedAt ?? null,
      ],
    );
    return row!.id;
  };
  const gate = (site: Site, path: string) => `/api/sites/${site.id}/gate${path}`;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('the emergency stop holds the gate', () => {
    it('refuses check-in, start at the bay and call to another bay with a readable 409, and lets them again after the resume', async () => {
      t.clock.set(at(NOW));
      const site = await makeSite(2);
      // 11:30 Sydney, check-in open; a vehicle waiting since 10:50 for its 11:10 slot.
      const arriving = await booking(site, 'approved', '2026-11-23T00:30:00Z', { bay: 0 });
      const waiting = await booking(site, 'checked_in', '2026-11-23T00:10:00Z', { bay: 1, checkedInAt: '2026-11-22T23:50:00Z' });

      expect((await call('POST', gate(site, '/emergency'), DOCK, { reason: 'Gas leak at dock 2' })).status).toBe(200);
      const liveActions = async () => (await call('GET', gate(site, '/overview'), SECURITY)).body.live.map((b: { id: string; actions: string[] }) => [b.id, b.actions]);
      expect(await liveActions()).toEqual(expect.arrayContaining([[arriving, []], [waiting, []]]));

      const checkIn = await call('POST', gate(site, `/bookings/${arriving}/check-in`), SECURITY, {});
      expect(checkIn.status).toBe(409);
      expect(checkIn.body.error.code).toBe('site_emergency');
      expect(checkIn.body.error.message).toBe(
        `Operations at ${site.name} are stopped (emergency: Gas leak at dock 2). Check-in and calling vehicles to bays are on hold until the site resumes.`,
      );
      const start = await call('POST', gate(site, `/bookings/${waiting}/start`), DOCK, { version: 1 });
      expect(start.status).toBe(409);
      expect(start.body.error.code).toBe('site_emergency');
      const callToOther = await call('POST', gate(site, `/bookings/${waiting}/start`), DOCK, { version: 1, bayId: site.bays[0] });
      expect(callToOther.status).toBe(409);
      expect(callToOther.body.error.message).toContain('Check-in and calling vehicles to bays are on hold');
      // The organization's workspace takes the same moves through the lifecycle: refused too.
      const workspace = await call('POST', `/api/orgs/${acmeId}/bookings/${arriving}/transitions`, ADMIN, { to: 'checked_in', version: 1 });
      expect(workspace.status).toBe(409);
      expect(workspace.body.error.code).toBe('site_emergency');
      const states = await query<{ id: string; status: string }>(`select id, status from bookings where id in ($1, $2) order by status`, [arriving, waiting]);
      expect(states.map((s) => s.status)).toEqual(['approved', 'checked_in']);

      expect((await call('DELETE', gate(site, '/emergency'), DOCK)).status).toBe(200);
      expect((await call('POST', gate(site, `/bookings/${arriving}/check-in`), SECURITY, {})).status).toBe(200);
      expect((await call('POST', gate(site, `/bookings/${waiting}/start`), DOCK, { version: 1 })).status).toBe(200);
    });

    it('shows the stop on the organization dashboard: which site, since when, by whom', async () => {
      t.clock.set(at(NOW));
      const site = await makeSite(1);
      const dashboard = async () => (await call('GET', `/api/orgs/${acmeId}/dashboard`, ADMIN)).body;
      expect((await dashboard()).emergencyStops.find((s: { siteId: string }) => s.siteId === site.id)).toBeUndefined();
      expect((await call('POST', gate(site, '/emergency'), DOCK, { reason: 'Forklift fire' })).status).toBe(200);
      expect((await dashboard()).emergencyStops).toContainEqual({
        siteId: site.id, siteName: site.name, timeZone: 'Australia/Sydney', since: '2026-11-23T00:00:00.000Z', reason: 'Forklift fire', byEmail: DOCK,
      });
      const one = (await call('GET', `/api/orgs/${acmeId}/dashboard?siteId=${site.id}`, ADMIN)).body;
      expect(one.emergencyStops).toHaveLength(1);
      expect((await call('DELETE', gate(site, '/emergency'), DOCK)).status).toBe(200);
      expect((await dashboard()).emergencyStops.find((s: { siteId: string }) => s.siteId === site.id)).toBeUndefined();
    });

    it('e-mails each haulier due today and not arrived once at the stop and once at the resume, in the transaction', async () => {
      t.clock.set(at(NOW));
      const site = await makeSite(2);
      const other = await makeSite(1);
      const mailsOf = async (state: string) =>
        (
          await query<{ recipients: string[]; payload: Record<string, unknown> }>(
            `select recipients, payload from mail_outbox where kind = $1 and payload->>'siteId' = $2 and payload->>'state' = $3 order by recipients[1]`,
            [GATE_HAULIER_HOLD_MAIL_KIND, site.id, state],
          )
        ).map((m) => ({ to: m.recipients, bookings: (m.payload.bookings as Array<{ tsrNumber: string }>).map((b) => b.tsrNumber), payload: m.payload }));

      // Today in Sydney is 2026-11-23 (13:00 UTC on the 22nd to 13:00 UTC on the 23rd).
      const amy1 = await booking(site, 'approved', '2026-11-23T02:00:00Z', { bay: 0, email: 'amy@haul.test' });
      const amy2 = await booking(site, 'pending', '2026-11-23T04:00:00Z', { bay: 0, email: 'AMY@haul.test' });
      const ben = await booking(site, 'approved', '2026-11-23T03:00:00Z', { bay: 1, email: 'ben@haul.test' });
      await booking(site, 'approved', '2026-11-22T12:30:00Z', { bay: 1, email: 'yesterday@haul.test' }); // 23:30 on the 22nd, Sydney
      await booking(site, 'approved', '2026-11-23T13:30:00Z', { bay: 1, email: 'tomorrow@haul.test' }); // 00:30 on the 24th, Sydney
      await booking(site, 'checked_in', '2026-11-23T00:10:00Z', { bay: 1, email: 'arrived@haul.test', checkedInAt: '2026-11-22T23:50:00Z' });
      await booking(site, 'cancelled', '2026-11-23T05:00:00Z', { bay: 1, email: 'cancelled@haul.test' });
      await booking(other, 'approved', '2026-11-23T02:00:00Z', { email: 'elsewhere@haul.test' });
      const tsr = async (id: string) => (await query<{ tsr_number: string }>(`select tsr_number from bookings where id = $1`, [id]))[0]!.tsr_number;

      expect((await call('POST', gate(site, '/emergency'), ADMIN, { reason: 'Power cut' })).status).toBe(200);
      // A second stop changes nothing: no second mail.
      expect((await call('POST', gate(site, '/emergency'), DOCK, { reason: 'Power cut again' })).body.unchanged).toBe(true);
      const stopped = await mailsOf('stopped');
      expect(stopped.map((m) => [m.to, m.bookings])).toEqual([
        [['amy@haul.test'], [await tsr(amy1), await tsr(amy2)]],
        [['ben@haul.test'], [await tsr(ben)]],
      ]);
      const rendered = await gateMailRenderers[GATE_HAULIER_HOLD_MAIL_KIND]!(t.ctx, stopped[0]!.payload, stopped[0]!.to);
      expect(rendered!.subject).toBe(`${site.name} is stopped: do not come to the gate yet`);
      expect(rendered!.text).toContain(`${await tsr(amy1)} at 13:00 (Australia/Sydney)`);
      expect(rendered!.text).toContain('Check-in is on hold until the site resumes');
      expect(await mailsOf('resumed')).toEqual([]);

      t.clock.set(at('2026-11-23T00:20:00Z'));
      expect((await call('DELETE', gate(site, '/emergency'), DOCK)).status).toBe(200);
      expect((await call('DELETE', gate(site, '/emergency'), DOCK)).body.unchanged).toBe(true);
      const resumed = await mailsOf('resumed');
      expect(resumed.map((m) => [m.to, m.bookings])).toEqual([
        [['amy@haul.test'], [await tsr(amy1), await tsr(amy2)]],
        [['ben@haul.test'], [await tsr(ben)]],
      ]);
      const back = await gateMailRenderers[GATE_HAULIER_HOLD_MAIL_KIND]!(t.ctx, resumed[1]!.payload, resumed[1]!.to);
      expect(back!.subject).toBe(`${site.name} has resumed: your booking stands`);
      expect((await mailsOf('stopped')).length).toBe(2);

      // The next stop is a new one: its own mail, and its own resume.
      expect((await call('POST', gate(site, '/emergency'), DOCK, { reason: 'Second alarm' })).status).toBe(200);
      expect((await mailsOf('stopped')).length).toBe(4);
      expect((await call('DELETE', gate(site, '/emergency'), DOCK)).status).toBe(200);
      expect((await mailsOf('resumed')).length).toBe(4);
    });
  });

  describe('Extend Time keeps the history', () => {
    it('changes the planned end only: the at-bay-since time and the dwell report keep the real start', async () => {
      t.clock.set(at(NOW));
      const site = await makeSite(1);
      // Booked 09:00–09:30 Sydney (22:00–22:30 UTC); arrived 08:55, at the bay since 09:00, overstaying at 11:00.
      const id = await booking(site, 'overstay', '2026-11-22T22:00:00Z', { checkedInAt: '2026-11-22T21:55:00Z', startedAt: '2026-11-22T22:00:00Z' });

      const extended = await call('POST', gate(site, `/bookings/${id}/extend`), DOCK, { version: 1, endTime: '2026-11-23T01:00:00Z' });
      expect(extended.status).toBe(200);
      expect(extended.body.booking).toMatchObject({
        status: 'in_progress',
        startTime: '2026-11-22T22:00:00.000Z',
        endTime: '2026-11-23T01:00:00.000Z',
        checkedInAt: '2026-11-22T21:55:00.000Z',
        startedAt: '2026-11-22T22:00:00.000Z',
      });
      const [row] = await query<{ started_at: Date; start_time: Date; end_time: Date }>(`select started_at, start_time, end_time from bookings where id = $1`, [id]);
      expect(new Date(row!.started_at).toISOString()).toBe('2026-11-22T22:00:00.000Z');
      expect(new Date(row!.start_time).toISOString()).toBe('2026-11-22T22:00:00.000Z');

      // The gate's screen: the bay's vehicle has been there since 09:00.
      const overview = await call('GET', gate(site, '/overview'), SECURITY);
      expect(overview.body.bays[0].booking).toMatchObject({ id, status: 'in_progress', startedAt: '2026-11-22T22:00:00.000Z' });

      // Out at 11:30 Sydney: gate wait 5 min, at the bay 150 min, on site 155 min.
      t.clock.set(at('2026-11-23T00:30:00Z'));
      expect((await call('POST', gate(site, `/bookings/${id}/check-out`), DOCK, {})).status).toBe(200);
      const report = await call('GET', `/api/orgs/${acmeId}/reports/dwell?from=2026-11-23&to=2026-11-23&siteId=${site.id}`, ADMIN);
      expect(report.status).toBe(200);
      const total = (report.body as DwellReport).total;
      expect(total.visits).toBe(1);
      expect(total.gateWait).toMatchObject({ count: 1, medianMinutes: 5, maxMinutes: 5 });
      expect(total.atBay).toMatchObject({ count: 1, medianMinutes: 150, maxMinutes: 150 });
      expect(total.onSite).toMatchObject({ count: 1, medianMinutes: 155, maxMinutes: 155 });
    });
  });
});
