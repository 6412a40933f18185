import { and, asc, desc, eq, gte, inArray, lt, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { ON_SITE_STATUSES, RELEASED_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import { lateCutoff } from '../../../domain/gate';
import type { Db, Tx } from '../../db/client';
import { bays, bookings, sites, users } from '../../db/schema';
import type { OrgScope } from '../../plugins/org-scope';

// The dashboard's queries, always within the caller's organization (and the chosen site).

type Conn = Db | Tx;

/** The organization's sites (or the one asked for), with their count of active bays. */
export function listSites(db: Conn, scope: OrgScope, siteId: string | null) {
  const where: SQL[] = [eq(sites.orgId, scope.orgId)];
  if (siteId) where.push(eq(sites.id, siteId));
  return db
    .select({
      id: sites.id,
      name: sites.name,
      timeZone: sites.timeZone,
      operatingHours: sites.operatingHours,
      active: sites.active,
      activeBays: sql<number>`(select count(*) from bays where bays.site_id = sites.id and bays.active)`.mapWith(Number),
    })
    .from(sites)
    .where(and(...where))
    .orderBy(asc(sites.name), asc(sites.id));
}

/** The organization's sites (or the one asked for) stopped for an emergency now, with who stopped them. */
export function listEmergencyStops(db: Conn, scope: OrgScope, siteId: string | null) {
  const where: SQL[] = [eq(sites.orgId, scope.orgId), sql`${sites.emergencyAt} is not null`];
  if (siteId) where.push(eq(sites.id, siteId));
  return db
    .select({ siteId: sites.id, siteName: sites.name, timeZone: sites.timeZone, since: sites.emergencyAt, reason: sites.emergencyReason, byEmail: users.email })
    .from(sites)
    .leftJoin(users, eq(users.id, sites.emergencyBy))
    .where(and(...where))
    .orderBy(asc(sites.name), asc(sites.id));
}

function bookingScope(scope: OrgScope, siteId: string | null): SQL[] {
  const where: SQL[] = [eq(bookings.orgId, scope.orgId)];
  if (siteId) where.push(eq(bookings.siteId, siteId));
  return where;
}

/** Pending requests from now on, and approved bookings not in once their on-time window has passed (late, as at the gate). */
export async function countPendingAndLate(db: Conn, scope: OrgScope, siteId: string | null, now: Date) {
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${bookings.status} = 'pending' and ${bookings.startTime} >= ${now.toISOString()}::timestamptz)`.mapWith(Number),
      late: sql<number>`count(*) filter (where ${bookings.status} = 'approved' and ${bookings.startTime} < ${lateCutoff(now).toISOString()}::timestamptz)`.mapWith(Number),
    })
    .from(bookings)
    .where(and(...bookingScope(scope, siteId), inArray(bookings.status, ['pending', 'approved'])));
  return { pending: row?.pending ?? 0, late: row?.late ?? 0 };
}

/** Live bookings (not released) starting in [from, to): their site, bay and times, for today's figures. */
export function listLiveStartingBetween(db: Conn, scope: OrgScope, siteId: string | null, from: Date, to: Date) {
  return db
    .select({ siteId: bookings.siteId, bayId: bookings.bayId, bayActive: bays.active, startTime: bookings.startTime, endTime: bookings.endTime })
    .from(bookings)
    .innerJoin(bays, eq(bays.id, bookings.bayId))
    .where(
      and(
        ...bookingScope(scope, siteId),
        notInArray(bookings.status, [...RELEASED_BOOKING_STATUSES]),
        gte(bookings.startTime, from),
        lt(bookings.startTime, to),
      ),
    );
}

const listColumns = {
  id: bookings.id,
  version: bookings.version,
  status: bookings.status,
  tsrNumber: bookings.tsrNumber,
  tenantName: bookings.tenantName,
  vehicleType: bookings.vehicleType,
  vehicleRegistration: bookings.vehicleRegistration,
  siteId: bookings.siteId,
  siteName: sites.name,
  bayId: bookings.bayId,
  bayName: bays.name,
  timeZone: sites.timeZone,
  startTime: bookings.startTime,
  endTime: bookings.endTime,
  createdAt: bookings.createdAt,
};

function listBookingsWhere(db: Conn, where: SQL[]) {
  return db
    .select(listColumns)
    .from(bookings)
    .innerJoin(sites, eq(sites.id, bookings.siteId))
    .innerJoin(bays, eq(bays.id, bookings.bayId))
    .where(and(...where));
}

export type DashboardBookingRow = Awaited<ReturnType<typeof listRecent>>[number];

/** The latest booking requests, newest first. */
export function listRecent(db: Conn, scope: OrgScope, siteId: string | null, limit: number) {
  return listBookingsWhere(db, bookingScope(scope, siteId)).orderBy(desc(bookings.createdAt), desc(bookings.id)).limit(limit);
}

/** Every booking whose vehicle is on site now (bounded by the bays), by start. */
export function listOnSite(db: Conn, scope: OrgScope, siteId: string | null) {
  return listBookingsWhere(db, [...bookingScope(scope, siteId), inArray(bookings.status, [...ON_SITE_STATUSES])]).orderBy(
    asc(bookings.startTime),
    asc(bookings.id),
  );
}

/** Pending or approved bookings starting from now until the end of their site's day, by start. */
export function listUpcoming(db: Conn, scope: OrgScope, siteId: string | null, now: Date, dayEnds: Array<{ siteId: string; end: Date }>, limit: number) {
  if (dayEnds.length === 0) return Promise.resolve([]);
  const untilEndOfDay = or(...dayEnds.map((d) => and(eq(bookings.siteId, d.siteId), lt(bookings.startTime, d.end))))!;
  return listBookingsWhere(db, [...bookingScope(scope, siteId), inArray(bookings.status, ['pending', 'approved']), gte(bookings.startTime, now), untilEndOfDay])
    .orderBy(asc(bookings.startTime), asc(bookings.id))
    .limit(limit);
}
