import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDataIfEmpty } from '../../db/seed';
import { signAccessToken } from '../../auth/tokens';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

// Issue 22 item 6 in the organization's booking workspace: while a booking's site is stopped for an
// emergency, its detail no longer offers Check In or Start (the lifecycle refuses them) and lists
// them as held with the refusal's own words; after the resume they are offered again.

const NOW = '2026-11-23T00:00:00Z'; // Monday 11:00 in Sydney

describe.each(databaseKinds)('organization booking detail during an emergency stop on %s', (kind) => {
  let t: TestApp;
  let acmeId: string;
  let site: { id: string; bays: string[] };
  let admin: Record<string, string>;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const signIn = async (email: string) => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [session] = await query<{ id: string }>(`insert into auth_sessions (user_id, expires_at) values ($1, '2030-01-01T00:00:00Z') returning id`, [user!.id]);
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: session!.id, email });
    return { authorization: `Bearer ${token}` };
  };
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const response = await t.app.inject({ method, url, headers: admin, payload: payload as never });
    return { status: response.statusCode, body: response.json() };
  };
  /** A booking at the site starting a quarter of an hour from now (inside the check-in window). */
  const booking = async (status: string, bay: number) => {
    seq += 1;
    const start = new Date(Date.parse(NOW) + 15 * 60_000).toISOString();
    const end = new Date(Date.parse(NOW) + 45 * 60_000).toISOString();
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min, checked_in_at)
       values ($1, $2, $3, $4, 'Hold Freight', 'hold@haulier.test', $5, $6, $5, $6, 'rigid', $7, 3500, 3.5, $8, 'admin', 30, $9) returning id`,
      [acmeId, site.id, site.bays[bay], `TSR-ORG-HOLD-${seq}`, start, end, `OHOLD${seq}`, status, status === 'checked_in' ? NOW : null],
    );
    return row!.id;
  };
  const detail = async (id: string) => (await call('GET', `/api/orgs/${acmeId}/bookings/${id}`)).body;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
    const [row] = await query<{ id: string }>(`insert into sites (org_id, name, time_zone) values ($1, 'Hold Workspace Yard', 'Australia/Sydney') returning id`, [acmeId]);
    const bays: string[] = [];
    for (const name of ['W-1', 'W-2']) {
      bays.push((await query<{ id: string }>(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, $3, 5) returning id`, [acmeId, row!.id, name]))[0]!.id);
    }
    site = { id: row!.id, bays };
    admin = await signIn('admin@acme.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('holds Check In and Start with the server’s refusal message, and offers them again after the resume', async () => {
    const approved = await booking('approved', 0);
    const arrived = await booking('checked_in', 1);
    expect((await detail(approved)).allowedTransitions).toContain('checked_in');
    expect((await detail(approved)).heldTransitions).toEqual([]);

    const stop = await t.app.inject({ method: 'POST', url: `/api/sites/${site.id}/gate/emergency`, headers: admin, payload: { reason: 'Forklift fire' } });
    expect(stop.statusCode, stop.body).toBe(200);
    const message =
      'Operations at Hold Workspace Yard are stopped (emergency: Forklift fire). Check-in and calling vehicles to bays are on hold until the site resumes.';

    const held = await detail(approved);
    expect(held.allowedTransitions).not.toContain('checked_in');
    expect(held.allowedTransitions).toContain('cancelled');
    expect(held.heldTransitions).toEqual([{ to: 'checked_in', message }]);
    const heldStart = await detail(arrived);
    expect(heldStart.allowedTransitions).toEqual([]);
    expect(heldStart.heldTransitions).toEqual([{ to: 'in_progress', message }]);

    // The same words as the refusal of the move itself.
    const refused = await call('POST', `/api/orgs/${acmeId}/bookings/${approved}/transitions`, { to: 'checked_in', version: held.version });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'site_emergency', message });

    const resume = await t.app.inject({ method: 'DELETE', url: `/api/sites/${site.id}/gate/emergency`, headers: admin });
    expect(resume.statusCode, resume.body).toBe(200);
    expect((await detail(approved)).allowedTransitions).toContain('checked_in');
    expect((await detail(approved)).heldTransitions).toEqual([]);
    expect((await detail(arrived)).allowedTransitions).toEqual(['in_progress']);
  });
});
