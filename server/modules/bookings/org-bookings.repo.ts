import { and, asc, desc, eq, ilike, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { bookingListQuerySchema } from '../../../domain/org-bookings';
import type { Db, Tx } from '../../db/client';
import { auditLog, bays, bookingDocuments, bookings, sites, sscAppointments } from '../../db/schema';
import type { OrgScope } from '../../plugins/org-scope';

// The organization's bookings, always within the caller's scope: every query starts from
// `bookings.org_id = scope.orgId`.

type Conn = Db | Tx;
type ListQuery = z.output<typeof bookingListQuerySchema>;

const SORT_COLUMNS = {
  startTime: bookings.startTime,
  createdAt: bookings.createdAt,
  tenantName: bookings.tenantName,
  status: bookings.status,
  tsrNumber: bookings.tsrNumber,
} as const;

/** `%` and `_` typed by a person are literal characters, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const listColumns = {
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
};

export async function listBookings(db: Conn, scope: OrgScope, query: ListQuery) {
  const where: SQL[] = [eq(bookings.orgId, scope.orgId)];
  if (query.status?.length) where.push(inArray(bookings.status, query.status));
  if (query.siteId) where.push(eq(bookings.siteId, query.siteId));
  if (query.bayId) where.push(eq(bookings.bayId, query.bayId));
  // Days are the site's own calendar days.
  if (query.from) where.push(sql`(${bookings.startTime} at time zone ${sites.timeZone})::date >= ${query.from}::date`);
  if (query.to) where.push(sql`(${bookings.startTime} at time zone ${sites.timeZone})::date <= ${query.to}::date`);
  if (query.q) {
    const pattern = likePattern(query.q);
    where.push(or(ilike(bookings.tsrNumber, pattern), ilike(bookings.tenantName, pattern), ilike(bookings.vehicleRegistration, pattern))!);
  }
  const column = SORT_COLUMNS[query.sort];
  const order = query.order === 'desc' ? desc(column) : asc(column);
  const rows = await db
    .select({ ...listColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(bookings)
    .innerJoin(sites, eq(sites.id, bookings.siteId))
    .innerJoin(bays, eq(bays.id, bookings.bayId))
    .where(and(...where))
    .orderBy(order, asc(bookings.startTime), asc(bookings.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const total = rows[0]?.total ?? (query.page > 1 ? await countBookings(db, where) : 0);
  return { rows: rows.map(({ total: _total, ...row }) => row), total };
}

/** The count when the page is past the end (no row carries the window count). */
async function countBookings(db: Conn, where: SQL[]) {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(bookings)
    .innerJoin(sites, eq(sites.id, bookings.siteId))
    .where(and(...where));
  return row?.n ?? 0;
}

/** The organization's active sites, by name (the admin form's availability per site). */
export function listActiveSites(db: Conn, scope: OrgScope) {
  return db
    .select({ id: sites.id, name: sites.name, timeZone: sites.timeZone })
    .from(sites)
    .where(and(eq(sites.orgId, scope.orgId), eq(sites.active, true)))
    .orderBy(asc(sites.name));
}

export async function findBooking(db: Conn, scope: OrgScope, bookingId: string) {
  const [row] = await db
    .select({ booking: bookings, siteName: sites.name, bayName: bays.name, timeZone: sites.timeZone, emergencyAt: sites.emergencyAt, emergencyReason: sites.emergencyReason })
    .from(bookings)
    .innerJoin(sites, eq(sites.id, bookings.siteId))
    .innerJoin(bays, eq(bays.id, bookings.bayId))
    .where(and(eq(bookings.orgId, scope.orgId), eq(bookings.id, bookingId)));
  return row;
}

export function listDocuments(db: Conn, scope: OrgScope, bookingId: string) {
  return db
    .select()
    .from(bookingDocuments)
    .where(and(eq(bookingDocuments.orgId, scope.orgId), eq(bookingDocuments.bookingId, bookingId)))
    .orderBy(asc(bookingDocuments.createdAt), asc(bookingDocuments.fileName));
}

export async function findDocument(db: Conn, scope: OrgScope, bookingId: string, documentId: string) {
  const [row] = await db
    .select()
    .from(bookingDocuments)
    .where(and(eq(bookingDocuments.orgId, scope.orgId), eq(bookingDocuments.bookingId, bookingId), eq(bookingDocuments.id, documentId)));
  return row;
}

/** A carrier's reschedule awaiting the site (SSC, docs/ssc-mapping.md), if any. */
export async function findRescheduleRequest(db: Conn, scope: OrgScope, bookingId: string) {
  const [row] = await db
    .select({ startTime: sscAppointments.requestedStartTime, durationMin: sscAppointments.requestedDurationMin, requestedAt: sscAppointments.requestedAt, reasonCode: sscAppointments.lastReasonCode, comment: sscAppointments.lastComment })
    .from(sscAppointments)
    .where(and(eq(sscAppointments.orgId, scope.orgId), eq(sscAppointments.bookingId, bookingId), isNotNull(sscAppointments.requestedStartTime)));
  return row;
}

/** The booking's audit entries, oldest first. */
export function listHistory(db: Conn, scope: OrgScope, bookingId: string) {
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.orgId, scope.orgId), eq(auditLog.resourceType, 'booking'), eq(auditLog.resourceId, bookingId)))
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
}
