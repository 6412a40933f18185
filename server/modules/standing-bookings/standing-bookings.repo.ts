import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { StandingStatus } from '../../../domain/standing-bookings';
import type { Db, Tx } from '../../db/client';
import { bays, bookings, organizations, sites, standingBookingOccurrences as occurrences, standingBookings as series } from '../../db/schema';

// Standing bookings and their occurrences, within one organization: every query filters by org_id
// (the job's scan over every organization ends in AnyOrg).

type Conn = Db | Tx;
export type SeriesRow = typeof series.$inferSelect;
export type SeriesInsert = typeof series.$inferInsert;
export type OccurrenceRow = typeof occurrences.$inferSelect;

const seriesColumns = { series, siteName: sites.name, timeZone: sites.timeZone };

// Written out: correlated on the outer row (drizzle leaves single-table column names unqualified).
// The next booked date from `now` (the app's clock) on, in the site's calendar.
const nextOccurrence = (now: Date) => sql<string | null>`(select min(o.occurrence_date)::text from standing_booking_occurrences o
  where o.standing_booking_id = standing_bookings.id and o.org_id = standing_bookings.org_id and o.status = 'booked'
    and o.occurrence_date >= (${now.toISOString()}::timestamptz at time zone sites.time_zone)::date)`;
const openConflicts = sql<number>`(select count(*) from standing_booking_occurrences o
  where o.standing_booking_id = standing_bookings.id and o.org_id = standing_bookings.org_id and o.status = 'conflict')`.mapWith(Number);

export async function listSeries(db: Conn, orgId: string, now: Date, query: { status?: StandingStatus; page: number; pageSize: number }) {
  const where: SQL[] = [eq(series.orgId, orgId)];
  if (query.status) where.push(eq(series.status, query.status));
  const rows = await db
    .select({ ...seriesColumns, nextOccurrence: nextOccurrence(now), openConflicts })
    .from(series)
    .innerJoin(sites, eq(sites.id, series.siteId))
    .where(and(...where))
    // Requests waiting for a decision first, then the newest.
    .orderBy(sql`${series.status} = 'requested' desc`, desc(series.createdAt), asc(series.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [{ n }] = (await db.select({ n: count() }).from(series).where(and(...where))) as [{ n: number }];
  return { rows, total: n };
}

export async function findSeries(db: Conn, orgId: string, id: string, forUpdate = false, now = new Date()) {
  const q = db
    .select({ ...seriesColumns, nextOccurrence: nextOccurrence(now), openConflicts })
    .from(series)
    .innerJoin(sites, eq(sites.id, series.siteId))
    .where(and(eq(series.id, id), eq(series.orgId, orgId)));
  const [row] = forUpdate ? await q.for('update', { of: series }) : await q;
  return row;
}

export async function insertSeries(tx: Tx, values: SeriesInsert & { orgId: string }): Promise<SeriesRow> {
  const [row] = await tx.insert(series).values(values).returning();
  return row!;
}

export async function updateSeries(tx: Tx, key: { orgId: string; id: string }, values: Partial<SeriesInsert>): Promise<void> {
  await tx
    .update(series)
    .set(values)
    .where(and(eq(series.id, key.id), eq(series.orgId, key.orgId)));
}

/** The last date considered moves forward only (two runs may finish in any order). */
export async function advanceExpandedThrough(tx: Tx, key: { orgId: string; id: string }, through: string): Promise<void> {
  await tx
    .update(series)
    .set({ expandedThrough: sql`greatest(coalesce(${series.expandedThrough}, ${through}::date), ${through}::date)` })
    .where(and(eq(series.id, key.id), eq(series.orgId, key.orgId)));
}

/** Every active series with its site's zone: the job's scan over all organizations. */
export async function listActiveSeriesAnyOrg(db: Conn) {
  return db
    .select(seriesColumns)
    .from(series)
    .innerJoin(sites, eq(sites.id, series.siteId))
    .where(eq(series.status, 'active'))
    .orderBy(asc(series.createdAt));
}

const occurrenceColumns = {
  occurrence: occurrences,
  bookingStatus: bookings.status,
  bookingVersion: bookings.version,
  startTime: bookings.startTime,
  bayName: bays.name,
};

export async function listOccurrences(db: Conn, orgId: string, seriesId: string) {
  return db
    .select(occurrenceColumns)
    .from(occurrences)
    .leftJoin(bookings, and(eq(bookings.id, occurrences.bookingId), eq(bookings.orgId, occurrences.orgId)))
    .leftJoin(bays, eq(bays.id, bookings.bayId))
    .where(and(eq(occurrences.orgId, orgId), eq(occurrences.standingBookingId, seriesId)))
    .orderBy(asc(occurrences.occurrenceDate));
}

export async function findOccurrence(tx: Tx, orgId: string, seriesId: string, date: string) {
  const [row] = await tx
    .select()
    .from(occurrences)
    .where(and(eq(occurrences.orgId, orgId), eq(occurrences.standingBookingId, seriesId), eq(occurrences.occurrenceDate, date)))
    .for('update');
  return row;
}

/** The date's row, written once: undefined when another run (or process) has it already. */
export async function claimOccurrence(tx: Tx, values: { orgId: string; standingBookingId: string; occurrenceDate: string; createdAt: Date }) {
  const [row] = await tx
    .insert(occurrences)
    .values({ ...values, status: 'booked' })
    .onConflictDoNothing({ target: [occurrences.standingBookingId, occurrences.occurrenceDate] })
    .returning();
  return row;
}

export async function updateOccurrence(tx: Tx, key: { orgId: string; seriesId: string; date: string }, values: Partial<typeof occurrences.$inferInsert>): Promise<void> {
  await tx
    .update(occurrences)
    .set(values)
    .where(and(eq(occurrences.orgId, key.orgId), eq(occurrences.standingBookingId, key.seriesId), eq(occurrences.occurrenceDate, key.date)));
}

/** The organization's open conflicts, soonest first, with their series. */
export async function listOpenConflicts(db: Conn, orgId: string) {
  return db
    .select({ ...occurrenceColumns, tsrNumber: series.tsrNumber, tenantName: series.tenantName, startLocal: series.startLocal, siteName: sites.name })
    .from(occurrences)
    .innerJoin(series, and(eq(series.id, occurrences.standingBookingId), eq(series.orgId, occurrences.orgId)))
    .innerJoin(sites, eq(sites.id, series.siteId))
    .leftJoin(bookings, and(eq(bookings.id, occurrences.bookingId), eq(bookings.orgId, occurrences.orgId)))
    .leftJoin(bays, eq(bays.id, bookings.bayId))
    .where(and(eq(occurrences.orgId, orgId), eq(occurrences.status, 'conflict')))
    .orderBy(asc(occurrences.occurrenceDate), asc(series.tsrNumber))
    .limit(500);
}

/** A series as its mail renders it at delivery (the outbox row names it; the row is the credential). */
export async function findSeriesForMailAnyOrg(db: Conn, id: string) {
  const [row] = await db
    .select({ ...seriesColumns, orgName: organizations.name })
    .from(series)
    .innerJoin(sites, eq(sites.id, series.siteId))
    .innerJoin(organizations, eq(organizations.id, series.orgId))
    .where(eq(series.id, id));
  return row;
}
