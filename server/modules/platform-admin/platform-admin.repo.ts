import { and, asc, count, desc, eq, gt, gte, ilike, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { ALERT_AUDIT_ACTIONS, type AlertCounts } from '../../../domain/platform-admin';
import type { Db, Tx } from '../../db/client';
import {
  auditLog,
  authSessions,
  bays,
  billing,
  bookings,
  invoices,
  organizations,
  orgMemberships,
  plans,
  sites,
  users,
} from '../../db/schema';

// Platform-wide queries: every organization, not one tenant. Only platform administrators reach
// them (the routes check the role first).

type Conn = Db | Tx;

/** `%` and `_` typed by a person are literal characters, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// --- Statistics (spec §7 "Platform statistics") --------------------------------------------------

export async function countActiveOrganizations(db: Conn): Promise<number> {
  const [row] = await db.select({ n: count() }).from(organizations).where(eq(organizations.status, 'active'));
  return Number(row?.n ?? 0);
}

export async function countActiveMembershipsAnyOrg(db: Conn): Promise<number> {
  const [row] = await db.select({ n: count() }).from(orgMemberships).where(eq(orgMemberships.active, true));
  return Number(row?.n ?? 0);
}

/** Sum of amount_paid of paid invoices paid in [from, to]; null when there is none. */
export async function sumPaidRevenueAnyOrg(db: Conn, from: Date, to: Date): Promise<number | null> {
  const [row] = await db
    .select({ total: sql<string | number | null>`sum(${invoices.amountPaid})` })
    .from(invoices)
    .where(and(eq(invoices.status, 'paid'), gte(invoices.paidAt, from), lte(invoices.paidAt, to)));
  return row?.total == null ? null : Number(row.total);
}

/** Audit entries in (from, to] whose action contains error, warning or alert (any case). */
/**
 * The alerts of the window (issue 22 item 15), each kind counted once:
 * - error groups with an event in the window that are open (never resolved, or seen again since);
 * - emergency stops of a site made in the window;
 * - organizations suspended in the window.
 */
export async function countAlertsAnyOrg(db: Conn, from: Date, to: Date): Promise<AlertCounts> {
  const f = from.toISOString();
  const t = to.toISOString();
  const result = (await db.execute(sql`
    select
      (select count(*)::int from (
         select e.fingerprint, max(e.created_at) as last_seen
           from error_events e
          where e.fingerprint is not null and e.created_at > ${f}::timestamptz and e.created_at <= ${t}::timestamptz
          group by e.fingerprint
       ) g
       left join error_groups eg on eg.fingerprint = g.fingerprint
       where not (coalesce(eg.status, 'open') = 'resolved' and g.last_seen <= eg.resolved_at)) as open_error_groups,
      (select count(*)::int from audit_log a
        where a.action = ${ALERT_AUDIT_ACTIONS.emergencyStop} and a.created_at > ${f}::timestamptz and a.created_at <= ${t}::timestamptz) as emergency_stops,
      (select count(*)::int from audit_log a
        where a.action = ${ALERT_AUDIT_ACTIONS.suspension} and a.created_at > ${f}::timestamptz and a.created_at <= ${t}::timestamptz) as suspensions
  `)) as unknown as { rows?: Array<Record<string, unknown>> } | Array<Record<string, unknown>>;
  const row = (Array.isArray(result) ? result[0] : result.rows?.[0]) ?? {};
  return { openErrorGroups: Number(row.open_error_groups ?? 0), emergencyStops: Number(row.emergency_stops ?? 0), suspensions: Number(row.suspensions ?? 0) };
}

// --- Organization list (spec §7 "Organization list") -------------------------------------------

// Written out: in a single-table select drizzle leaves column names unqualified.
const activeSites = sql<number>`(select count(*) from sites s where s.org_id = organizations.id and s.active)`.mapWith(Number);
const activeBays = sql<number>`(select count(*) from bays b join sites s on s.id = b.site_id
                                  where s.org_id = organizations.id and s.active and b.active)`.mapWith(Number);
const activeMembers = sql<number>`(select count(*) from org_memberships m where m.org_id = organizations.id and m.active)`.mapWith(Number);

export async function listOrganizations(
  db: Conn,
  query: { q?: string; status?: string; page: number; pageSize: number },
) {
  const where: SQL[] = [];
  if (query.status) where.push(eq(organizations.status, query.status));
  if (query.q) {
    const pattern = likePattern(query.q);
    where.push(or(ilike(organizations.name, pattern), ilike(organizations.slug, pattern), ilike(organizations.contactEmail, pattern))!);
  }
  const condition = where.length ? and(...where) : undefined;
  const rows = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      slug: organizations.slug,
      status: organizations.status,
      active: organizations.active,
      createdAt: organizations.createdAt,
      planId: plans.id,
      planName: plans.name,
      activeSites,
      activeBays,
      activeMembers,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(organizations)
    .leftJoin(billing, eq(billing.orgId, organizations.id))
    .leftJoin(plans, eq(plans.id, billing.planId))
    .where(condition)
    .orderBy(desc(organizations.createdAt), desc(organizations.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  let total = rows[0]?.total ?? 0;
  // A page past the end has no row to carry the total.
  if (rows.length === 0 && query.page > 1) {
    total = Number((await db.select({ n: count() }).from(organizations).where(condition))[0]?.n ?? 0);
  }
  return { rows, total };
}

// --- Audit entries joined with the organization's name (spec §7 "Audit list") -----------------

const auditColumns = {
  id: auditLog.id,
  action: auditLog.action,
  resourceType: auditLog.resourceType,
  resourceId: auditLog.resourceId,
  actorEmail: auditLog.actorEmail,
  actorRole: auditLog.actorRole,
  impersonatorEmail: auditLog.impersonatorEmail,
  orgId: auditLog.orgId,
  orgName: organizations.name,
  siteId: auditLog.siteId,
  details: auditLog.details,
  createdAt: auditLog.createdAt,
};

export function listRecentAuditAnyOrg(db: Conn, limit: number) {
  return db
    .select(auditColumns)
    .from(auditLog)
    .leftJoin(organizations, eq(organizations.id, auditLog.orgId))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit);
}

export async function listOrganizationAudit(db: Conn, orgId: string, page: number, pageSize: number) {
  const rows = await db
    .select({ ...auditColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(auditLog)
    .leftJoin(organizations, eq(organizations.id, auditLog.orgId))
    .where(eq(auditLog.orgId, orgId))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && page > 1) {
    total = Number((await db.select({ n: count() }).from(auditLog).where(eq(auditLog.orgId, orgId)))[0]?.n ?? 0);
  }
  return { rows, total };
}

/** The audit entry that suspended the organization most recently (its reason and who did it). */
export async function findLatestSuspension(db: Conn, orgId: string) {
  const [row] = await db
    .select({ at: auditLog.createdAt, byEmail: auditLog.actorEmail, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.orgId, orgId), eq(auditLog.resourceType, 'organization'), eq(auditLog.action, 'organization.suspended')))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(1);
  return row;
}

// --- One organization ---------------------------------------------------------------------------

export async function findOrganization(db: Conn, orgId: string, forUpdate = false) {
  const query = db.select().from(organizations).where(eq(organizations.id, orgId));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function findPlan(db: Conn, orgId: string) {
  const [row] = await db
    .select({ plan: plans, billingStatus: billing.status, currentPeriodEnd: billing.currentPeriodEnd })
    .from(billing)
    .innerJoin(plans, eq(plans.id, billing.planId))
    .where(eq(billing.orgId, orgId));
  return row;
}

export function listMembers(db: Conn, orgId: string) {
  return db
    .select({
      id: orgMemberships.id,
      userId: users.id,
      email: users.email,
      fullName: users.fullName,
      role: orgMemberships.role,
      employeeId: orgMemberships.employeeId,
      active: orgMemberships.active,
      lastSignInAt: users.lastSignInAt,
      createdAt: orgMemberships.createdAt,
    })
    .from(orgMemberships)
    .innerJoin(users, eq(users.id, orgMemberships.userId))
    .where(eq(orgMemberships.orgId, orgId))
    .orderBy(
      desc(orgMemberships.active),
      sql`case ${orgMemberships.role} when 'org_admin' then 0 when 'dockmaster' then 1 when 'security' then 2 else 3 end`,
      sql`lower(${users.email})`,
    );
}

export function listSites(db: Conn, orgId: string) {
  return db
    .select({ id: sites.id, name: sites.name, timeZone: sites.timeZone, active: sites.active })
    .from(sites)
    .where(eq(sites.orgId, orgId))
    .orderBy(desc(sites.active), sql`lower(${sites.name})`, asc(sites.id));
}

export function listBays(db: Conn, orgId: string) {
  return db
    .select({
      id: bays.id,
      siteId: bays.siteId,
      name: bays.name,
      heightClearanceM: bays.heightClearanceM,
      capacity: bays.capacity,
      features: bays.features,
      active: bays.active,
    })
    .from(bays)
    .where(eq(bays.orgId, orgId))
    .orderBy(asc(bays.siteId), asc(bays.sortKey), asc(bays.id));
}

export function listInvoices(db: Conn, orgId: string, limit: number) {
  return db
    .select({
      id: invoices.id,
      number: invoices.number,
      status: invoices.status,
      currency: invoices.currency,
      amountDue: invoices.amountDue,
      amountPaid: invoices.amountPaid,
      issuedAt: invoices.issuedAt,
      paidAt: invoices.paidAt,
    })
    .from(invoices)
    .where(eq(invoices.orgId, orgId))
    .orderBy(desc(invoices.issuedAt), desc(invoices.number))
    .limit(limit);
}

/** Bookings created in [since, until] (this calendar month's, against the plan). */
export async function countBookingsCreated(db: Conn, orgId: string, since: Date, until: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(bookings)
    .where(and(eq(bookings.orgId, orgId), gte(bookings.createdAt, since), lte(bookings.createdAt, until)));
  return Number(row?.n ?? 0);
}

// --- Creating an organization -------------------------------------------------------------------

const offeredPlanColumns = {
  id: plans.id,
  name: plans.name,
  priceCents: plans.priceCents,
  currency: plans.currency,
  interval: plans.interval,
  maxSites: plans.maxSites,
  maxBays: plans.maxBays,
  maxUsers: plans.maxUsers,
  maxBookingsPerMonth: plans.maxBookingsPerMonth,
};

/** The plans a new organization may be given: the active ones, cheapest first. */
export function listOfferedPlans(db: Conn) {
  return db.select(offeredPlanColumns).from(plans).where(eq(plans.active, true)).orderBy(asc(plans.priceCents), asc(plans.name));
}

export async function findOfferedPlan(db: Conn, planId: string) {
  const [row] = await db.select(offeredPlanColumns).from(plans).where(and(eq(plans.id, planId), eq(plans.active, true)));
  return row;
}

export async function isSlugTaken(db: Conn, slug: string): Promise<boolean> {
  const [row] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.slug, slug));
  return !!row;
}

export async function insertOrganization(tx: Tx, values: typeof organizations.$inferInsert) {
  const [row] = await tx.insert(organizations).values(values).returning();
  return row!;
}

export async function insertBilling(tx: Tx, values: typeof billing.$inferInsert) {
  await tx.insert(billing).values(values);
}

// --- Suspension ---------------------------------------------------------------------------------

export async function setStatus(tx: Tx, orgId: string, status: string, at: Date) {
  await tx.update(organizations).set({ status, updatedAt: at }).where(eq(organizations.id, orgId));
}

/**
 * Ends the live sessions of the organization's members: every session opened for this
 * organization, and their sessions opened without one (the e-mail sign-in). Platform
 * administrators' sessions are never touched. Answers how many ended.
 */
export async function revokeMemberSessions(tx: Tx, orgId: string, at: Date): Promise<number> {
  const ended = await tx
    .update(authSessions)
    .set({ revokedAt: at, revokedReason: 'org_suspended' })
    .where(
      and(
        isNull(authSessions.revokedAt),
        gt(authSessions.expiresAt, at),
        or(
          eq(authSessions.orgId, orgId),
          and(isNull(authSessions.orgId), sql`${authSessions.userId} in (select m.user_id from org_memberships m where m.org_id = ${orgId})`),
        ),
        sql`${authSessions.userId} not in (select u.id from users u where u.platform_role is not null)`,
      ),
    )
    .returning({ id: authSessions.id });
  return ended.length;
}
