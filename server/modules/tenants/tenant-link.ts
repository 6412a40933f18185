import { asc, inArray, sql } from 'drizzle-orm';
import { RELEASED_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import { linkKeysOf } from '../../../domain/org-tenants';
import type { Db, Tx } from '../../db/client';
import { statusList } from '../../db/sql-status';
import { sites } from '../../db/schema';
import { AppError, conflict } from '../../plugins/errors';
import type { Candidate } from '../availability/availability.service';

// Which tenant a portal request belongs to, and what that tenant's policy allows
// (docs/tenant-linking.md). The booking path's full route calls these inside its transaction;
// the one-statement fast path (bookings/book-slot-sql.ts) applies the same rules in SQL.

export type LinkedTenant = {
  id: string;
  name: string;
  status: string;
  autoApprove: boolean;
  /** null: every site of the organization. */
  allowedSiteIds: string[] | null;
  maxBookingsPerDay: number | null;
  matchedBy: 'email_domain' | 'contact_email' | 'name';
};

type LinkRow = {
  id: string;
  name: string;
  status: string;
  auto_approve: boolean;
  allowed_site_ids: string[] | string | null;
  max_bookings_per_day: number | null;
  matched_by: LinkedTenant['matchedBy'];
};

/** PGlite and pg both parse uuid[]; a driver answering the array literal '{a,b}' is read too. */
function uuidArray(value: string[] | string | null): string[] | null {
  if (value === null || Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, '');
  return inner === '' ? [] : inner.split(',');
}

/**
 * The tenant of the organization a request links to, or null: the e-mail's domain is one of a
 * tenant's e-mail domains; else the e-mail is one of a tenant's contact e-mails; else the company
 * name equals a tenant's name (trimmed, case-blind). The first rule that matches decides.
 */
export async function findLinkedTenant(db: Db | Tx, orgId: string, tenantEmail: string, tenantName: string): Promise<LinkedTenant | null> {
  const keys = linkKeysOf(tenantEmail, tenantName);
  const byDomain = sql`t.email_domains @> array[${keys.domain}::text]`;
  const byEmail = sql`t.contact_emails @> array[${keys.email}::text]`;
  const byName = sql`lower(t.name) = lower(${keys.name}::text)`;
  const result = await db.execute(sql`
    select t.id, t.name, t.status, t.auto_approve, t.allowed_site_ids, t.max_bookings_per_day,
           case when ${byDomain} then 'email_domain' when ${byEmail} then 'contact_email' else 'name' end as matched_by
      from tenants t
     where t.org_id = ${orgId} and (${byDomain} or ${byEmail} or ${byName})
     order by case when ${byDomain} then 0 when ${byEmail} then 1 else 2 end, t.created_at, t.id
     limit 1`);
  const row = (result as unknown as { rows: LinkRow[] }).rows[0];
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    autoApprove: row.auto_approve,
    allowedSiteIds: uuidArray(row.allowed_site_ids),
    maxBookingsPerDay: row.max_bookings_per_day === null ? null : Number(row.max_bookings_per_day),
    matchedBy: row.matched_by,
  };
}

export const tenantBlockedMessage = (name: string) => `Bookings for ${name} are not accepted at this organization. Contact the site.`;

/** A blocked tenant's request is refused (403) before anything is stored. */
export function refuseIfBlocked(tenant: LinkedTenant | null): void {
  if (tenant && tenant.status !== 'active') throw new AppError(403, 'tenant_blocked', tenantBlockedMessage(tenant.name));
}

const RELEASED = statusList(RELEASED_BOOKING_STATUSES);

/** The tenant's live bookings (not declined, cancelled or no-show) starting on `date`, each in its site's own calendar. */
export async function countTenantBookingsOn(db: Db | Tx, orgId: string, tenantId: string, date: string): Promise<number> {
  const result = await db.execute(sql`
    select count(*)::int as n
      from bookings k join sites s on s.id = k.site_id
     where k.org_id = ${orgId} and k.tenant_id = ${tenantId} and k.status not in (${RELEASED})
       -- A wide UTC range for the index (every time zone's day lies within it), then the exact local day.
       and k.start_time >= (${date}::date - 1)::timestamp at time zone 'UTC'
       and k.start_time < (${date}::date + 2)::timestamp at time zone 'UTC'
       and (k.start_time at time zone s.time_zone)::date = ${date}::date`);
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

export const dailyLimitMessage = (name: string, max: number, date: string) =>
  `${name} already has ${max} booking${max === 1 ? '' : 's'} on ${date}, the most this organization accepts from them in a day. Choose another day or contact the site.`;

/**
 * A tenant with a daily limit: takes a lock on (tenant, day) for the rest of the transaction, so
 * concurrent requests of the same tenant for the same day are counted one after the other, then
 * refuses (409) when the day is already full.
 */
export async function enforceDailyLimit(tx: Tx, orgId: string, tenant: LinkedTenant, date: string): Promise<void> {
  if (tenant.maxBookingsPerDay === null) return;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`tenant-day:${tenant.id}:${date}`}::text, 0))`);
  const count = await countTenantBookingsOn(tx, orgId, tenant.id, date);
  if (count >= tenant.maxBookingsPerDay) {
    throw conflict('tenant_daily_limit', dailyLimitMessage(tenant.name, tenant.maxBookingsPerDay, date), {
      limit: tenant.maxBookingsPerDay,
      booked: count,
      date,
    });
  }
}

/**
 * Only the tenant's allowed sites' bays (all of them when it has no restriction); when none of
 * those can take the request, a clear 409 naming the sites.
 */
export async function restrictToAllowedSites(db: Db | Tx, tenant: LinkedTenant | null, candidates: Candidate[]): Promise<Candidate[]> {
  if (!tenant?.allowedSiteIds) return candidates;
  const allowed = new Set(tenant.allowedSiteIds);
  const kept = candidates.filter((candidate) => allowed.has(candidate.siteId));
  if (kept.length > 0) return kept;
  const names =
    tenant.allowedSiteIds.length === 0
      ? []
      : (await db.select({ name: sites.name }).from(sites).where(inArray(sites.id, tenant.allowedSiteIds)).orderBy(asc(sites.name))).map((site) => site.name);
  throw conflict(
    'tenant_site_unavailable',
    names.length === 0
      ? `${tenant.name} may not book at any site of this organization. Contact the site.`
      : `${tenant.name} may book only at ${names.join(', ')}, and no bay there can take this request at the selected time. Choose another time or contact the site.`,
    { allowedSites: names },
  );
}
