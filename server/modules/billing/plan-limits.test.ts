import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planLimitMessage } from '../../../domain/billing';
import { billing, plans } from '../../db/schema';
import { addMember, createBay, createOrg, createSite, createUser } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { signAccessToken } from '../../auth/tokens';
import { orgRules } from '../bookings/org-rules';

// Plan limits where things are created (issue 12): sites, bays, members (pending invitations
// included) and bookings per calendar month, each up to its limit and refused one past it with
// 409 plan_limit_reached naming the limit, nothing changed. Frozen at Monday 2026-11-23 00:00 UTC
// (11:00 in Sydney, where the sites are).

const NOW = '2026-11-23T00:00:00Z';

describe.each(databaseKinds)('plan limits on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let planId: string;
  let siteA: { id: string; orgId: string };
  let admin: Record<string, string>;
  let superAdmin: Record<string, string>;

  type Res = { status: number; body: any };
  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const session = async (email: string) => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [row] = await query<{ id: string }>(`insert into auth_sessions (user_id, expires_at) values ($1, '2030-01-01T00:00:00Z') returning id`, [user!.id]);
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: row!.id, email });
    return { authorization: `Bearer ${token}` };
  };
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: unknown): Promise<Res> => {
    const response = await t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as never } : {}) });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body };
  };
  const org = (path: string, id = orgId) => `/api/orgs/${id}${path}`;
  const count = async (sql: string, params: unknown[] = [orgId]) => Number((await query<{ n: number }>(sql, params))[0]!.n);
  const setMembersLimit = (n: number) => query(`update plans set max_users = $2 where id = $1`, [planId, n]);

  const expectRefused = (res: Res, limit: string, allowed: number) => {
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'plan_limit_reached', details: { limit, plan: 'Limited', allowed } });
    expect(res.body.error.message).toBe(planLimitMessage(limit as never, 'Limited', allowed));
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    orgId = (await createOrg(db, { name: 'Limited Co' })).id;
    const [plan] = await db.db
      .insert(plans)
      .values({ name: 'Limited', priceCents: 4900, maxSites: 2, maxBays: 3, maxUsers: 3, maxBookingsPerMonth: 3 })
      .returning();
    planId = plan!.id;
    await db.db.insert(billing).values({ orgId, planId });
    siteA = await createSite(db, orgId, { name: 'Yard A', timeZone: 'Australia/Sydney' });
    await createBay(db, siteA, { name: 'A-1', heightClearanceM: 5 });
    await createBay(db, siteA, { name: 'A-2', heightClearanceM: 5 });
    const adminUser = await createUser(db, { email: 'admin@limited.test', fullName: 'Lim Admin' });
    await addMember(db, orgId, adminUser.id, 'org_admin');
    const securityUser = await createUser(db, { email: 'security@limited.test' });
    await addMember(db, orgId, securityUser.id, 'security', { employeeId: 'S-1' });
    await createUser(db, { email: 'super@limited.test', platformRole: 'super_admin' });
    admin = await session('admin@limited.test');
    superAdmin = await session('super@limited.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sites: up to the limit, then 409 naming it; a deactivated site frees a place; reactivating past the limit is refused', async () => {
    const second = await call('POST', org('/sites'), admin, { name: 'Yard B', timeZone: 'Australia/Sydney' });
    expect(second.status).toBe(201); // 2 of 2
    expectRefused(await call('POST', org('/sites'), admin, { name: 'Yard C', timeZone: 'Australia/Sydney' }), 'sites', 2);
    expect(await count(`select count(*)::int as n from sites where org_id = $1`)).toBe(2);

    expect((await call('POST', org(`/sites/${second.body.id}/deactivate`), admin, {})).status).toBe(200);
    const third = await call('POST', org('/sites'), admin, { name: 'Yard C', timeZone: 'Australia/Sydney' });
    expect(third.status).toBe(201);
    expectRefused(await call('POST', org(`/sites/${second.body.id}/reactivate`), admin, {}), 'sites', 2);
    expect(await count(`select count(*)::int as n from sites where id = $1 and active`, [second.body.id])).toBe(0);
    // Yard C closes again; Yard B stays closed for the bays below.
    expect((await call('POST', org(`/sites/${third.body.id}/deactivate`), admin, {})).status).toBe(200);
  });

  it('bays: active bays at active sites up to the limit; one at a closed site waits until it reopens', async () => {
    const third = await call('POST', org('/bays'), admin, { siteId: siteA.id, name: 'A-3', heightClearanceM: 5 });
    expect(third.status).toBe(201); // 3 of 3
    expectRefused(await call('POST', org('/bays'), admin, { siteId: siteA.id, name: 'A-4', heightClearanceM: 5 }), 'bays', 3);
    expect(await count(`select count(*)::int as n from bays where org_id = $1`)).toBe(3);

    // Deactivate one, reactivate it: back at the limit, allowed.
    const bayId = third.body.bay.id;
    expect((await call('POST', org(`/bays/${bayId}/deactivate`), admin, {})).status).toBe(200);
    const other = await call('POST', org('/bays'), admin, { siteId: siteA.id, name: 'A-5', heightClearanceM: 5 });
    expect(other.status).toBe(201);
    expectRefused(await call('POST', org(`/bays/${bayId}/reactivate`), admin, {}), 'bays', 3);

    // A bay at the closed Yard B does not count — until the yard reopens with it.
    const [yardB] = await query<{ id: string }>(`select id from sites where org_id = $1 and name = 'Yard B'`, [orgId]);
    expect((await call('POST', org('/bays'), admin, { siteId: yardB!.id, name: 'B-1', heightClearanceM: 5 })).status).toBe(201);
    expectRefused(await call('POST', org(`/sites/${yardB!.id}/reactivate`), admin, {}), 'bays', 3);
    expect(await count(`select count(*)::int as n from sites where id = $1 and active`, [yardB!.id])).toBe(0);
  });

  it('members: active members and pending invitations up to the limit; an acceptance needs a free place among the active', async () => {
    // Two active members (admin, security) of 3.
    const invited = await call('POST', org('/team/invitations'), admin, { email: 'one@limited.test', role: 'dockmaster', employeeId: 'D-1' });
    expect(invited.status).toBe(201);
    expectRefused(await call('POST', org('/team/invitations'), admin, { email: 'two@limited.test', role: 'dockmaster', employeeId: 'D-2' }), 'members', 3);
    expect(await count(`select count(*)::int as n from org_invitations where org_id = $1`)).toBe(1);

    // The limit lowered to 2 after the invitation went out (allowed, flagged): accepting is refused, nothing changed.
    await setMembersLimit(2);
    const mail = (await t.outbox()).filter((m) => [m.to].flat().some((a) => a?.text.includes('one@limited.test'))).at(-1);
    const token = mail?.text?.match(/accept-invitation\?token=([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeTruthy();
    const refused = await call('POST', `/api/invitations/${token}/accept`, {}, { fullName: 'One Dock', password: 'Gate-keeper-9' });
    expectRefused(refused, 'members', 2);
    expect(await count(`select count(*)::int as n from users where email = 'one@limited.test'`, [])).toBe(0);

    await setMembersLimit(3);
    expect((await call('POST', `/api/invitations/${token}/accept`, {}, { fullName: 'One Dock', password: 'Gate-keeper-9' })).status).toBe(200);
    expect(await count(`select count(*)::int as n from org_memberships where org_id = $1 and active`)).toBe(3);

    // Reactivating a member takes a place too.
    const team = await call('GET', org('/team'), admin);
    const securityMember = team.body.members.find((m: { email: string }) => m.email === 'security@limited.test');
    expect((await call('POST', org(`/team/members/${securityMember.id}/deactivate`), admin, {})).status).toBe(200);
    const other = await call('POST', org('/team/invitations'), admin, { email: 'three@limited.test', role: 'dockmaster', employeeId: 'D-3' });
    expect(other.status).toBe(201);
    expectRefused(await call('POST', org(`/team/members/${securityMember.id}/reactivate`), admin, {}), 'members', 3);
    expect((await call('DELETE', org(`/team/invitations/${other.body.id}`), admin)).status).toBe(204);
    expect((await call('POST', org(`/team/members/${securityMember.id}/reactivate`), admin, {})).status).toBe(200);
  });

  it('racing creations cannot both take the last place', async () => {
    const db = t.ctx.database;
    const racer = await createOrg(db, { name: 'Racing Co' });
    const [plan] = await db.db.insert(plans).values({ name: 'Race', priceCents: 100, maxSites: 3 }).returning();
    await db.db.insert(billing).values({ orgId: racer.id, planId: plan!.id });
    await createSite(db, racer.id, { name: 'Race Yard 0' });
    const racerAdmin = await createUser(db, { email: 'admin@racing.test' });
    await addMember(db, racer.id, racerAdmin.id, 'org_admin');
    const headers = await session('admin@racing.test');
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => call('POST', org('/sites', racer.id), headers, { name: `Race Yard ${n}`, timeZone: 'UTC' })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.code === 'plan_limit_reached')).toBe(true);
    expect(await count(`select count(*)::int as n from sites where org_id = $1`, [racer.id])).toBe(3);
  });

  describe('bookings per month', () => {
    let seq = 0;
    const portal = (date: string, slot: string, orgIdOf = orgId) => {
      seq += 1;
      const form = new FormData();
      form.append(
        'data',
        JSON.stringify({
          orgId: orgIdOf,
          tsrNumber: `TSR-LIM-${seq}`,
          tenantName: 'Limit Freight',
          contactName: 'Lee',
          tenantEmail: 'lee@limit.test',
          date,
          slot,
          expectedDurationMin: 30,
          vehicleType: 'rigid',
          vehicleRegistration: `LIM${seq}`,
          vehicleHeightM: 3,
          driverInductionCompleted: true,
          termsAccepted: true,
        }),
      );
      return call('POST', '/api/public/bookings', {}, form);
    };
    const adminBooking = (date: string, slot: string) => {
      seq += 1;
      return call('POST', org('/bookings'), admin, {
        tsrNumber: `TSR-LIM-${seq}`,
        tenantName: 'Desk Freight',
        contactName: 'Dee',
        tenantEmail: 'dee@limit.test',
        date,
        slot,
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: `ADM${seq}`,
        vehicleHeightM: 3,
        driverInductionCompleted: true,
        termsAccepted: true,
      });
    };
    const walkIn = () => {
      seq += 1;
      return call('POST', `/api/sites/${siteA.id}/gate/walk-ins`, admin, {
        tsrNumber: `TSR-WALK-${seq}`,
        tenantName: 'Roadside Freight',
        contactName: 'Sam',
        tenantEmail: 'sam@roadside.test',
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: `WALK${seq}`,
        vehicleHeightM: 3,
        driverInductionCompleted: true,
        termsAccepted: true,
      });
    };
    const bookingsOf = (id = orgId) => count(`select count(*)::int as n from bookings where org_id = $1`, [id]);

    it('counts the calendar month’s bookings from every source and refuses the one past the limit, wherever it is made', async () => {
      // A booking created in October does not count in November.
      await query(
        `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                               vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, created_at)
         select $1, $2, b.id, 'TSR-OLD', 'Old', 'old@limit.test', '2026-10-20T01:00:00Z', '2026-10-20T01:30:00Z', '2026-10-20T01:00:00Z',
                '2026-10-20T01:30:00Z', 'rigid', 'OLD1', 3000, 3, 'completed', 'portal', '2026-10-19T00:00:00Z'
           from bays b where b.site_id = $2 limit 1`,
        [orgId, siteA.id],
      );
      expect((await portal('2026-11-24', '09:00')).status).toBe(201);
      expect((await walkIn()).status).toBe(201);
      expect((await adminBooking('2026-11-24', '10:00')).status).toBe(201); // 3 of 3
      const before = await bookingsOf();
      expectRefused(await portal('2026-11-24', '11:00'), 'bookings', 3);
      expectRefused(await adminBooking('2026-11-24', '11:30'), 'bookings', 3);
      expectRefused(await walkIn(), 'bookings', 3);
      expect(await bookingsOf()).toBe(before);

      // December starts afresh.
      t.clock.set('2026-12-01T00:00:00Z');
      try {
        expect((await portal('2026-12-02', '09:00')).status).toBe(201);
      } finally {
        t.clock.set(NOW);
      }
    });

    it('an organization without a booking limit keeps the one-statement path; a limit set later reaches it at once', async () => {
      const db = t.ctx.database;
      const open = await createOrg(db, { name: 'Open Co' });
      const site = await createSite(db, open.id, { name: 'Open Yard', timeZone: 'Australia/Sydney' });
      await createBay(db, site, { name: 'O-1', heightClearanceM: 5 });
      const [unlimited] = await db.db.insert(plans).values({ name: 'Unlimited bookings', priceCents: 1000 }).returning();
      await db.db.insert(billing).values({ orgId: open.id, planId: unlimited!.id });

      expect((await portal('2026-11-24', '09:00', open.id)).status).toBe(201);
      const cached = (await orgRules(db, open.id))!;
      expect(cached.bookingLimit).toBeNull();

      // The plan gets a limit of 1 (the cached rules still say unlimited): the next booking is refused.
      const patched = await call('PATCH', `/api/platform/plans/${unlimited!.id}`, superAdmin, { maxBookingsPerMonth: 1 });
      expect(patched.status).toBe(200);
      expect(patched.body.overLimit).toEqual([]);
      const refused = await portal('2026-11-24', '10:00', open.id);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe(planLimitMessage('bookings', 'Unlimited bookings', 1));
      expect(await bookingsOf(open.id)).toBe(1);

      // Moved to a plan without a limit: booking again, on the one-statement path.
      const [roomy] = await db.db.insert(plans).values({ name: 'Roomy', priceCents: 2000 }).returning();
      expect((await call('PUT', `/api/platform/organizations/${open.id}/plan`, superAdmin, { planId: roomy!.id })).status).toBe(200);
      expect((await portal('2026-11-24', '10:00', open.id)).status).toBe(201);
      expect((await orgRules(db, open.id))!.bookingLimit).toBeNull();
    });
  });
});
