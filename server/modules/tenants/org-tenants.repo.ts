import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { AWAITING_ARRIVAL_STATUSES } from '../../../domain/booking-lifecycle';
import { BOOKING_WINDOW_MIN } from '../../../domain/constants';
import type { TenantStatus } from '../../../domain/org-tenants';
import type { Db, Tx } from '../../db/client';
import { statusIn } from '../../db/sql-status';
import { bays, bookings, sites, tenants } from '../../db/schema';

// The organization's tenants, always within one organization: every query filters by org_id.

type Conn = Db | Tx;
export type TenantRow = typeof tenants.$inferSelect;
export type TenantInsert = typeof tenants.$inferInsert;

/** `%` and `_` typed by a person are literal characters, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// Written out: inside a single-table select drizzle leaves column names unqualified, and "id"
// would mean the subquery's own booking.
const bookingCount = sql<number>`(select count(*) from bookings k where k.tenant_id = tenants.id and k.org_id = tenants.org_id)`.mapWith(Number);

export async function listTenants(db: Conn, orgId: string, query: { q?: string; status?: TenantStatus; page: number; pageSize: number }) {
  const where: SQL[] = [eq(tenants.orgId, orgId)];
  if (query.status) where.push(eq(tenants.status, query.status));
  if (query.q) {
    const pattern = likePattern(query.q);
    where.push(
      or(
        ilike(tenants.name, pattern),
        sql`array_to_string(${tenants.contactEmails}, ' ') ilike ${pattern}`,
        sql`array_to_string(${tenants.emailDomains}, ' ') ilike ${pattern}`,
      )!,
    );
  }
  const rows = await db
    .select({ tenant: tenants, bookingCount, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(tenants)
    .where(and(...where))
    .orderBy(sql`lower(${tenants.name})`, asc(tenants.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  let total = rows[0]?.total ?? 0;
  // A page past the end has no row to carry the total.
  if (rows.length === 0 && query.page > 1) {
    total = (await db.select({ n: count() }).from(tenants).where(and(...where)))[0]?.n ?? 0;
  }
  return { rows, total };
}

export async function findTenant(db: Conn, orgId: string, id: string, forUpdate = false): Promise<TenantRow | undefined> {
  const query = db.select().from(tenants).where(and(eq(tenants.orgId, orgId), eq(tenants.id, id)));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function insertTenants(tx: Tx, values: TenantInsert[]): Promise<TenantRow[]> {
  if (values.length === 0) return [];
  return tx.insert(tenants).values(values).returning();
}

export async function updateTenant(tx: Tx, orgId: string, id: string, values: Partial<TenantInsert>): Promise<TenantRow> {
  const [row] = await tx
    .update(tenants)
    .set(values)
    .where(and(eq(tenants.orgId, orgId), eq(tenants.id, id)))
    .returning();
  return row!;
}

/** Of `ids`, the sites of this organization, by name. */
export function findSites(db: Conn, orgId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([] as { id: string; name: string }[]);
  return db
    .select({ id: sites.id, name: sites.name })
    .from(sites)
    .where(and(eq(sites.orgId, orgId), inArray(sites.id, ids)))
    .orderBy(asc(sites.name));
}

/** Other tenants that already claim one of these e-mail domains or contact e-mails (a link must name one tenant). */
export function findClaims(db: Conn, orgId: string, claims: { domains: string[]; emails: string[] }, exceptId?: string) {
  const conditions: SQL[] = [];
  if (claims.domains.length) conditions.push(sql`${tenants.emailDomains} && ${sql.param(claims.domains)}::text[]`);
  if (claims.emails.length) conditions.push(sql`${tenants.contactEmails} && ${sql.param(claims.emails)}::text[]`);
  if (conditions.length === 0) return Promise.resolve([] as Pick<TenantRow, 'id' | 'name' | 'emailDomains' | 'contactEmails'>[]);
  return db
    .select({ id: tenants.id, name: tenants.name, emailDomains: tenants.emailDomains, contactEmails: tenants.contactEmails })
    .from(tenants)
    .where(and(eq(tenants.orgId, orgId), or(...conditions), ...(exceptId ? [ne(tenants.id, exceptId)] : [])));
}

/** Existing tenants whose name equals one of `names`, case-blind (the unique index's rule). */
export function findNames(db: Conn, orgId: string, names: string[]) {
  if (names.length === 0) return Promise.resolve([] as { id: string; name: string }[]);
  return db
    .select({ id: tenants.id, name: tenants.name })
    .from(tenants)
    .where(and(eq(tenants.orgId, orgId), sql`lower(${tenants.name}) in (select lower(n) from unnest(${sql.param(names)}::text[]) as n)`));
}

const WINDOW = sql.raw(`interval '${BOOKING_WINDOW_MIN} minutes'`);

/** The tenant's figures over all its bookings (see tenantFiguresSchema). */
export async function tenantFigures(db: Conn, orgId: string, tenantId: string, now: Date) {
  const [row] = await db
    .select({
      bookings: sql<number>`count(*)`.mapWith(Number),
      arrivals: sql<number>`count(*) filter (where ${bookings.checkedInAt} is not null)`.mapWith(Number),
      onTimeArrivals: sql<number>`count(*) filter (where ${bookings.checkedInAt} between ${bookings.startTime} - ${WINDOW} and ${bookings.startTime} + ${WINDOW})`.mapWith(Number),
      noShows: sql<number>`count(*) filter (where ${bookings.status} = 'no_show')`.mapWith(Number),
      cancellations: sql<number>`count(*) filter (where ${bookings.status} = 'cancelled')`.mapWith(Number),
      upcoming: sql<number>`count(*) filter (where ${statusIn(bookings.status, AWAITING_ARRIVAL_STATUSES)} and ${bookings.startTime} >= ${now.toISOString()}::timestamptz)`.mapWith(Number),
    })
    .from(bookings)
    .where(and(eq(bookings.orgId, orgId), eq(bookings.tenantId, tenantId)));
  return row!;
}

/** The tenant's bookings, latest start first, one page. */
export async function listTenantBookings(db: Conn, orgId: string, tenantId: string, page: number, pageSize: number) {
  const rows = await db
    .select({
      id: bookings.id,
      version: bookings.version,
      status: bookings.status,
      tsrNumber: bookings.tsrNumber,
      tenantName: bookings.tenantName,
      siteId: bookings.siteId,
      siteName: sites.name,
      bayId: bookings.bayId,
      bayName: bays.name,
      timeZone: sites.timeZone,
      startTime: bookings.startTime,
      endTime: bookings.endTime,
      bookingType: bookings.bookingType,
      vehicleType: bookings.vehicleType,
      vehicleRegistration: bookings.vehicleRegistration,
      source: bookings.source,
      createdAt: bookings.createdAt,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(bookings)
    .innerJoin(sites, eq(sites.id, bookings.siteId))
    .innerJoin(bays, eq(bays.id, bookings.bayId))
    .where(and(eq(bookings.orgId, orgId), eq(bookings.tenantId, tenantId)))
    .orderBy(desc(bookings.startTime), asc(bookings.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && page > 1) {
    total = (await db.select({ n: count() }).from(bookings).where(and(eq(bookings.orgId, orgId), eq(bookings.tenantId, tenantId))))[0]?.n ?? 0;
  }
  return { rows, total };
}
