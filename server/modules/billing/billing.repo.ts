import { and, asc, count, desc, eq, gte, lte, ne, sql, type SQL } from 'drizzle-orm';
import { PLAN_LIMIT_KINDS, type PlanLimitKind } from '../../../domain/billing';
import type { Db, Tx } from '../../db/client';
import { billing, invoices, organizations, paymentWebhookEvents, plans, type InvoiceLineItem } from '../../db/schema';
import { usageCountSql } from './plan-limits';

// Plans, organizations' plans, invoices and payment events: platform-wide queries (the routes
// check the platform role first; the webhook checks the provider's signature).

type Conn = Db | Tx;

function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

// --- Plans --------------------------------------------------------------------------------------

export type PlanRow = typeof plans.$inferSelect;

/** Every plan (offered ones first, then by price and name) with the number of organizations on it. */
export function listPlans(db: Conn) {
  return db
    .select({
      plan: plans,
      organizations: sql<number>`(select count(*) from billing b where b.plan_id = ${plans.id})`.mapWith(Number),
    })
    .from(plans)
    .orderBy(desc(plans.active), asc(plans.priceCents), asc(plans.name));
}

export async function findPlan(db: Conn, planId: string, forUpdate = false): Promise<PlanRow | undefined> {
  const query = db.select().from(plans).where(eq(plans.id, planId));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

/** A plan of this name (any case), other than `exceptId`. */
export async function findPlanNamed(db: Conn, name: string, exceptId?: string) {
  const conditions: SQL[] = [sql`lower(${plans.name}) = lower(${name})`];
  if (exceptId) conditions.push(ne(plans.id, exceptId));
  const [row] = await db.select({ id: plans.id }).from(plans).where(and(...conditions));
  return row;
}

export async function insertPlan(tx: Tx, values: typeof plans.$inferInsert): Promise<PlanRow> {
  const [row] = await tx.insert(plans).values(values).returning();
  return row!;
}

export async function updatePlan(tx: Tx, planId: string, values: Partial<typeof plans.$inferInsert>): Promise<void> {
  await tx.update(plans).set(values).where(eq(plans.id, planId));
}

export type OverLimitRow = { planId: string; orgId: string; orgName: string; kind: PlanLimitKind; used: number; allowed: number };

const LIMIT_SQL: Record<PlanLimitKind, SQL> = {
  sites: sql`p.max_sites`,
  bays: sql`p.max_bays`,
  members: sql`p.max_users`,
  bookings: sql`p.max_bookings_per_month`,
};

/**
 * The organizations (of one plan, or of every plan) whose current use is above a limit of their
 * plan: counted only for the limits that are set, with the definitions the enforcement uses.
 */
export async function overLimitOrganizations(db: Conn, now: Date, planId?: string): Promise<OverLimitRow[]> {
  const org = sql`o.id`;
  const columns = PLAN_LIMIT_KINDS.map(
    (kind) => sql`case when ${LIMIT_SQL[kind]} is not null then ${usageCountSql(kind, org, now)} end as ${sql.identifier(`used_${kind}`)}`,
  );
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select o.id as org_id, o.name as org_name, p.id as plan_id,
             p.max_sites, p.max_bays, p.max_users, p.max_bookings_per_month,
             ${sql.join(columns, sql`, `)}
        from billing b
        join organizations o on o.id = b.org_id
        join plans p on p.id = b.plan_id
       where (p.max_sites is not null or p.max_bays is not null or p.max_users is not null or p.max_bookings_per_month is not null)
         ${planId ? sql`and p.id = ${planId}` : sql``}
       order by lower(o.name), o.id`),
  );
  const allowedColumn: Record<PlanLimitKind, string> = { sites: 'max_sites', bays: 'max_bays', members: 'max_users', bookings: 'max_bookings_per_month' };
  const over: OverLimitRow[] = [];
  for (const row of rows) {
    for (const kind of PLAN_LIMIT_KINDS) {
      const allowed = row[allowedColumn[kind]];
      const used = row[`used_${kind}`];
      if (allowed === null || allowed === undefined || used === null || used === undefined) continue;
      if (Number(used) > Number(allowed)) {
        over.push({ planId: String(row.plan_id), orgId: String(row.org_id), orgName: String(row.org_name), kind, used: Number(used), allowed: Number(allowed) });
      }
    }
  }
  return over;
}

// --- Organizations and their plans ------------------------------------------------------------

export async function findOrganization(db: Conn, orgId: string) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, status: organizations.status, active: organizations.active })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return row;
}

/** The organization's billing row and its plan (either may be absent). */
export async function findBilling(db: Conn, orgId: string, forUpdate = false) {
  const query = db
    .select({ billing, plan: plans })
    .from(billing)
    .leftJoin(plans, eq(plans.id, billing.planId))
    .where(eq(billing.orgId, orgId));
  const [row] = forUpdate ? await query.for('update', { of: billing }) : await query;
  return row;
}

/** The organization's plan from now; a new billing row's period is the current calendar month (UTC). */
export async function setOrganizationPlan(tx: Tx, orgId: string, planId: string | null, now: Date): Promise<void> {
  const periodEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  await tx
    .insert(billing)
    .values({ orgId, planId, status: 'active', currentPeriodEnd: periodEnd, updatedAt: now })
    .onConflictDoUpdate({ target: billing.orgId, set: { planId, updatedAt: now } });
}

/** After a month is invoiced, the organization's current period is the month after it (it ends on the 1st of the one after). */
export async function advancePeriodEnd(tx: Tx, orgId: string, periodEnd: Date): Promise<void> {
  await tx
    .update(billing)
    .set({ currentPeriodEnd: periodEnd })
    .where(and(eq(billing.orgId, orgId), sql`(${billing.currentPeriodEnd} is null or ${billing.currentPeriodEnd} < ${periodEnd.toISOString()}::timestamptz)`));
}

/** The organization's use against every kind of limit now. */
export async function organizationUsage(db: Conn, orgId: string, now: Date): Promise<Record<PlanLimitKind, number>> {
  const columns = PLAN_LIMIT_KINDS.map((kind) => sql`${usageCountSql(kind, orgId, now)} as ${sql.identifier(kind)}`);
  const [row] = rowsOf<Record<PlanLimitKind, number | string>>(await db.execute(sql`select ${sql.join(columns, sql`, `)}`));
  return Object.fromEntries(PLAN_LIMIT_KINDS.map((kind) => [kind, Number(row?.[kind] ?? 0)])) as Record<PlanLimitKind, number>;
}

/** Plans that may be assigned: the offered ones, and `currentPlanId` even when retired. */
export function assignablePlans(db: Conn, currentPlanId: string | null) {
  return db
    .select({ id: plans.id, name: plans.name, priceCents: plans.priceCents, active: plans.active })
    .from(plans)
    .where(currentPlanId ? sql`${plans.active} or ${plans.id} = ${currentPlanId}` : eq(plans.active, true))
    .orderBy(asc(plans.priceCents), asc(plans.name));
}

// --- Invoices -----------------------------------------------------------------------------------

const invoiceColumns = {
  invoice: invoices,
  orgName: organizations.name,
  orgSlug: organizations.slug,
  orgEmail: organizations.contactEmail,
  orgAddress: organizations.address,
  planName: plans.name,
};

export type InvoiceRow = { invoice: typeof invoices.$inferSelect; orgName: string; orgSlug: string; orgEmail: string | null; orgAddress: string | null; planName: string | null };

/** Invoices of every organization, or of one (the platform's billing screen). */
export async function listInvoicesAnyOrg(db: Conn, query: { status?: string; orgId?: string; page: number; pageSize: number }) {
  const where: SQL[] = [];
  if (query.status) where.push(eq(invoices.status, query.status));
  if (query.orgId) where.push(eq(invoices.orgId, query.orgId));
  const condition = where.length ? and(...where) : undefined;
  const rows = await db
    .select({ ...invoiceColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(invoices)
    .innerJoin(organizations, eq(organizations.id, invoices.orgId))
    .leftJoin(plans, eq(plans.id, invoices.planId))
    .where(condition)
    .orderBy(desc(invoices.issuedAt), desc(invoices.number))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.page > 1) {
    total = Number((await db.select({ n: count() }).from(invoices).where(condition))[0]?.n ?? 0);
  }
  return { rows: rows as (InvoiceRow & { total: number })[], total };
}

/** An invoice by its id, whichever organization it bills (platform billing and the payment provider know only the id). */
export async function findInvoiceAnyOrg(db: Conn, invoiceId: string, forUpdate = false): Promise<InvoiceRow | undefined> {
  const query = db
    .select(invoiceColumns)
    .from(invoices)
    .innerJoin(organizations, eq(organizations.id, invoices.orgId))
    .leftJoin(plans, eq(plans.id, invoices.planId))
    .where(eq(invoices.id, invoiceId));
  const [row] = forUpdate ? await query.for('update', { of: invoices }) : await query;
  return row;
}

export async function updateInvoice(tx: Tx, invoice: { orgId: string; id: string }, values: Partial<typeof invoices.$inferInsert>): Promise<void> {
  await tx
    .update(invoices)
    .set(values)
    .where(and(eq(invoices.orgId, invoice.orgId), eq(invoices.id, invoice.id)));
}

/** Organizations on a plan with a price, with what decides whether they are invoiced (the monthly run over all). */
export function billableOrganizationsAnyOrg(db: Conn) {
  return db
    .select({
      orgId: organizations.id,
      orgName: organizations.name,
      orgStatus: organizations.status,
      orgActive: organizations.active,
      orgCreatedAt: organizations.createdAt,
      billingStatus: billing.status,
      planId: plans.id,
      planName: plans.name,
      priceCents: plans.priceCents,
      currency: plans.currency,
    })
    .from(billing)
    .innerJoin(organizations, eq(organizations.id, billing.orgId))
    .innerJoin(plans, eq(plans.id, billing.planId))
    .where(sql`${plans.priceCents} > 0`)
    .orderBy(asc(organizations.createdAt), asc(organizations.id));
}

export type NewInvoice = {
  orgId: string;
  planId: string;
  periodKey: string;
  periodStart: Date;
  periodEnd: Date;
  amountDue: string;
  currency: string;
  lineItems: InvoiceLineItem[];
  issuedAt: Date;
  dueAt: Date;
};

/**
 * Inserts the organization's invoice for the month unless it has one (the unique (org_id,
 * period_key) index decides, so two runs at once write one). Numbered INV-YYYYMM-NNNNNN from the
 * invoice sequence. Answers the new row's id and number, or undefined when the month was invoiced.
 */
export async function insertInvoiceOnce(tx: Tx, values: NewInvoice): Promise<{ id: string; number: string } | undefined> {
  const compact = values.periodKey.replace('-', '');
  const [row] = await tx
    .insert(invoices)
    .values({
      ...values,
      number: sql`'INV-' || ${compact} || '-' || lpad(nextval('invoice_number_seq')::text, 6, '0')`,
      status: 'open',
      amountPaid: '0',
      createdAt: values.issuedAt,
    })
    .onConflictDoNothing()
    .returning({ id: invoices.id, number: invoices.number });
  return row;
}

/** Whether the organization has an invoice for the month. */
export async function hasInvoiceFor(db: Conn, orgId: string, periodKey: string): Promise<boolean> {
  const [row] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.orgId, orgId), eq(invoices.periodKey, periodKey)));
  return !!row;
}

// --- Revenue ------------------------------------------------------------------------------------

/** Paid invoices by the month (UTC) of their payment, within [from, to]: the same rows the dashboard's revenue card sums. */
export async function paidByMonthAnyOrg(db: Conn, from: Date, to: Date) {
  const month = sql<string>`to_char(${invoices.paidAt} at time zone 'UTC', 'YYYY-MM')`;
  const rows = await db
    .select({
      month,
      total: sql<string | number>`sum(${invoices.amountPaid})`,
      n: count(),
    })
    .from(invoices)
    .where(and(eq(invoices.status, 'paid'), gte(invoices.paidAt, from), lte(invoices.paidAt, to)))
    .groupBy(month);
  return rows.map((r) => ({ month: r.month, total: Number(r.total ?? 0), n: Number(r.n) }));
}

/** Open invoices of every organization: what is still owed to the platform. */
export async function outstandingAnyOrg(db: Conn) {
  const [row] = await db
    .select({ total: sql<string | number | null>`sum(${invoices.amountDue} - ${invoices.amountPaid})`, n: count() })
    .from(invoices)
    .where(eq(invoices.status, 'open'));
  return { total: Number(row?.total ?? 0), n: Number(row?.n ?? 0) };
}

// --- Payment provider events ----------------------------------------------------------------------

/** Records the provider's event; false when it was recorded before (a replayed delivery). */
export async function recordWebhookEvent(tx: Tx, values: { eventId: string; provider: string; type: string; invoiceId: string | null; at: Date }): Promise<boolean> {
  const inserted = await tx
    .insert(paymentWebhookEvents)
    .values({ eventId: values.eventId, provider: values.provider, type: values.type, invoiceId: values.invoiceId, receivedAt: values.at })
    .onConflictDoNothing()
    .returning({ eventId: paymentWebhookEvents.eventId });
  return inserted.length > 0;
}
