import { eq, sql, type SQL } from 'drizzle-orm';
import { monthStartOf, periodKeyOf, planLimitMessage, reachedBookingCapPercents, type PlanLimitKind } from '../../../domain/billing';
import type { Db, Tx } from '../../db/client';
import { billing, bookingCapAlerts, organizations, plans } from '../../db/schema';
import { enqueueMail } from '../../mail/outbox';
import { listOrgAdminEmails } from '../../mail/recipients';
import { AppError } from '../../plugins/errors';
import { BOOKING_CAP_MAIL_KIND, type BookingCapMailPayload } from './booking-cap-mail';

// An organization's plan limits, enforced where sites, bays, members and bookings are created
// (docs/decisions/022-billing.md). The check runs inside the creating transaction: the plan's
// limit is read (one primary-key join; no plan, or no limit of that kind: nothing else happens),
// then a per-organization, per-kind advisory lock queues concurrent creations of that kind so two
// of them cannot both take the last place, then the current use is counted.
//
// What counts — the same definitions the plans screen flags over-limit organizations with:
// - sites: active sites;
// - bays: active bays at active sites;
// - members: active memberships plus pending invitations (not accepted, revoked or expired);
// - bookings: bookings created in the calendar month (UTC) of `now`, whatever their status since.

export const PLAN_LIMIT_REACHED = 'plan_limit_reached';

type Conn = Db | Tx;

/** The plan column that holds each limit. */
const LIMIT_COLUMN = {
  sites: plans.maxSites,
  bays: plans.maxBays,
  members: plans.maxUsers,
  bookings: plans.maxBookingsPerMonth,
} as const;

/** The SQL count of one kind of use for the organization `orgId` (an SQL expression, e.g. a column of an outer query). */
export function usageCountSql(kind: PlanLimitKind, orgId: SQL | string, now: Date, options: { pendingInvitations?: boolean } = {}): SQL<number> {
  const org = typeof orgId === 'string' ? sql`${orgId}::uuid` : orgId;
  switch (kind) {
    case 'sites':
      return sql<number>`(select count(*) from sites s where s.org_id = ${org} and s.active)`;
    case 'bays':
      return sql<number>`(select count(*) from bays b join sites s on s.id = b.site_id where b.org_id = ${org} and b.active and s.active)`;
    case 'members': {
      const members = sql`(select count(*) from org_memberships m where m.org_id = ${org} and m.active)`;
      if (options.pendingInvitations === false) return sql<number>`${members}`;
      return sql<number>`(${members} + (select count(*) from org_invitations i
                          where i.org_id = ${org} and i.accepted_at is null and i.revoked_at is null
                            and i.expires_at > ${now.toISOString()}::timestamptz))`;
    }
    case 'bookings':
      return sql<number>`(select count(*) from bookings k where k.org_id = ${org} and k.created_at >= ${monthStartOf(now).toISOString()}::timestamptz)`;
  }
}

/** The organization's plan name and its limit of `kind`; undefined without a plan. */
export async function planLimitOf(db: Conn, orgId: string, kind: PlanLimitKind): Promise<{ planName: string; allowed: number | null } | undefined> {
  const [row] = await db
    .select({ planName: plans.name, allowed: LIMIT_COLUMN[kind] })
    .from(billing)
    .innerJoin(plans, eq(plans.id, billing.planId))
    .where(eq(billing.orgId, orgId));
  return row;
}

export type PlanLimitCheck = {
  /** When the check happens: bookings count from the start of its month (UTC), invitations expire. */
  now: Date;
  /**
   * How many of `kind` the creation adds (a reactivated site brings its active bays back). Default
   * 1. A function is asked only when the plan sets this limit (it may cost a query).
   */
  adding?: number | ((tx: Tx) => Promise<number>);
  /** Members only: count pending invitations as places taken (default true; false when one is being accepted). */
  pendingInvitations?: boolean;
};

export function planLimitReached(kind: PlanLimitKind, planName: string, allowed: number, used: number): AppError {
  return new AppError(409, PLAN_LIMIT_REACHED, planLimitMessage(kind, planName, allowed), { limit: kind, plan: planName, allowed, used });
}

/**
 * Refuses (409 plan_limit_reached, naming the plan and the limit) when `adding` more of `kind`
 * would take the organization past its plan's limit. Call it inside the transaction that creates
 * them; it holds a lock on (organization, kind) until that transaction ends.
 */
export async function assertWithinPlanLimit(tx: Tx, orgId: string, kind: PlanLimitKind, check: PlanLimitCheck): Promise<void> {
  const limit = await planLimitOf(tx, orgId, kind);
  if (!limit || limit.allowed === null) return;
  const adding = typeof check.adding === 'function' ? await check.adding(tx) : (check.adding ?? 1);
  if (adding <= 0) return;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`plan-limit:${kind}:${orgId}`}, 0))`);
  const used = await countOf(tx, sql`select ${usageCountSql(kind, orgId, check.now, { pendingInvitations: check.pendingInvitations })} as n`);
  if (used + adding > limit.allowed) throw planLimitReached(kind, limit.planName, limit.allowed, used);
  if (kind === 'bookings') await queueBookingCapAlerts(tx, orgId, { planName: limit.planName, allowed: limit.allowed }, used + adding, check.now);
}

// --- The monthly booking cap: the portal closes, the admins are told (issue 22 item 13) ----------

export type MonthlyBookingCap = { planName: string; allowed: number; used: number; isReached: boolean };

/**
 * The organization's monthly booking cap and this month's (UTC) bookings against it; undefined
 * when its plan sets none (one primary-key join, no count).
 */
export async function monthlyBookingCapOf(db: Conn, orgId: string, now: Date): Promise<MonthlyBookingCap | undefined> {
  const limit = await planLimitOf(db, orgId, 'bookings');
  if (!limit || limit.allowed === null) return undefined;
  const used = await countOf(db, sql`select ${usageCountSql('bookings', orgId, now)} as n`);
  return { planName: limit.planName, allowed: limit.allowed, used, isReached: used >= limit.allowed };
}

/**
 * E-mails the organization's active admins when `used` bookings this month reach 80 % and 100 % of
 * the cap — once per threshold and month: the `booking_cap_alerts` row (primary key organization,
 * month, threshold) is written with the mail in the caller's transaction, so concurrent bookings,
 * retries and rolled-back bookings never send one twice or lose one. Thresholds reached together
 * (a small cap, or a plan change) send one mail, for the highest.
 */
export async function queueBookingCapAlerts(tx: Tx, orgId: string, cap: { planName: string; allowed: number }, used: number, now: Date): Promise<void> {
  const reached = reachedBookingCapPercents(cap.allowed, used);
  if (reached.length === 0) return;
  const periodKey = periodKeyOf(now);
  const inserted = await tx
    .insert(bookingCapAlerts)
    .values(reached.map((percent) => ({ orgId, periodKey, percent, allowed: cap.allowed, used, createdAt: now })))
    .onConflictDoNothing()
    .returning({ percent: bookingCapAlerts.percent });
  if (inserted.length === 0) return;
  const percent = Math.max(...inserted.map((row) => row.percent));
  const [org] = await tx.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, orgId));
  const payload: BookingCapMailPayload = { orgName: org?.name ?? 'Your organization', planName: cap.planName, percent, allowed: cap.allowed, used, periodKey };
  await enqueueMail(tx, now, [{ kind: BOOKING_CAP_MAIL_KIND, orgId, recipients: await listOrgAdminEmails(tx, orgId), payload }]);
}

async function countOf(tx: Conn, query: SQL): Promise<number> {
  const result: unknown = await tx.execute(query);
  const rows = (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as { n: number | string | null }[];
  return Number(rows[0]?.n ?? 0);
}

/** What reactivating a site adds to the bays count: its active bays. */
export const activeBaysOfSite = (siteId: string) => (tx: Tx) => countOf(tx, sql`select count(*) as n from bays where site_id = ${siteId} and active`);

/** What one more active bay at `siteId` adds to the bays count: 1 at an active site, 0 at a deactivated one (it counts once the site is back). */
export const oneBayAtSite = (siteId: string) => (tx: Tx) => countOf(tx, sql`select count(*) as n from sites where id = ${siteId} and active`);
