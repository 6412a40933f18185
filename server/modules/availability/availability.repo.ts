import { and, asc, eq, gt, inArray, lt, ne, notInArray, sql } from 'drizzle-orm';
import { RELEASED_BOOKING_STATUSES } from '../../../domain/enums';
import type { Db, Tx } from '../../db/client';
import { bays, blackouts, bookings, organizations, sites } from '../../db/schema';

type Conn = Db | Tx;

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
    })
    .from(bays)
    .innerJoin(sites, eq(sites.id, bays.siteId))
    .where(and(eq(bays.orgId, orgId), eq(bays.active, true), eq(sites.active, true)))
    .orderBy(asc(bays.heightClearanceM), asc(bays.name));
}
export type ActiveBay = Awaited<ReturnType<typeof listActiveBays>>[number];

export type BusyInterval = { bayId: string | null; siteId: string; start: Date; end: Date };

/**
 * Everything that holds a bay between `from` and `to` at the given sites (two queries, whatever the
 * number of slots and bays):
 * live bookings (not declined, cancelled or no-show) and blackouts (bay_id null = whole site).
 */
export async function listBusyIntervals(
  db: Conn,
  orgId: string,
  siteIds: string[],
  from: Date,
  to: Date,
  excludeBookingId?: string,
): Promise<BusyInterval[]> {
  if (siteIds.length === 0) return [];
  const bookingRows = db
    .select({ bayId: bookings.bayId, siteId: bookings.siteId, start: bookings.startTime, end: bookings.endTime })
    .from(bookings)
    .where(
      and(
        eq(bookings.orgId, orgId),
        inArray(bookings.siteId, siteIds),
        notInArray(bookings.status, [...RELEASED_BOOKING_STATUSES]),
        lt(bookings.startTime, to),
        gt(bookings.endTime, from),
        ...(excludeBookingId ? [ne(bookings.id, excludeBookingId)] : []),
      ),
    );
  const blackoutRows = db
    .select({ bayId: blackouts.bayId, siteId: blackouts.siteId, start: blackouts.startTime, end: blackouts.endTime })
    .from(blackouts)
    .where(
      and(eq(blackouts.orgId, orgId), inArray(blackouts.siteId, siteIds), lt(blackouts.startTime, to), gt(blackouts.endTime, from)),
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
    where a.status not in ('declined', 'cancelled', 'no_show') and b.status not in ('declined', 'cancelled', 'no_show')`);
  // node-postgres and PGlite both return { rows }.
  const [row] = (rows as unknown as { rows: { count: number }[] }).rows;
  return Number(row?.count ?? 0);
}
