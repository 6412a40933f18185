import {
  BILLING_SUPPORT_READ_ONLY,
  INVOICE_CURRENCY,
  INVOICE_DUE_DAYS,
  PERIOD_NOT_ENDED,
  PLAN_LIMIT_KINDS,
  PLAN_NAME_TAKEN,
  PLAN_RETIRED,
  REVENUE_MONTHS,
  amountToCents,
  canManageBilling,
  invoiceAlreadyPaid,
  invoiceAlreadyVoid,
  invoiceIsVoid,
  invoicePaidCannotVoid,
  isOverdue,
  lastMonths,
  periodBounds,
  periodLabel,
  subscriptionLine,
  type Invoice,
  type InvoiceList,
  type IssueInvoicesResult,
  type OrganizationBilling,
  type Plan,
  type PlanList,
  type Revenue,
  type planInputSchema,
  type planUpdateSchema,
} from '../../../domain/billing';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { plans } from '../../db/schema';
import type { AuthContext } from '../../plugins/auth';
import { badRequest, conflict, forbidden, notFound } from '../../plugins/errors';
import { writeAudit, type AuditActor } from '../audit/audit.service';
import * as repo from './billing.repo';
import { invoiceFileName, renderInvoicePdf } from './invoice-pdf';

// Plans, organizations' plans, invoices and revenue for the platform's administrators (issue 12;
// docs/decisions/022-billing.md). Every platform role reads; super admins and platform owners
// write. Every write is one transaction with its audit entry.

const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const iso = (at: Date | null) => (at ? at.toISOString() : null);
const actorOf = (auth: AuthContext): AuditActor => ({ id: auth.user.id, email: auth.user.email, role: auth.user.platformRole });

function requireManager(auth: AuthContext): void {
  if (!canManageBilling(auth.user.platformRole)) throw forbidden(BILLING_SUPPORT_READ_ONLY);
}

function requireId(id: string, what: string): void {
  if (!UUID.test(id)) throw notFound(what);
}

const nameTaken = () => badRequest(PLAN_NAME_TAKEN, [{ path: 'name', message: PLAN_NAME_TAKEN }]);

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

// --- Plans --------------------------------------------------------------------------------------

function toPlan(row: repo.PlanRow, organizations: number, overLimit: repo.OverLimitRow[]): Plan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    priceUsd: row.priceCents / 100,
    currency: row.currency,
    interval: row.interval,
    limits: { sites: row.maxSites, bays: row.maxBays, members: row.maxUsers, bookings: row.maxBookingsPerMonth },
    features: row.features ?? [],
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    organizations,
    overLimit: overLimit
      .filter((o) => o.planId === row.id)
      .map(({ orgId, orgName, kind, used, allowed }) => ({ orgId, orgName, kind, used, allowed })),
  };
}

export async function listPlans(ctx: AppContext, auth: AuthContext): Promise<PlanList> {
  const { db } = ctx.database;
  const [rows, overLimit] = await Promise.all([repo.listPlans(db), repo.overLimitOrganizations(db, ctx.clock.now())]);
  return { items: rows.map((r) => toPlan(r.plan, r.organizations, overLimit)), canManage: canManageBilling(auth.user.platformRole) };
}

async function planView(ctx: AppContext, planId: string): Promise<Plan> {
  const { db } = ctx.database;
  const [rows, overLimit] = await Promise.all([repo.listPlans(db), repo.overLimitOrganizations(db, ctx.clock.now(), planId)]);
  const row = rows.find((r) => r.plan.id === planId);
  if (!row) throw notFound('Plan');
  return toPlan(row.plan, row.organizations, overLimit);
}

type PlanColumns = Partial<typeof plans.$inferInsert>;

/** The plan columns of the fields sent. */
function planColumns(input: Partial<z.output<typeof planInputSchema>>): PlanColumns {
  const columns: PlanColumns = {};
  if (input.name !== undefined) columns.name = input.name;
  if (input.description !== undefined) columns.description = input.description;
  if (input.priceUsd !== undefined) columns.priceCents = Math.round(input.priceUsd * 100);
  if (input.maxSites !== undefined) columns.maxSites = input.maxSites;
  if (input.maxBays !== undefined) columns.maxBays = input.maxBays;
  if (input.maxMembers !== undefined) columns.maxUsers = input.maxMembers;
  if (input.maxBookingsPerMonth !== undefined) columns.maxBookingsPerMonth = input.maxBookingsPerMonth;
  if (input.features !== undefined) columns.features = input.features;
  if (input.active !== undefined) columns.active = input.active;
  return columns;
}

async function withNameCheck<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export async function createPlan(ctx: AppContext, auth: AuthContext, input: z.output<typeof planInputSchema>, ip: string | null): Promise<Plan> {
  requireManager(auth);
  const now = ctx.clock.now();
  const id = await withNameCheck(() =>
    ctx.database.db.transaction(async (tx) => {
      if (await repo.findPlanNamed(tx, input.name)) throw nameTaken();
      const row = await repo.insertPlan(tx, { ...planColumns(input), name: input.name, currency: INVOICE_CURRENCY, interval: 'month', createdAt: now });
      await writeAudit(tx, {
        actor: actorOf(auth),
        action: 'plan.created',
        resourceType: 'plan',
        resourceId: row.id,
        details: {
          name: row.name,
          priceUsd: row.priceCents / 100,
          limits: { sites: row.maxSites, bays: row.maxBays, members: row.maxUsers, bookings: row.maxBookingsPerMonth },
          active: row.active,
        },
        ip,
      });
      return row.id;
    }),
  );
  return planView(ctx, id);
}

/** Changes the fields sent; a limit below some organization's use is allowed (they are flagged in the answer). */
export async function updatePlan(
  ctx: AppContext,
  auth: AuthContext,
  planId: string,
  input: z.output<typeof planUpdateSchema>,
  ip: string | null,
): Promise<Plan> {
  requireManager(auth);
  requireId(planId, 'Plan');
  await withNameCheck(() =>
    ctx.database.db.transaction(async (tx) => {
      const current = await repo.findPlan(tx, planId, true);
      if (!current) throw notFound('Plan');
      if (input.name !== undefined && (await repo.findPlanNamed(tx, input.name, planId))) throw nameTaken();
      const next = planColumns(input);
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      for (const [key, value] of Object.entries(next) as [keyof PlanColumns, unknown][]) {
        const before = current[key as keyof repo.PlanRow];
        if (JSON.stringify(before ?? null) !== JSON.stringify(value ?? null)) changes[key] = { from: before ?? null, to: value ?? null };
      }
      if (Object.keys(changes).length === 0) return;
      await repo.updatePlan(tx, planId, next);
      await writeAudit(tx, {
        actor: actorOf(auth),
        action: 'plan.updated',
        resourceType: 'plan',
        resourceId: planId,
        details: { name: next.name ?? current.name, changes },
        ip,
      });
    }),
  );
  return planView(ctx, planId);
}

// --- An organization's plan ---------------------------------------------------------------------

async function existingOrganization(ctx: AppContext, orgId: string) {
  requireId(orgId, 'Organization');
  const org = await repo.findOrganization(ctx.database.db, orgId);
  if (!org) throw notFound('Organization');
  return org;
}

export async function getOrganizationBilling(ctx: AppContext, auth: AuthContext, orgId: string): Promise<OrganizationBilling> {
  const org = await existingOrganization(ctx, orgId);
  const { db } = ctx.database;
  const now = ctx.clock.now();
  const [current, usage] = await Promise.all([repo.findBilling(db, orgId), repo.organizationUsage(db, orgId, now)]);
  const plan = current?.plan ?? null;
  const options = await repo.assignablePlans(db, plan?.id ?? null);
  const limits = plan ? { sites: plan.maxSites, bays: plan.maxBays, members: plan.maxUsers, bookings: plan.maxBookingsPerMonth } : null;
  return {
    orgId: org.id,
    orgName: org.name,
    plan: plan ? { id: plan.id, name: plan.name, priceUsd: plan.priceCents / 100, active: plan.active, limits: limits! } : null,
    billingStatus: current?.billing.status ?? null,
    usage: PLAN_LIMIT_KINDS.map((kind) => {
      const allowed = limits ? limits[kind] : null;
      return { kind, used: usage[kind], allowed, isOver: allowed !== null && usage[kind] > allowed };
    }),
    plans: options.map((p) => ({ id: p.id, name: p.name, priceUsd: p.priceCents / 100, active: p.active })),
    canManage: canManageBilling(auth.user.platformRole),
  };
}

/**
 * Puts the organization on `planId` (or on no plan: unlimited, not invoiced). A retired plan
 * cannot be chosen; a plan whose limits are below the organization's use can (the answer flags it).
 */
export async function assignPlan(ctx: AppContext, auth: AuthContext, orgId: string, planId: string | null, ip: string | null): Promise<OrganizationBilling> {
  requireManager(auth);
  const org = await existingOrganization(ctx, orgId);
  if (planId !== null) requireId(planId, 'Plan');
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    const current = await repo.findBilling(tx, orgId, true);
    const previous = current?.plan ?? null;
    if ((previous?.id ?? null) === planId) return;
    const next = planId ? await repo.findPlan(tx, planId) : null;
    if (planId && !next) throw notFound('Plan');
    if (next && !next.active) throw conflict('plan_retired', PLAN_RETIRED);
    await repo.setOrganizationPlan(tx, orgId, planId, now);
    const usage = next ? await repo.organizationUsage(tx, orgId, now) : null;
    const limits = next ? { sites: next.maxSites, bays: next.maxBays, members: next.maxUsers, bookings: next.maxBookingsPerMonth } : null;
    const overLimit = limits && usage ? PLAN_LIMIT_KINDS.filter((kind) => limits[kind] !== null && usage[kind] > limits[kind]!) : [];
    await writeAudit(tx, {
      actor: actorOf(auth),
      action: 'organization.plan_changed',
      resourceType: 'organization',
      resourceId: orgId,
      orgId,
      details: {
        name: org.name,
        from: previous ? { id: previous.id, name: previous.name } : null,
        to: next ? { id: next.id, name: next.name } : null,
        overLimit,
      },
      ip,
    });
  });
  return getOrganizationBilling(ctx, auth, orgId);
}

// --- Invoices -----------------------------------------------------------------------------------

function toInvoice(row: repo.InvoiceRow, now: Date): Invoice {
  const i = row.invoice;
  const dueAt = iso(i.dueAt);
  return {
    id: i.id,
    number: i.number,
    orgId: i.orgId,
    orgName: row.orgName,
    planName: row.planName,
    status: i.status,
    currency: i.currency,
    amountDue: Number(i.amountDue),
    amountPaid: Number(i.amountPaid),
    periodKey: i.periodKey,
    periodStart: iso(i.periodStart),
    periodEnd: iso(i.periodEnd),
    issuedAt: i.issuedAt.toISOString(),
    dueAt,
    paidAt: iso(i.paidAt),
    paymentMethod: i.paymentMethod,
    paymentRef: i.paymentRef,
    lineItems: (i.lineItems ?? []).map((item) => ({
      description: item.description,
      quantity: item.quantity,
      unitAmount: Number(item.unitAmount),
      amount: Number(item.amount),
    })),
    isOverdue: isOverdue({ status: i.status, dueAt }, now),
  };
}

export async function listInvoices(
  ctx: AppContext,
  auth: AuthContext,
  query: { status?: string; orgId?: string; page: number; pageSize: number },
): Promise<InvoiceList> {
  if (query.orgId) await existingOrganization(ctx, query.orgId);
  const { rows, total } = await repo.listInvoicesAnyOrg(ctx.database.db, query);
  const now = ctx.clock.now();
  return { total, items: rows.map((r) => toInvoice(r, now)), canManage: canManageBilling(auth.user.platformRole) };
}

async function invoiceView(ctx: AppContext, invoiceId: string): Promise<Invoice> {
  const row = await repo.findInvoiceAnyOrg(ctx.database.db, invoiceId);
  if (!row) throw notFound('Invoice');
  return toInvoice(row, ctx.clock.now());
}

/** Marks an open invoice paid by hand (a bank transfer, a cheque), with the payment's reference; audited. */
export async function markInvoicePaid(ctx: AppContext, auth: AuthContext, invoiceId: string, reference: string, ip: string | null): Promise<Invoice> {
  requireManager(auth);
  requireId(invoiceId, 'Invoice');
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    const row = await repo.findInvoiceAnyOrg(tx, invoiceId, true);
    if (!row) throw notFound('Invoice');
    const { invoice } = row;
    if (invoice.status === 'paid') throw conflict('invoice_already_paid', invoiceAlreadyPaid(invoice.number));
    if (invoice.status === 'void') throw conflict('invoice_void', invoiceIsVoid(invoice.number));
    await repo.updateInvoice(tx, invoice, { status: 'paid', amountPaid: invoice.amountDue, paidAt: now, paymentMethod: 'manual', paymentRef: reference });
    await writeAudit(tx, {
      actor: actorOf(auth),
      action: 'invoice.marked_paid',
      resourceType: 'invoice',
      resourceId: invoiceId,
      orgId: invoice.orgId,
      details: { number: invoice.number, amountUsd: Number(invoice.amountDue), method: 'manual', reference },
      ip,
    });
  });
  return invoiceView(ctx, invoiceId);
}

/** Voids an open invoice (issued by mistake, or waived); a paid one cannot be voided. Audited with the reason. */
export async function voidInvoice(ctx: AppContext, auth: AuthContext, invoiceId: string, reason: string, ip: string | null): Promise<Invoice> {
  requireManager(auth);
  requireId(invoiceId, 'Invoice');
  await ctx.database.db.transaction(async (tx) => {
    const row = await repo.findInvoiceAnyOrg(tx, invoiceId, true);
    if (!row) throw notFound('Invoice');
    const { invoice } = row;
    if (invoice.status === 'paid') throw conflict('invoice_already_paid', invoicePaidCannotVoid(invoice.number));
    if (invoice.status === 'void') throw conflict('invoice_void', invoiceAlreadyVoid(invoice.number));
    await repo.updateInvoice(tx, invoice, { status: 'void' });
    await writeAudit(tx, {
      actor: actorOf(auth),
      action: 'invoice.voided',
      resourceType: 'invoice',
      resourceId: invoiceId,
      orgId: invoice.orgId,
      details: { number: invoice.number, amountUsd: Number(invoice.amountDue), reason },
      ip,
    });
  });
  return invoiceView(ctx, invoiceId);
}

/** The invoice as a PDF, with the file name to give it. */
export async function invoicePdf(ctx: AppContext, invoiceId: string): Promise<{ fileName: string; pdf: Buffer }> {
  requireId(invoiceId, 'Invoice');
  const row = await repo.findInvoiceAnyOrg(ctx.database.db, invoiceId);
  if (!row) throw notFound('Invoice');
  const invoice = toInvoice(row, ctx.clock.now());
  const pdf = await renderInvoicePdf({ invoice, billTo: { name: row.orgName, email: row.orgEmail, address: row.orgAddress } });
  return { fileName: invoiceFileName(invoice.number), pdf };
}

// --- The monthly invoice run --------------------------------------------------------------------

/**
 * Issues each organization's invoice for the calendar month `period` ('YYYY-MM', UTC), once:
 * organizations on a plan with a price, active (a suspended or closed one is skipped), whose
 * billing is active and that existed before the month ended. One line item: the plan's monthly
 * subscription (the plan it is on when the invoice is issued), prorated in the month it joined.
 * Due INVOICE_DUE_DAYS after issue. Each invoice is its own transaction with its
 * audit entry; the unique (org_id, period_key) index makes a second run — or a run on another
 * node at the same time — write nothing. `actor` null: the scheduled job (audited as 'system').
 */
export async function issueInvoices(ctx: AppContext, period: string, actor: AuditActor, ip: string | null = null): Promise<IssueInvoicesResult> {
  const now = ctx.clock.now();
  const { start, end } = periodBounds(period);
  if (end.getTime() > now.getTime()) throw badRequest(PERIOD_NOT_ENDED, [{ path: 'period', message: PERIOD_NOT_ENDED }]);
  const result: IssueInvoicesResult = { period, issued: 0, alreadyIssued: 0, skipped: [] };
  for (const org of await repo.billableOrganizationsAnyOrg(ctx.database.db)) {
    const skip = (reason: string) => result.skipped.push({ orgId: org.orgId, orgName: org.orgName, reason });
    if (org.orgCreatedAt.getTime() >= end.getTime()) continue; // not a customer yet that month
    if (org.orgStatus !== 'active' || !org.orgActive) {
      skip(org.orgStatus === 'suspended' ? 'Suspended' : 'Not active');
      continue;
    }
    if (org.billingStatus !== 'active') {
      skip(`Billing ${org.billingStatus}`);
      continue;
    }
    const item = subscriptionLine(org.planName, org.priceCents, period, org.orgCreatedAt);
    const amount = item.amount;
    const created = await ctx.database.db.transaction(async (tx) => {
      const row = await repo.insertInvoiceOnce(tx, {
        orgId: org.orgId,
        planId: org.planId,
        periodKey: period,
        periodStart: start,
        periodEnd: end,
        amountDue: amount,
        currency: org.currency || INVOICE_CURRENCY,
        lineItems: [item],
        issuedAt: now,
        dueAt: new Date(now.getTime() + INVOICE_DUE_DAYS * DAY_MS),
      });
      if (!row) return false;
      await repo.advancePeriodEnd(tx, org.orgId, new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 1)));
      await writeAudit(tx, {
        actor,
        anonymousRole: 'system',
        action: 'invoice.issued',
        resourceType: 'invoice',
        resourceId: row.id,
        orgId: org.orgId,
        details: { number: row.number, period, plan: org.planName, amountUsd: Number(amount) },
        ip,
      });
      return true;
    });
    if (created) result.issued += 1;
    else if (await repo.hasInvoiceFor(ctx.database.db, org.orgId, period)) result.alreadyIssued += 1;
    else skip('Not issued: the invoice number was taken'); // cannot happen with the sequence; never silent
  }
  return result;
}

/** "Issue invoices now" of a platform administrator: the run, and one audit entry for it (even when it issued nothing). */
export async function issueInvoicesNow(ctx: AppContext, auth: AuthContext, period: string, ip: string | null): Promise<IssueInvoicesResult> {
  requireManager(auth);
  const result = await issueInvoices(ctx, period, actorOf(auth), ip);
  await writeAudit(ctx.database.db, {
    actor: actorOf(auth),
    action: 'invoices.issue_run',
    resourceType: 'invoice_run',
    resourceId: period,
    details: { period, issued: result.issued, alreadyIssued: result.alreadyIssued, skipped: result.skipped.length },
    ip,
  });
  return result;
}

// --- Revenue ------------------------------------------------------------------------------------

/**
 * Paid invoices by the calendar month (UTC) they were paid in, for the last REVENUE_MONTHS months
 * up to now — amount_paid of status 'paid', as the dashboard's revenue card sums it — and what
 * open invoices are owed.
 */
export async function revenue(ctx: AppContext): Promise<Revenue> {
  const now = ctx.clock.now();
  const months = lastMonths(now, REVENUE_MONTHS);
  const from = periodBounds(months[0]!).start;
  const [paid, open] = await Promise.all([repo.paidByMonthAnyOrg(ctx.database.db, from, now), repo.outstandingAnyOrg(ctx.database.db)]);
  const byMonth = new Map(paid.map((p) => [p.month, p]));
  const series = months.map((month) => {
    const row = byMonth.get(month);
    return { month, label: periodLabel(month), revenueUsd: amountToCents(row?.total ?? 0) / 100, invoicesPaid: row?.n ?? 0 };
  });
  return {
    months: series,
    totalUsd: amountToCents(series.reduce((sum, m) => sum + m.revenueUsd, 0)) / 100,
    outstandingUsd: amountToCents(open.total) / 100,
    openInvoices: open.n,
  };
}

