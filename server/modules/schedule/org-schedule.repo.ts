import { and, asc, eq, gt, isNull, lt, notInArray, or } from 'drizzle-orm';
import { RELEASED_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import type { Db, Tx } from '../../db/client';
import { bays, blackouts, bookings, sites } from '../../db/schema';
import type { OrgScope } from '../../plugins/org-scope';

// One site's schedule, always within the caller's scope: every query names `scope.orgId`.

type Conn = Db | Tx;
export type Range = { start: Date; end: Date };

export async function findSite(db: Conn, scope: OrgScope, siteId: string) {
  const [row] = await db
    .select({
      id: sites.id,
      name: sites.name,
      timeZone: sites.timeZone,
      operatingHours: sites.operatingHours,
      slotIntervalMin: sites.slotIntervalMin,
    })
    .from(sites)
    .where(and(eq(sites.orgId, scope.orgId), eq(sites.id, siteId)));
  return row;
}

/** The site's active bays in natural name order ('N-2' before 'N-10'; domain/bay-order.ts), then id. */
export function listBays(db: Conn, scope: OrgScope, siteId: string) {
  return db
    .select({ id: bays.id, name: bays.name, heightClearanceM: bays.heightClearanceM, lengthM: bays.lengthM, features: bays.features })
    .from(bays)
    .where(and(eq(bays.orgId, scope.orgId), eq(bays.siteId, siteId), eq(bays.active, true)))
    .orderBy(asc(bays.sortKey), asc(bays.id));
}

/** Bookings that hold their bay and overlap [start, end). */
export function listBookings(db: Conn, scope: OrgScope, siteId: string, range: Range) {
  return db
    .select({
      id: bookings.id,
      version: bookings.version,
      status: bookings.status,
      tsrNumber: bookings.tsrNumber,
      tenantName: bookings.tenantName,
      vehicleType: bookings.vehicleType,
      vehicleRegistration: bookings.vehicleRegistration,
      bayId: bookings.bayId,
      startTime: bookings.startTime,
      endTime: bookings.endTime,
    })
    .from(bookings)
    .where(
      and(
        eq(bookings.orgId, scope.orgId),
        eq(bookings.siteId, siteId),
        notInArray(bookings.status, [...RELEASED_BOOKING_STATUSES]),
        lt(bookings.startTime, range.end),
        gt(bookings.endTime, range.start),
      ),
    )
    .orderBy(asc(bookings.startTime), asc(bookings.id));
}

/** Blackouts of the site (a bay of it, or the whole site) overlapping [start, end). */
export function listBlackouts(db: Conn, scope: OrgScope, siteId: string, range: Range) {
  return db
    .select({ id: blackouts.id, bayId: blackouts.bayId, start: blackouts.startTime, end: blackouts.endTime, reason: blackouts.reason })
    .from(blackouts)
    .leftJoin(bays, eq(bays.id, blackouts.bayId))
    .where(
      and(
        eq(blackouts.orgId, scope.orgId),
        eq(blackouts.siteId, siteId),
        // A blackout of a bay that is no longer active has no lane; a whole-site one always shows.
        or(isNull(blackouts.bayId), eq(bays.active, true)),
        lt(blackouts.startTime, range.end),
        gt(blackouts.endTime, range.start),
      ),
    )
    .orderBy(asc(blackouts.startTime), asc(blackouts.id));
}
