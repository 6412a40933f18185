import { inflateSync } from 'node:zlib';
import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BILLING_SUPPORT_READ_ONLY,
  PAYMENT_REFERENCE_REQUIRED,
  PERIOD_INVALID,
  PERIOD_NOT_ENDED,
  PLAN_NAME_REQUIRED,
  PLAN_NAME_TAKEN,
  PLAN_RETIRED,
  WEBHOOKS_NOT_CONFIGURED,
  WEBHOOK_SIGNATURE_INVALID,
} from '../../../domain/billing';
import type { Session } from '../../../domain/auth-schemas';
import { billing, invoices, orgInvitations, plans } from '../../db/schema';
import { issueMonthlyInvoices } from '../../jobs/monthly-invoices';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { issueInvoices } from './invoice-run.service';

// Plans, an organization's plan, invoices (the monthly run, by hand, the PDF, paid by hand or by
// Stripe's signed webhook) and revenue, on a hand-made platform frozen at Monday 2026-11-23 09:00 UTC.

const NOW = new Date('2026-11-23T09:00:00Z');
const DAY = 86_400_000;
const WEBHOOK_SECRET = 'whsec_test_baywise_billing';
const MISSING = '00000000-0000-4000-8000-000000000000';

describe.each(databaseKinds)('billing API on %s', (kind) => {
  let t: TestApp;
  let alpha: { id: string; name: string };
  let bravo: { id: string };
  let charlie: { id: string };
  let delta: { id: string };
  let starter: { id: string };
  let pro: { id: string };
  let retired: { id: string };
  let superSession: Session;
  let supportSession: Session;
  let memberSession: Session;

  type Res = { status: number; body: any; headers: Record<string, unknown>; raw: Buffer };
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, session?: Session, payload?: unknown): Promise<Res> => {
    const response = await t.app.inject({ method, url, headers: session ? bearer(session) : {}, ...(payload !== undefined ? { payload: payload as never } : {}) });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body, headers: response.headers, raw: response.rawPayload };
  };
  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const auditCount = async (action: string) => Number((await query<{ n: number }>(`select count(*)::int as n from audit_log where action = $1`, [action]))[0]!.n);
  const invoiceOf = async (orgId: string, period: string) =>
    (await query<{ id: string; number: string; status: string; amount_due: string | number }>(`select id, number, status, amount_due from invoices where org_id = $1 and period_key = $2`, [orgId, period]))[0];

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW, env: { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET } });
    const database = t.ctx.database;
    const { db } = database;
    alpha = await createOrg(database, { name: 'Alpha Freight', contactEmail: 'accounts@alpha.example', address: '1 Quay St', createdAt: new Date('2026-01-10T00:00:00Z') });
    bravo = await createOrg(database, { name: 'Bravo Cold Chain', status: 'suspended', createdAt: new Date('2026-02-01T00:00:00Z') });
    charlie = await createOrg(database, { name: 'Charlie Docks', createdAt: new Date('2026-03-01T00:00:00Z') });
    // Joined in November: nothing to invoice for October.
    delta = await createOrg(database, { name: 'Delta Depot', createdAt: new Date('2026-11-05T00:00:00Z') });

    const site = await createSite(database, alpha.id, { name: 'Alpha North' });
    await createBay(database, site, { name: 'A-1' });
    await createBay(database, site, { name: 'A-2' });
    await createBay(database, site, { name: 'A-3', active: false });
    await createSite(database, alpha.id, { name: 'Alpha Old', active: false });

    await createUser(database, { email: 'super@platform.example', platformRole: 'super_admin' });
    await createUser(database, { email: 'support@platform.example', platformRole: 'platform_support' });
    const admin = await createUser(database, { email: 'admin@alpha.example' });
    await addMember(database, alpha.id, admin.id, 'org_admin');
    const dock = await createUser(database, { email: 'dock@alpha.example' });
    await addMember(database, alpha.id, dock.id, 'dockmaster', { employeeId: 'D-1' });
    await db.insert(orgInvitations).values({ orgId: alpha.id, email: 'new@alpha.example', role: 'dockmaster', tokenHash: 'hash-1', expiresAt: new Date(NOW.getTime() + 7 * DAY) });

    [starter, pro, retired] = await db
      .insert(plans)
      .values([
        { name: 'Starter', priceCents: 9900, maxSites: 1, maxBays: 10, maxUsers: 10, maxBookingsPerMonth: 500 },
        { name: 'Pro', priceCents: 29900, maxSites: 5, maxBays: 60, maxUsers: 50 },
        { name: 'Legacy', priceCents: 4900, active: false },
      ])
      .returning();
    const [free] = await db.insert(plans).values({ name: 'Free', priceCents: 0 }).returning();
    await db.insert(billing).values([
      { orgId: alpha.id, planId: starter!.id },
      { orgId: bravo.id, planId: pro!.id },
      { orgId: delta.id, planId: pro!.id },
      { orgId: charlie.id, planId: free!.id },
    ]);

    superSession = await signIn(t.app, 'super@platform.example');
    supportSession = await signIn(t.app, 'support@platform.example');
    memberSession = await signIn(t.app, 'admin@alpha.example');
  });
  afterAll(() => t.close());

  describe('who may call', () => {
    const reads = () => [
      '/api/platform/plans',
      '/api/platform/invoices',
      '/api/platform/revenue',
      `/api/platform/organizations/${alpha.id}/plan`,
      `/api/platform/invoices/${MISSING}/pdf`,
    ];
    const writes = (): [method: 'POST' | 'PUT' | 'PATCH', url: string, body: object][] => [
      ['POST', '/api/platform/plans', { name: 'Sneaky', priceUsd: 1, maxSites: null, maxBays: null, maxMembers: null, maxBookingsPerMonth: null }],
      ['PATCH', `/api/platform/plans/${starter.id}`, { priceUsd: 0 }],
      ['PUT', `/api/platform/organizations/${alpha.id}/plan`, { planId: pro.id }],
      ['POST', '/api/platform/invoices/issue', { period: '2026-10' }],
      ['POST', `/api/platform/invoices/${MISSING}/mark-paid`, { reference: 'x' }],
      ['POST', `/api/platform/invoices/${MISSING}/void`, { reason: 'x' }],
    ];

    it('answers 401 to anonymous callers and 403 to organization members on every route, before reading the body', async () => {
      for (const url of reads()) {
        expect((await call('GET', url)).status, url).toBe(401);
        const refused = await call('GET', url, memberSession);
        expect(refused.status, url).toBe(403);
        expect(refused.body.error.message).toBe('Platform administrator access required');
      }
      for (const [method, url] of writes()) {
        expect((await call(method, url, undefined, {})).status, url).toBe(401);
        expect((await call(method, url, memberSession, {})).status, url).toBe(403);
      }
    });

    it('lets platform support read everything and change nothing', async () => {
      for (const url of reads().slice(0, 4)) expect((await call('GET', url, supportSession)).status, url).toBe(200);
      expect((await call('GET', '/api/platform/plans', supportSession)).body.canManage).toBe(false);
      const auditBefore = Number((await query<{ n: number }>(`select count(*)::int as n from audit_log`))[0]!.n);
      for (const [method, url, body] of writes()) {
        const res = await call(method, url, supportSession, body);
        expect(res.status, url).toBe(403);
        expect(res.body.error.message).toBe(BILLING_SUPPORT_READ_ONLY);
      }
      expect(Number((await query<{ n: number }>(`select count(*)::int as n from audit_log`))[0]!.n)).toBe(auditBefore);
      expect(await query(`select name from plans where name = 'Sneaky'`)).toEqual([]);
    });
  });

  describe('plans', () => {
    const valid = { name: 'Growth', description: 'For growing depots', priceUsd: 149.5, maxSites: 3, maxBays: 30, maxMembers: 25, maxBookingsPerMonth: null, features: ['Reports'] };

    it('lists every plan with its price, limits and the organizations on it', async () => {
      const res = await call('GET', '/api/platform/plans', superSession);
      expect(res.status).toBe(200);
      expect(res.body.canManage).toBe(true);
      const byName = Object.fromEntries(res.body.items.map((p: { name: string }) => [p.name, p]));
      expect(byName.Starter).toMatchObject({ priceUsd: 99, currency: 'USD', limits: { sites: 1, bays: 10, members: 10, bookings: 500 }, organizations: 1, overLimit: [] });
      expect(byName.Pro).toMatchObject({ priceUsd: 299, limits: { bookings: null }, organizations: 2 });
      // Retired plans come last.
      expect(res.body.items.at(-1).name).toBe('Legacy');
    });

    it('creates a plan (audited) and refuses bad input with clear messages, changing nothing', async () => {
      const created = await call('POST', '/api/platform/plans', superSession, valid);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'Growth', priceUsd: 149.5, limits: { sites: 3, bays: 30, members: 25, bookings: null }, active: true, organizations: 0 });
      expect(await auditCount('plan.created')).toBe(1);

      const bad: [object, string][] = [
        [{ ...valid, name: '  ' }, PLAN_NAME_REQUIRED],
        [{ ...valid, name: 'growth' }, PLAN_NAME_TAKEN],
        [{ ...valid, name: 'Neg', priceUsd: -1 }, 'Monthly price cannot be negative'],
        [{ ...valid, name: 'Fraction', priceUsd: 9.999 }, 'Monthly price must be in whole cents'],
        [{ ...valid, name: 'Half', maxSites: 1.5 }, 'Sites limit must be a whole number, or empty for unlimited'],
        [{ ...valid, name: 'Minus', maxBays: -2 }, 'Bays limit cannot be negative'],
        [{ ...valid, name: 'Text', maxMembers: 'ten' }, 'Members limit must be a whole number, or empty for unlimited'],
        [{ ...valid, name: 'Line\nbreak' }, 'Plan name contains characters that are not allowed (control characters or line breaks)'],
      ];
      for (const [body, message] of bad) {
        const res = await call('POST', '/api/platform/plans', superSession, body);
        expect(res.status, message).toBe(400);
        expect(res.body.error.message).toContain(message);
      }
      expect(Number((await query<{ n: number }>(`select count(*)::int as n from plans`))[0]!.n)).toBe(5);
      expect(await auditCount('plan.created')).toBe(1);
    });

    it('updates a plan; a limit below an organization’s use is allowed and flagged', async () => {
      // Alpha on Starter: 1 active site (its bays: 2 active), 2 members + 1 pending invitation.
      const res = await call('PATCH', `/api/platform/plans/${starter.id}`, superSession, { maxBays: 1, maxMembers: 2, description: 'Small depots' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ description: 'Small depots', limits: { bays: 1, members: 2 } });
      expect(res.body.overLimit).toEqual([
        { orgId: alpha.id, orgName: 'Alpha Freight', kind: 'bays', used: 2, allowed: 1 },
        { orgId: alpha.id, orgName: 'Alpha Freight', kind: 'members', used: 3, allowed: 2 },
      ]);
      const [entry] = await query<{ details: any }>(`select details from audit_log where action = 'plan.updated'`);
      expect(entry!.details.changes).toEqual({ maxBays: { from: 10, to: 1 }, maxUsers: { from: 10, to: 2 }, description: { from: null, to: 'Small depots' } });
      // The list flags it too; the same values again change nothing (no second entry).
      const list = await call('GET', '/api/platform/plans', superSession);
      expect(list.body.items.find((p: { id: string }) => p.id === starter.id).overLimit).toHaveLength(2);
      expect((await call('PATCH', `/api/platform/plans/${starter.id}`, superSession, { maxBays: 1 })).status).toBe(200);
      expect(await auditCount('plan.updated')).toBe(1);
      // Back to the original limits for what follows.
      expect((await call('PATCH', `/api/platform/plans/${starter.id}`, superSession, { maxBays: 10, maxMembers: 10 })).body.overLimit).toEqual([]);
    });

    it('answers 404 for unknown or malformed plan ids and 400 for nothing to change', async () => {
      for (const id of [MISSING, 'not-a-uuid', "1' or '1'='1"]) {
        const res = await call('PATCH', `/api/platform/plans/${encodeURIComponent(id)}`, superSession, { priceUsd: 1 });
        expect(res.status, id).toBe(404);
        expect(res.body.error.message).toBe('Plan not found');
      }
      const empty = await call('PATCH', `/api/platform/plans/${starter.id}`, superSession, {});
      expect(empty.status).toBe(400);
      expect(empty.body.error.message).toContain('Nothing to change');
    });
  });

  describe("an organization's plan", () => {
    it('shows the plan, the use against each limit and the plans it may be put on', async () => {
      const res = await call('GET', `/api/platform/organizations/${alpha.id}/plan`, superSession);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ orgId: alpha.id, orgName: 'Alpha Freight', plan: { id: starter.id, name: 'Starter' }, billingStatus: 'active', canManage: true });
      expect(res.body.usage).toEqual([
        { kind: 'sites', used: 1, allowed: 1, isOver: false },
        { kind: 'bays', used: 2, allowed: 10, isOver: false },
        { kind: 'members', used: 3, allowed: 10, isOver: false },
        { kind: 'bookings', used: 0, allowed: 500, isOver: false },
      ]);
      expect(res.body.plans.map((p: { name: string }) => p.name)).not.toContain('Legacy');
      for (const id of [MISSING, 'nope']) {
        const missing = await call('GET', `/api/platform/organizations/${id}/plan`, superSession);
        expect(missing.status).toBe(404);
        expect(missing.body.error.message).toBe('Organization not found');
      }
    });

    it('puts an organization on a plan (audited), flags limits below its use, and refuses a retired or unknown plan', async () => {
      const [tiny] = await t.ctx.database.db.insert(plans).values({ name: 'Tiny', priceCents: 1000, maxSites: 0 }).returning();
      const moved = await call('PUT', `/api/platform/organizations/${charlie.id}/plan`, superSession, { planId: tiny!.id });
      expect(moved.status).toBe(200);
      expect(moved.body.plan).toMatchObject({ name: 'Tiny', priceUsd: 10 });
      // Alpha has a site and Tiny allows none: refused until confirmed (issue 22 item 13, booking-cap.test.ts).
      const unconfirmed = await call('PUT', `/api/platform/organizations/${alpha.id}/plan`, superSession, { planId: tiny!.id });
      expect(unconfirmed.status).toBe(409);
      expect(unconfirmed.body.error.details.violations).toEqual([expect.objectContaining({ kind: 'sites', used: 1, allowed: 0 })]);
      const onTiny = await call('PUT', `/api/platform/organizations/${alpha.id}/plan`, superSession, { planId: tiny!.id, confirm: true });
      expect(onTiny.body.usage.find((u: { kind: string }) => u.kind === 'sites')).toEqual({ kind: 'sites', used: 1, allowed: 0, isOver: true });
      const [entry] = await query<{ details: any; org_id: string; actor_email: string }>(
        `select details, org_id, actor_email from audit_log where action = 'organization.plan_changed' and org_id = $1`,
        [alpha.id],
      );
      expect(entry).toMatchObject({ org_id: alpha.id, actor_email: 'super@platform.example', details: { from: { name: 'Starter' }, to: { name: 'Tiny' }, overLimit: ['sites'] } });

      const retiredRes = await call('PUT', `/api/platform/organizations/${alpha.id}/plan`, superSession, { planId: retired.id });
      expect(retiredRes.status).toBe(409);
      expect(retiredRes.body.error.message).toBe(PLAN_RETIRED);
      const unknown = await call('PUT', `/api/platform/organizations/${alpha.id}/plan`, superSession, { planId: MISSING });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.message).toBe('Plan not found');
      expect((await call('PUT', `/api/platform/organizations/${alpha.id}/plan`, superSession, { planId: 'x' })).status).toBe(400);
      expect((await call('PUT', `/api/platform/organizations/${MISSING}/plan`, superSession, { planId: starter.id })).status).toBe(404);

      // Back on Starter; the same plan again writes nothing.
      await call('PUT', `/api/platform/organizations/${alpha.id}/plan`, superSession, { planId: starter.id });
      const before = await auditCount('organization.plan_changed');
      expect((await call('PUT', `/api/platform/organizations/${alpha.id}/plan`, superSession, { planId: starter.id })).status).toBe(200);
      expect(await auditCount('organization.plan_changed')).toBe(before);
      // No plan at all: unlimited and not invoiced.
      const none = await call('PUT', `/api/platform/organizations/${charlie.id}/plan`, superSession, { planId: null });
      expect(none.body).toMatchObject({ plan: null });
      expect(none.body.usage.every((u: { allowed: number | null }) => u.allowed === null)).toBe(true);
    });
  });

  describe('the monthly invoices', () => {
    it('refuses a month that has not ended, or is malformed', async () => {
      const current = await call('POST', '/api/platform/invoices/issue', superSession, { period: '2026-11' });
      expect(current.status).toBe(400);
      expect(current.body.error.message).toBe(PERIOD_NOT_ENDED);
      for (const period of ['2026-13', '202610', 'October']) {
        const res = await call('POST', '/api/platform/invoices/issue', superSession, { period });
        expect(res.status, period).toBe(400);
        expect(res.body.error.message).toContain(PERIOD_INVALID);
      }
      expect(await query(`select id from invoices`)).toEqual([]);
    });

    it('issues each paying organization its invoice once, with line items, USD and a due date (run twice: one)', async () => {
      const first = await call('POST', '/api/platform/invoices/issue', superSession, { period: '2026-10' });
      expect(first.status).toBe(200);
      // Alpha (Starter) only: Bravo is suspended, Charlie has no plan, Delta joined in November.
      expect(first.body).toEqual({ period: '2026-10', issued: 1, alreadyIssued: 0, skipped: [{ orgId: bravo.id, orgName: 'Bravo Cold Chain', reason: 'Suspended' }] });
      const [row] = await t.ctx.database.db.select().from(invoices);
      expect(row).toMatchObject({
        orgId: alpha.id,
        planId: starter.id,
        periodKey: '2026-10',
        status: 'open',
        currency: 'USD',
        periodStart: new Date('2026-10-01T00:00:00Z'),
        periodEnd: new Date('2026-11-01T00:00:00Z'),
        issuedAt: NOW,
        dueAt: new Date(NOW.getTime() + 14 * DAY),
        lineItems: [{ description: 'Starter plan — October 2026', quantity: 1, unitAmount: '99.00', amount: '99.00' }],
      });
      expect(Number(row!.amountDue)).toBe(99);
      expect(row!.number).toMatch(/^INV-202610-\d{6}$/);
      // Its current billing period is now November (it ends on 1 December).
      const [period] = await t.ctx.database.db.select({ end: billing.currentPeriodEnd }).from(billing).where(eq(billing.orgId, alpha.id));
      expect(period!.end).toEqual(new Date('2026-12-01T00:00:00Z'));
      const [issued] = await query<{ actor_email: string; org_id: string; details: any }>(`select actor_email, org_id, details from audit_log where action = 'invoice.issued'`);
      expect(issued).toMatchObject({ actor_email: 'super@platform.example', org_id: alpha.id, details: { number: row!.number, period: '2026-10', amountUsd: 99 } });

      const second = await call('POST', '/api/platform/invoices/issue', superSession, { period: '2026-10' });
      expect(second.body).toMatchObject({ issued: 0, alreadyIssued: 1 });
      expect(await query(`select id from invoices`)).toHaveLength(1);
      expect(await auditCount('invoice.issued')).toBe(1);
      expect(await auditCount('invoices.issue_run')).toBe(2);
    });

    it('issues one invoice per organization and month when runs overlap (two nodes at once)', async () => {
      const runs = await Promise.all([0, 1, 2].map(() => issueInvoices(t.ctx, '2026-09', null)));
      expect(runs.reduce((sum, r) => sum + r.issued, 0)).toBe(1);
      expect(runs.reduce((sum, r) => sum + r.alreadyIssued, 0)).toBe(2);
      expect(await query(`select id from invoices where period_key = '2026-09'`)).toHaveLength(1);
      const [entry] = await query<{ actor_role: string; actor_id: string | null }>(
        `select actor_role, actor_id from audit_log where action = 'invoice.issued' and details->>'period' = '2026-09'`,
      );
      expect(entry).toEqual({ actor_role: 'system', actor_id: null });
    });

    it('runs on the 1st for the month that just ended', async () => {
      t.clock.set('2026-12-01T00:10:00Z');
      try {
        const result = await issueMonthlyInvoices(t.ctx);
        expect(result).toMatchObject({ period: '2026-11', issued: 2 }); // Alpha, and Delta (joined in November)
        expect((await issueMonthlyInvoices(t.ctx)).issued).toBe(0);
        // Delta joined on 5 November: 26 of November's 30 days of Pro's $299.
        const [deltaInvoice] = await t.ctx.database.db.select().from(invoices).where(eq(invoices.orgId, delta.id));
        expect(deltaInvoice!.lineItems).toEqual([{ description: 'Pro plan — November 2026, from 5 November: 26 of 30 days', quantity: 1, unitAmount: '259.13', amount: '259.13' }]);
        expect(Number(deltaInvoice!.amountDue)).toBe(259.13);
        expect(deltaInvoice!.issuedAt).toEqual(new Date('2026-12-01T00:10:00Z'));
      } finally {
        t.clock.set(NOW);
      }
      await query(`delete from invoices where period_key = '2026-11'`);
    });
  });

  describe('invoices', () => {
    it('lists invoices newest first, filtered by status and organization, a page at a time', async () => {
      const all = await call('GET', '/api/platform/invoices', superSession);
      expect(all.status).toBe(200);
      expect(all.body.total).toBe(2);
      expect(all.body.items.map((i: { periodKey: string }) => i.periodKey)).toEqual(['2026-10', '2026-09']);
      expect(all.body.items[0]).toMatchObject({ orgName: 'Alpha Freight', planName: 'Starter', amountDue: 99, amountPaid: 0, isOverdue: false, lineItems: [{ unitAmount: 99, amount: 99 }] });
      const page = await call('GET', '/api/platform/invoices?pageSize=1&page=2', superSession);
      expect(page.body).toMatchObject({ total: 2, items: [{ periodKey: '2026-09' }] });
      expect((await call('GET', `/api/platform/invoices?status=paid`, superSession)).body.total).toBe(0);
      expect((await call('GET', `/api/platform/invoices?orgId=${bravo.id}`, superSession)).body.total).toBe(0);
      expect((await call('GET', `/api/platform/invoices?status=late`, superSession)).status).toBe(400);
      for (const id of [MISSING, 'bad']) expect((await call('GET', `/api/platform/invoices?orgId=${id}`, superSession)).status).toBe(404);
    });

    it('marks an invoice paid by hand (audited, counted as revenue) and refuses it twice with 409', async () => {
      const invoice = (await invoiceOf(alpha.id, '2026-10'))!;
      const empty = await call('POST', `/api/platform/invoices/${invoice.id}/mark-paid`, superSession, { reference: ' ' });
      expect(empty.status).toBe(400);
      expect(empty.body.error.message).toBe(PAYMENT_REFERENCE_REQUIRED);

      const paid = await call('POST', `/api/platform/invoices/${invoice.id}/mark-paid`, superSession, { reference: 'Bank transfer 7781' });
      expect(paid.status).toBe(200);
      expect(paid.body).toMatchObject({ status: 'paid', amountPaid: 99, paidAt: NOW.toISOString(), paymentMethod: 'manual', paymentRef: 'Bank transfer 7781' });
      const [entry] = await query<{ org_id: string; details: any }>(`select org_id, details from audit_log where action = 'invoice.marked_paid'`);
      expect(entry).toMatchObject({ org_id: alpha.id, details: { number: invoice.number, amountUsd: 99, reference: 'Bank transfer 7781' } });

      const again = await call('POST', `/api/platform/invoices/${invoice.id}/mark-paid`, superSession, { reference: 'Twice' });
      expect(again.status).toBe(409);
      expect(again.body.error.message).toBe(`Invoice ${invoice.number} is already paid`);
      expect(await auditCount('invoice.marked_paid')).toBe(1);
      for (const id of [MISSING, 'not-an-id']) {
        const res = await call('POST', `/api/platform/invoices/${id}/mark-paid`, superSession, { reference: 'x' });
        expect(res.status).toBe(404);
        expect(res.body.error.message).toBe('Invoice not found');
      }

      // The dashboard's revenue card and the revenue chart count the same payment.
      const stats = await call('GET', '/api/platform/stats?days=7', superSession);
      expect(stats.body.revenueUsd).toBe(99);
      const revenue = await call('GET', '/api/platform/revenue', superSession);
      expect(revenue.status).toBe(200);
      expect(revenue.body.months).toHaveLength(12);
      expect(revenue.body.months[0]).toMatchObject({ month: '2025-12', revenueUsd: 0 });
      expect(revenue.body.months.at(-1)).toEqual({ month: '2026-11', label: 'November 2026', revenueUsd: 99, invoicesPaid: 1 });
      expect(revenue.body).toMatchObject({ totalUsd: 99, outstandingUsd: 99, openInvoices: 1 });
    });

    it('voids an open invoice with a reason; a paid one cannot be voided, a void one cannot be paid', async () => {
      const paid = (await invoiceOf(alpha.id, '2026-10'))!;
      const open = (await invoiceOf(alpha.id, '2026-09'))!;
      const refused = await call('POST', `/api/platform/invoices/${paid.id}/void`, superSession, { reason: 'Mistake' });
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe(`Invoice ${paid.number} is paid and cannot be voided`);
      const voided = await call('POST', `/api/platform/invoices/${open.id}/void`, superSession, { reason: 'Waived: onboarding month' });
      expect(voided.status).toBe(200);
      expect(voided.body.status).toBe('void');
      expect(await auditCount('invoice.voided')).toBe(1);
      const payVoid = await call('POST', `/api/platform/invoices/${open.id}/mark-paid`, superSession, { reference: 'x' });
      expect(payVoid.status).toBe(409);
      expect(payVoid.body.error.message).toBe(`Invoice ${open.number} is void and cannot be paid`);
      await query(`update invoices set status = 'open' where id = $1`, [open.id]);
    });

    it('downloads an invoice as a PDF named after its number', async () => {
      const invoice = (await invoiceOf(alpha.id, '2026-10'))!;
      const res = await call('GET', `/api/platform/invoices/${invoice.id}/pdf`, supportSession);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${invoice.number}.pdf"`);
      expect(res.raw.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(res.raw.length).toBeGreaterThan(1000);
      for (const id of [MISSING, 'x']) expect((await call('GET', `/api/platform/invoices/${id}/pdf`, superSession)).status).toBe(404);
    });

    it('prints the seller’s name, address, tax number and payment instructions from the platform settings', async () => {
      const invoice = (await invoiceOf(alpha.id, '2026-10'))!;
      const before = await query<{ value: unknown }>(`select value from platform_settings where key = 'platform.config'`);
      await query(
        `insert into platform_settings (key, value) values ('platform.config', $1::jsonb)
         on conflict (key) do update set value = platform_settings.value || excluded.value`,
        [JSON.stringify({
          sellerName: 'Baywise Pty Ltd',
          sellerAddress: 'Level 5, 1 Harbour Street\nSydney NSW 2000',
          sellerTaxNumber: 'ABN 12 345 678 901',
          paymentInstructions: 'Pay by bank transfer to BSB 062-000, account 1234 5678, quoting the invoice number.',
        })],
      );
      try {
        const res = await call('GET', `/api/platform/invoices/${invoice.id}/pdf`, superSession);
        expect(res.status).toBe(200);
        const text = pdfText(res.raw);
        for (const expected of ['Baywise Pty Ltd', 'Level 5, 1 Harbour Street', 'Sydney NSW 2000', 'Tax number: ABN 12 345 678 901', 'How to pay', 'BSB 062-000, account 1234 5678']) {
          expect(text).toContain(expected);
        }
      } finally {
        if (before[0]) await query(`update platform_settings set value = $1::jsonb where key = 'platform.config'`, [JSON.stringify(before[0].value)]);
        else await query(`delete from platform_settings where key = 'platform.config'`);
      }
      // Without seller settings: the platform's name, and no empty "How to pay".
      const plain = pdfText((await call('GET', `/api/platform/invoices/${invoice.id}/pdf`, superSession)).raw);
      expect(plain).toContain('Baywise');
      expect(plain).not.toContain('How to pay');
    });
  });

  describe('the Stripe webhook', () => {
    const stripeEvent = (id: string, type: string, object: Record<string, unknown>) =>
      JSON.stringify({ id, object: 'event', type, data: { object } });
    const deliver = (payload: string, signature?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/billing/stripe/webhook',
        headers: { 'content-type': 'application/json', ...(signature !== undefined ? { 'stripe-signature': signature } : {}) },
        payload,
      });
    const sign = (payload: string, secret = WEBHOOK_SECRET, at = NOW) =>
      Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(at.getTime() / 1000) });
    const stateOf = async (id: string) =>
      (await query<{ status: string; payment_method: string | null; payment_ref: string | null }>(`select status, payment_method, payment_ref from invoices where id = $1`, [id]))[0]!;

    it('marks the invoice paid on a correctly signed invoice.paid, once: a replay changes nothing', async () => {
      const open = (await invoiceOf(alpha.id, '2026-09'))!;
      const payload = stripeEvent('evt_paid_1', 'invoice.paid', { object: 'invoice', id: 'in_1', amount_paid: 9900, currency: 'usd', metadata: { baywise_invoice_id: open.id } });
      const res = await deliver(payload, sign(payload));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ received: true, applied: true, duplicate: false, invoiceId: open.id });
      expect(await stateOf(open.id)).toEqual({ status: 'paid', payment_method: 'stripe', payment_ref: 'evt_paid_1' });
      const [entry] = await query<{ actor_role: string; actor_id: string | null; org_id: string; details: any }>(
        `select actor_role, actor_id, org_id, details from audit_log where action = 'invoice.paid'`,
      );
      expect(entry).toMatchObject({ actor_role: 'system', actor_id: null, org_id: alpha.id, details: { method: 'stripe', eventId: 'evt_paid_1' } });

      const replay = await deliver(payload, sign(payload));
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toMatchObject({ applied: false, duplicate: true });
      expect(await auditCount('invoice.paid')).toBe(1);
      await query(`update invoices set status = 'open', paid_at = null, amount_paid = 0, payment_method = null, payment_ref = null where id = $1`, [open.id]);
    });

    it('refuses a forged, altered, stale or unsigned delivery with 400 and changes nothing', async () => {
      const open = (await invoiceOf(alpha.id, '2026-09'))!;
      const payload = stripeEvent('evt_forged', 'payment_intent.succeeded', { object: 'payment_intent', amount_received: 9900, currency: 'usd', metadata: { baywise_invoice_id: open.id } });
      const altered = payload.replace('9900', '1');
      const attempts = [
        sign(payload, 'whsec_someone_else'),
        sign(payload).replace(/v1=[0-9a-f]+/, `v1=${'0'.repeat(64)}`),
        sign(payload, WEBHOOK_SECRET, new Date(NOW.getTime() - 10 * 60_000)), // older than Stripe's 5 minutes
        sign(payload, WEBHOOK_SECRET, new Date(NOW.getTime() + 10 * 60_000)), // 10 minutes ahead (issue 21): the tolerance holds both ways
        sign(payload, WEBHOOK_SECRET, new Date(NOW.getTime() + 5 * 60_000 + 1_000)),
        'garbage',
      ];
      for (const signature of attempts) {
        const res = await deliver(payload, signature);
        expect(res.statusCode, signature).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'invalid_signature', message: WEBHOOK_SIGNATURE_INVALID });
      }
      expect((await deliver(altered, sign(payload))).statusCode).toBe(400);
      // Within 5 minutes either way it is accepted (clock drift).
      const ahead = stripeEvent('evt_ahead', 'customer.created', { object: 'customer' });
      expect((await deliver(ahead, sign(ahead, WEBHOOK_SECRET, new Date(NOW.getTime() + 4 * 60_000)))).statusCode).toBe(200);
      const unsigned = await deliver(payload);
      expect(unsigned.statusCode).toBe(400);
      expect(unsigned.json().error.message).toContain(WEBHOOK_SIGNATURE_INVALID);
      expect((await stateOf(open.id)).status).toBe('open');
      expect(await query(`select event_id from payment_webhook_events where event_id = 'evt_forged'`)).toEqual([]);
    });

    it('answers 404 for an invoice it does not have, records nothing, and accepts later deliveries of that id', async () => {
      for (const [id, invoiceId] of [['evt_unknown', MISSING], ['evt_malformed', 'in_not_ours']] as const) {
        const payload = stripeEvent(id, 'checkout.session.completed', { object: 'checkout.session', payment_status: 'paid', amount_total: 9900, currency: 'usd', metadata: { baywise_invoice_id: invoiceId } });
        const res = await deliver(payload, sign(payload));
        expect(res.statusCode).toBe(404);
        expect(res.json().error.message).toBe('Invoice not found');
        expect(await query(`select event_id from payment_webhook_events where event_id = $1`, [id])).toEqual([]);
      }
    });

    it('acknowledges other events and does not apply a short or foreign-currency payment', async () => {
      const open = (await invoiceOf(alpha.id, '2026-09'))!;
      const other = stripeEvent('evt_other', 'customer.created', { object: 'customer' });
      expect((await deliver(other, sign(other))).json()).toMatchObject({ applied: false, message: 'Event type customer.created is not used' });
      const short = stripeEvent('evt_short', 'payment_intent.succeeded', { amount_received: 5000, currency: 'usd', metadata: { baywise_invoice_id: open.id } });
      expect((await deliver(short, sign(short))).json()).toMatchObject({ applied: false });
      const euros = stripeEvent('evt_eur', 'payment_intent.succeeded', { amount_received: 9900, currency: 'eur', metadata: { baywise_invoice_id: open.id } });
      expect((await deliver(euros, sign(euros))).json()).toMatchObject({ applied: false });
      expect((await stateOf(open.id)).status).toBe('open');
    });

    it('answers 503 when no webhook secret is configured', async () => {
      const bare = await createTestApp(kind, { now: NOW });
      try {
        const payload = stripeEvent('evt_x', 'invoice.paid', {});
        const res = await bare.app.inject({ method: 'POST', url: '/api/billing/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': sign(payload) }, payload });
        expect(res.statusCode).toBe(503);
        expect(res.json().error.message).toBe(WEBHOOKS_NOT_CONFIGURED);
      } finally {
        await bare.close();
      }
    });
  });
});

/**
 * The text a pdfkit PDF shows: its content streams inflated, the hex strings of the text
 * operators decoded (pdfkit writes standard-font text as hex, split where it kerns).
 */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const parts: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(match[1]!, 'latin1')).toString('latin1');
    } catch {
      content = match[1]!;
    }
    for (const line of content.split('\n')) {
      if (!/T[Jj]\s*$/.test(line)) continue;
      parts.push([...line.matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => Buffer.from(m[1]!, 'hex').toString('latin1')).join(''));
    }
  }
  return parts.join('\n');
}
