import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DwellReport } from '../../../domain/reports';
import { seedDemoDataIfEmpty } from '../../db/seed';
import { signAccessToken } from '../../auth/tokens';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

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
