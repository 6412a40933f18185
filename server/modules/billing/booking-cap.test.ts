import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PLAN_CHANGE_OVER_LIMITS,
  planChangeOverLimitsMessage,
  planChangeViolationMessage,
  planLimitMessage,
} from '../../../domain/billing';
import { monthFullMessage } from '../../../domain/day-notice';
import { signAccessToken } from '../../auth/tokens';
import { billing, plans } from '../../db/schema';
import { addMember, createBay, createOrg, createSite, createUser } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { BOOKING_CAP_MAIL_KIND } from './booking-cap-mail';

// A plan limit never ambushes a haulier (issue 22 item 13):
// - once the monthly booking cap is reached the portal's availability offers no slot and says
//   neutrally "This site is not taking more bookings this month." (bookings are still refused);
// - the organization's admins are e-mailed at 80 % and 100 % of the cap, once each a month, also
//   when bookings race;
// - a plan the organization would be over is not put in place without `confirm: true`: 409
//   plan_change_over_limits lists what breaks, nothing changes.
// Frozen at Monday 2026-11-23 00:00 UTC (11:00 in Sydney, where the sites are).

const NOW = '2026-11-23T00:00:00Z';
const DAY = '2026-11-24';
const SLOTS = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00', '12:30', '13:00', '13:30', '14:00', '14:30'];

describe.each(databaseKinds)('the monthly booking cap and plan changes on %s', (kind) => {
  let t: TestApp;
  let superAdmin: Record<string, string>;
  let seq = 0;

  type Res = { status: number; body: any };
  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const count = async (sql: string, params: unknown[]) => Number((await query<{ n: number }>(sql, params))[0]!.n);
  const session = async (email: string) => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [row] = await query<{ id: string }>(`insert into auth_sessions (user_id, expires_at) values ($1, '2030-01-01T00:00:00Z') returning id`, [user!.id]);
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: row!.id, email });
    return { authorization: `Bearer ${token}` };
  };
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string> = {}, payload?: unknown): Promise<Res> => {
    const response = await t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as never } : {}) });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body };
  };
  const portal = (orgId: string, slot: string, date = DAY) => {
    seq += 1;
    const form = new FormData();
    form.append(
      'data',
      JSON.stringify({
        orgId,
        tsrNumber: `TSR-CAP-${seq}`,
        tenantName: 'Cap Freight',
        contactName: 'Cat',
        tenantEmail: 'cat@cap.test',
        date,
        slot,
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: `CAP${seq}`,
        vehicleHeightM: 3,
        driverInductionCompleted: true,
        termsAccepted: true,
      }),
    );
    return call('POST', '/api/public/bookings', {}, form);
  };
  const availability = (orgId: string, date = DAY) => call('POST', '/api/public/availability', {}, { orgId, date, durationMin: 30, vehicleHeightM: 3 });

  /** An organization on its own plan, with one admin and a site of two bays. */
  const capped = async (name: string, limits: Partial<typeof plans.$inferInsert>) => {
    const db = t.ctx.database;
    const org = await createOrg(db, { name });
    const planName = name.split(' ')[0]!; // 'Mail Cap' is on the 'Mail' plan
    const [plan] = await db.db.insert(plans).values({ name: planName, priceCents: 1000, ...limits }).returning();
    await db.db.insert(billing).values({ orgId: org.id, planId: plan!.id });
    const site = await createSite(db, org.id, { name: `${name} Yard`, timeZone: 'Australia/Sydney' });
    await createBay(db, site, { name: 'Y-1', heightClearanceM: 5 });
    await createBay(db, site, { name: 'Y-2', heightClearanceM: 5 });
    const slug = name.toLowerCase().replace(/[^a-z]/g, '');
    const admin = await createUser(db, { email: `admin@${slug}.test`, fullName: `${name} Admin` });
    await addMember(db, org.id, admin.id, 'org_admin');
    return { orgId: org.id, planId: plan!.id, planName, site, adminEmail: `admin@${slug}.test` };
  };
  const capMails = (orgId: string) =>
    query<{ percent: number; recipients: string[] }>(
      `select (payload->>'percent')::int as percent, recipients from mail_outbox where kind = $1 and org_id = $2 order by (payload->>'percent')::int`,
      [BOOKING_CAP_MAIL_KIND, orgId],
    );

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await createUser(t.ctx.database, { email: 'super@cap.test', platformRole: 'super_admin' });
    superAdmin = await session('super@cap.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the portal offers slots below the cap, then none with the neutral notice once it is reached; bookings are still refused; next month it opens again', async () => {
    const org = await capped('Portal Cap', { maxBookingsPerMonth: 2 });
    const open = await availability(org.orgId);
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ isMonthFull: false, notice: null });
    expect(open.body.slots.filter((s: { available: boolean }) => s.available).length).toBeGreaterThan(0);

    expect((await portal(org.orgId, '09:00')).status).toBe(201);
    expect((await availability(org.orgId)).body.isMonthFull).toBe(false); // 1 of 2
    expect((await portal(org.orgId, '09:30')).status).toBe(201); // 2 of 2

    for (const date of [DAY, '2026-12-10']) {
      const full = await availability(org.orgId, date);
      expect(full.status).toBe(200);
      expect(full.body).toMatchObject({ isMonthFull: true, notice: monthFullMessage, slots: [] });
      // Neutral: nothing about plans or limits reaches the haulier.
      expect(JSON.stringify(full.body)).not.toMatch(/plan|limit/i);
    }
    const refused = await portal(org.orgId, '10:00');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'plan_limit_reached', message: planLimitMessage('bookings', org.planName, 2) });
    expect(await count(`select count(*)::int as n from bookings where org_id = $1`, [org.orgId])).toBe(2);

    // December: a new month, slots again.
    t.clock.set('2026-12-01T00:00:00Z');
    try {
      const december = await availability(org.orgId, '2026-12-10');
      expect(december.body.isMonthFull).toBe(false);
      expect(december.body.slots.some((s: { available: boolean }) => s.available)).toBe(true);
    } finally {
      t.clock.set(NOW);
    }
  });

  it('e-mails the admins at 80 % and at 100 % of the cap, once each, with the figures', async () => {
    const org = await capped('Mail Cap', { maxBookingsPerMonth: 5 }); // 80 % = 4 bookings
    for (const slot of SLOTS.slice(0, 3)) expect((await portal(org.orgId, slot)).status).toBe(201);
    expect(await capMails(org.orgId)).toEqual([]);

    expect((await portal(org.orgId, SLOTS[3]!)).status).toBe(201); // 4 of 5
    expect(await capMails(org.orgId)).toEqual([{ percent: 80, recipients: [org.adminEmail] }]);

    expect((await portal(org.orgId, SLOTS[4]!)).status).toBe(201); // 5 of 5
    expect(await capMails(org.orgId)).toEqual([
      { percent: 80, recipients: [org.adminEmail] },
      { percent: 100, recipients: [org.adminEmail] },
    ]);
    expect((await portal(org.orgId, SLOTS[5]!)).status).toBe(409);
    expect(await capMails(org.orgId)).toHaveLength(2);

    const delivered = (await t.outbox()).filter((m) => m.subject?.startsWith('Mail Cap has'));
    expect(delivered.map((m) => m.subject).sort()).toEqual([
      'Mail Cap has reached its monthly booking limit (November 2026)',
      'Mail Cap has used 80% of its monthly bookings (November 2026)',
    ]);
    const full = delivered.find((m) => m.subject?.includes('reached'))!;
    expect(full.text).toContain('Mail Cap has made 5 bookings in November 2026: the Mail plan allows 5 bookings a month.');
    expect(full.text).toContain('until December 1, 2026 (00:00 UTC)');
  });

  it('racing bookings send each e-mail exactly once', async () => {
    const org = await capped('Race Cap', { maxBookingsPerMonth: 10 }); // 80 % = 8
    const results = await Promise.all(SLOTS.map((slot) => portal(org.orgId, slot)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.code === 'plan_limit_reached')).toBe(true);
    expect(await capMails(org.orgId)).toEqual([
      { percent: 80, recipients: [org.adminEmail] },
      { percent: 100, recipients: [org.adminEmail] },
    ]);
    expect(await count(`select count(*)::int as n from booking_cap_alerts where org_id = $1`, [org.orgId])).toBe(2);
  });

  it('a plan change that breaks limits answers 409 with what breaks and changes nothing; confirmed, it is made, audited and the admins are told', async () => {
    const org = await capped('Downgrade Co', {}); // unlimited: 1 site, 2 bays, 1 member
    for (const slot of SLOTS.slice(0, 3)) expect((await portal(org.orgId, slot)).status).toBe(201);
    const db = t.ctx.database;
    const [small] = await db.db.insert(plans).values({ name: 'Small', priceCents: 500, maxSites: 1, maxBays: 1, maxUsers: 5, maxBookingsPerMonth: 3 }).returning();
    const url = `/api/platform/organizations/${org.orgId}/plan`;

    const refused = await call('PUT', url, superAdmin, { planId: small!.id });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: PLAN_CHANGE_OVER_LIMITS,
      message: planChangeOverLimitsMessage('Downgrade Co', 'Small'),
      details: {
        plan: 'Small',
        violations: [
          { kind: 'bays', used: 2, allowed: 1, message: planChangeViolationMessage('bays', 'Small', 2, 1) },
          { kind: 'bookings', used: 3, allowed: 3, message: planChangeViolationMessage('bookings', 'Small', 3, 3) },
        ],
      },
    });
    expect(refused.body.error.details.violations[0].message).toBe(
      'Bays: 2 active at active sites, the Small plan allows 1 bay. No bay can be added or reactivated until enough are deactivated.',
    );
    // Nothing changed: same plan, no audit entry, no e-mail.
    expect((await call('GET', url, superAdmin)).body.plan.name).toBe(org.planName);
    expect(await count(`select count(*)::int as n from audit_log where action = 'organization.plan_changed' and org_id = $1`, [org.orgId])).toBe(0);
    expect(await capMails(org.orgId)).toEqual([]);
    expect((await call('PUT', url, superAdmin, { planId: small!.id, confirm: false })).status).toBe(409);

    const confirmed = await call('PUT', url, superAdmin, { planId: small!.id, confirm: true });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.plan.name).toBe('Small');
    expect(confirmed.body.usage.find((u: { kind: string }) => u.kind === 'bays')).toEqual({ kind: 'bays', used: 2, allowed: 1, isOver: true });
    const [entry] = await query<{ details: any }>(`select details from audit_log where action = 'organization.plan_changed' and org_id = $1`, [org.orgId]);
    expect(entry!.details).toMatchObject({ to: { name: 'Small' }, overLimit: ['bays'], confirmedViolations: ['bays', 'bookings'] });
    // At the cap already: the admins hear of it once (100 %), and the portal is closed.
    expect(await capMails(org.orgId)).toEqual([{ percent: 100, recipients: [org.adminEmail] }]);
    expect((await availability(org.orgId)).body.isMonthFull).toBe(true);

    // A plan within every limit needs no confirmation.
    const [roomy] = await db.db.insert(plans).values({ name: 'Roomy', priceCents: 900, maxSites: 3, maxBays: 10, maxUsers: 10, maxBookingsPerMonth: 100 }).returning();
    expect((await call('PUT', url, superAdmin, { planId: roomy!.id })).status).toBe(200);
    expect((await availability(org.orgId)).body.isMonthFull).toBe(false);
  });
});
