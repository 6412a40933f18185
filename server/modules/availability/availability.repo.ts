import { and, asc, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import { RELEASED_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import type { Db, Tx } from '../../db/client';
import { statusList } from '../../db/sql-status';
import { bays, blackouts, bookings, organizations, sites } from '../../db/schema';

type Conn = Db | Tx;

/** The organization's active sites (for the day notice when no bay is compatible). */
export function listActiveSites(db: Conn, orgId: string) {
  return db
    .select({ id: sites.id, name: sites.name, timeZone: sites.timeZone, bookingHorizonDays: sites.bookingHorizonDays, minAdvanceMin: sites.minAdvanceMin })
    .from(sites)
    .where(and(eq(sites.orgId, orgId), eq(sites.active, true)))
    .orderBy(asc(sites.name));
}

export type BayLimits = { bays: number; maxClearanceM: number | null; maxLengthM: number | null; hasUnlimitedLength: boolean; features: string[] };

/** The tallest clearance, longest bay and the features active bays offer (why no bay fits a vehicle). */
export async function activeBayLimits(db: Conn, orgId: string): Promise<BayLimits> {
  const result = await db.execute(sql`
    select count(*)::int as bays,
           max(b.height_clearance_m)::float8 as max_clearance_m,
           max(b.length_m)::float8 as max_length_m,
           coalesce(bool_or(b.length_m is null), false) as has_unlimited_length,
           coalesce((select array_agg(distinct f) from bays b2 join sites s2 on s2.id = b2.site_id and s2.active,
                     unnest(b2.features) f where b2.org_id = ${orgId} and b2.active), '{}') as features
      from bays b join sites s on s.id = b.site_id and s.active
     where b.org_id = ${orgId} and b.active`);
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0] ?? {};
  return {
    bays: Number(row.bays ?? 0),
    maxClearanceM: row.max_clearance_m == null ? null : Number(row.max_clearance_m),
    maxLengthM: row.max_length_m == null ? null : Number(row.max_length_m),
    hasUnlimitedLength: Boolean(row.has_unlimited_length),
    features: (row.features as string[] | null) ?? [],
  };
}

/** The bookable organization (active, status active), or undefined. */
export function findBookableOrg(db: Conn, orgId: string) {
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(and(eq(organizations.id, orgId), eq(organizations.active, true), eq(organizations.status, 'active')))
    .then((rows) => rows[0]);
}

/** Active bays at active sites of the organization, with what the slot grid needs of their site. */
export function listActiveBays(db: Conn, orgId: string) {
  return db
    .select({
      id: bays.id,
      name: bays.name,
      siteId: bays.siteId,
      heightClearanceM: bays.heightClearanceM,
      lengthM: bays.lengthM,
      features: bays.features,
      capacity: bays.capacity,
      active: bays.active,
      siteName: sites.name,
      siteActive: sites.active,
      timeZone: sites.timeZone,
      operatingHours: sites.operatingHours,
      slotIntervalMin: sites.slotIntervalMin,
      minAdvanceMin: sites.minAdvanceMin,
      bookingHorizonDays: sites.bookingHorizonDays,
      /** Set while the site is stopped (emergency): it offers no slots. */
      emergencyAt: sites.emergencyAt,
    })
    .from(bays)
    .innerJoin(sites, eq(sites.id, bays.siteId))
    .where(and(eq(bays.orgId, orgId), eq(bays.active, true), eq(sites.active, true)))
    .orderBy(asc(bays.heightClearanceM), asc(bays.sortKey), asc(bays.id));
}
export type ActiveBay = Awaited<ReturnType<typeof listActiveBays>>[number];

export type BusyInterval = { bayId: string | null; siteId: string; start: Date; end: Date };

// Literals, not parameters: the planner can then prove the exclusion constraint's partial-index
// predicate and answer the range-overlap question from its GiST index (bay_id, tstzrange).
const RELEASED_LITERALS = statusList(RELEASED_BOOKING_STATUSES);

/**
 * Everything that holds the given bays between `from` and `to` (two queries, whatever the number of
 * slots and bays): live bookings on those bays, read through the exclusion constraint's GiST index
 * so only the window's rows are touched however long the history, and blackouts at their sites
 * (bay_id null = the whole site). The bay ids come from the organization-scoped bays query, which
 * is what keeps this tenant-safe; an `org_id = …` term here would make the planner read the
 * organization's whole history again.
 */
export async function listBusyIntervals(
  db: Conn,
  scope: { orgId: string; siteIds: string[]; bayIds: string[] },
  from: Date,
  to: Date,
  excludeBookingId?: string,
): Promise<BusyInterval[]> {
  if (scope.bayIds.length === 0) return [];
  const window = sql`tstzrange(${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz, '[)')`;
  const bookingRows = db
    .select({ bayId: bookings.bayId, siteId: bookings.siteId, start: bookings.startTime, end: bookings.endTime })
    .from(bookings)
    .where(
      and(
        inArray(bookings.bayId, scope.bayIds),
        sql`${bookings.status} not in (${RELEASED_LITERALS})`,
        sql`tstzrange(${bookings.startTime}, ${bookings.endTime}, '[)') && ${window}`,
        ...(excludeBookingId ? [ne(bookings.id, excludeBookingId)] : []),
      ),
    );
  const blackoutRows = db
    .select({ bayId: blackouts.bayId, siteId: blackouts.siteId, start: blackouts.startTime, end: blackouts.endTime })
    .from(blackouts)
    .where(
      and(
        eq(blackouts.orgId, scope.orgId),
        inArray(blackouts.siteId, scope.siteIds),
        lt(blackouts.startTime, to),
        gt(blackouts.endTime, from),
      ),
    );
  const [bookingList, blackoutList] = await Promise.all([bookingRows, blackoutRows]);
  return [...bookingList, ...blackoutList];
}

/** Counts live bookings overlapping each other on one bay: must always be 0 (tests, benchmarks). */
export async function countOverlaps(db: Conn): Promise<number> {
  const rows = await db.execute(sql`
    select count(*)::int as count from bookings a join bookings b
      on a.bay_id = b.bay_id and a.id < b.id
     and tstzrange(a.start_time, a.end_time, '[)') && tstzrange(b.start_time, b.end_time, '[)')
    where a.status not in (${RELEASED_LITERALS}) and b.status not in (${RELEASED_LITERALS})`);
  // node-postgres and PGlite both return { rows }.
  const [row] = (rows as unknown as { rows: { count: number }[] }).rows;
  return Number(row?.count ?? 0);
}
