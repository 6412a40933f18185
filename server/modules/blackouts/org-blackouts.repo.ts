import { and, asc, count, eq, gte, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { blackoutListQuerySchema } from '../../../domain/org-blackouts';
import type { Db, Tx } from '../../db/client';
import { bays, blackoutSeries, blackouts, sites } from '../../db/schema';

// Blackouts and their series, always within one organization: every query starts from
// `org_id = orgId` (the caller's scope).

type Conn = Db | Tx;
type ListQuery = z.output<typeof blackoutListQuerySchema>;

export async function findSite(db: Conn, orgId: string, siteId: string) {
  const [row] = await db
    .select({ id: sites.id, name: sites.name, timeZone: sites.timeZone })
    .from(sites)
    .where(and(eq(sites.orgId, orgId), eq(sites.id, siteId)));
  return row;
}

export async function findBay(db: Conn, orgId: string, bayId: string) {
  const [row] = await db
    .select({ id: bays.id, name: bays.name, siteId: bays.siteId })
    .from(bays)
    .where(and(eq(bays.orgId, orgId), eq(bays.id, bayId)));
  return row;
}

/** The organization's sites with their bays (for the filters and the form). */
export async function listSitesWithBays(db: Conn, orgId: string) {
  return db
    .select({ siteId: sites.id, siteName: sites.name, timeZone: sites.timeZone, siteActive: sites.active, bayId: bays.id, bayName: bays.name, bayActive: bays.active })
    .from(sites)
    .leftJoin(bays, eq(bays.siteId, sites.id))
    .where(eq(sites.orgId, orgId))
    .orderBy(asc(sites.name), asc(bays.sortKey), asc(bays.id));
}

const itemColumns = {
  id: blackouts.id,
  kind: blackouts.kind,
  siteId: blackouts.siteId,
  siteName: sites.name,
  timeZone: sites.timeZone,
  bayId: blackouts.bayId,
  bayName: bays.name,
  startTime: blackouts.startTime,
  endTime: blackouts.endTime,
  reason: blackouts.reason,
  seriesId: blackouts.seriesId,
  seriesRrule: blackoutSeries.rrule,
  seriesStartsOn: blackoutSeries.startsOn,
  seriesStartLocal: blackoutSeries.startLocal,
  seriesDurationMin: blackoutSeries.durationMin,
  createdAt: blackouts.createdAt,
  updatedAt: blackouts.updatedAt,
};
export type BlackoutRow = NonNullable<Awaited<ReturnType<typeof findBlackout>>>;

function itemQuery(db: Conn) {
  return db
    .select(itemColumns)
    .from(blackouts)
    .innerJoin(sites, eq(sites.id, blackouts.siteId))
    .leftJoin(bays, eq(bays.id, blackouts.bayId))
    .leftJoin(blackoutSeries, eq(blackoutSeries.id, blackouts.seriesId));
}

/** One page of blackouts (one-offs, occurrences and holidays), in start order. */
export async function listBlackouts(db: Conn, orgId: string, query: ListQuery, now: Date) {
  const where: SQL[] = [eq(blackouts.orgId, orgId)];
  if (query.siteId) where.push(eq(blackouts.siteId, query.siteId));
  if (query.bayId) {
    // The bay's own blackouts and its site's whole-site ones: every time the bay takes no bookings.
    where.push(
      or(
        eq(blackouts.bayId, query.bayId),
        and(isNull(blackouts.bayId), sql`${blackouts.siteId} = (select site_id from bays where id = ${query.bayId} and org_id = ${orgId})`),
      )!,
    );
  }
  if (query.seriesId) where.push(eq(blackouts.seriesId, query.seriesId));
  // Days are the site's own calendar days; a blackout is listed on every day it covers.
  if (query.from) where.push(sql`(${blackouts.endTime} at time zone ${sites.timeZone}) > ${query.from}::date::timestamp`);
  if (query.to) where.push(sql`(${blackouts.startTime} at time zone ${sites.timeZone})::date <= ${query.to}::date`);
  if (!query.from && !query.to) where.push(sql`${blackouts.endTime} > ${now.toISOString()}::timestamptz`);
  const rows = await itemQuery(db)
    .where(and(...where))
    .orderBy(asc(blackouts.startTime), asc(blackouts.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [{ n }] = await db
    .select({ n: count() })
    .from(blackouts)
    .innerJoin(sites, eq(sites.id, blackouts.siteId))
    .where(and(...where));
  return { rows, total: Number(n) };
}

export async function findBlackout(db: Conn, orgId: string, id: string) {
  const [row] = await itemQuery(db).where(and(eq(blackouts.orgId, orgId), eq(blackouts.id, id)));
  return row;
}

/** Locks the blackout row for the rest of the transaction. */
export async function lockBlackout(tx: Tx, orgId: string, id: string) {
  const [row] = await tx
    .select({ id: blackouts.id })
    .from(blackouts)
    .where(and(eq(blackouts.orgId, orgId), eq(blackouts.id, id)))
    .for('update');
  return row;
}

export async function insertBlackouts(tx: Tx, rows: (typeof blackouts.$inferInsert)[]): Promise<string[]> {
  const ids: string[] = [];
  // Bounded statements: a two-year daily series is ~730 rows.
  for (let i = 0; i < rows.length; i += 500) {
    const inserted = await tx.insert(blackouts).values(rows.slice(i, i + 500)).returning({ id: blackouts.id });
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

export async function updateBlackout(tx: Tx, orgId: string, id: string, values: Partial<typeof blackouts.$inferInsert>) {
  await tx
    .update(blackouts)
    .set(values)
    .where(and(eq(blackouts.orgId, orgId), eq(blackouts.id, id)));
}

export async function deleteBlackout(tx: Tx, orgId: string, id: string) {
  await tx.delete(blackouts).where(and(eq(blackouts.orgId, orgId), eq(blackouts.id, id)));
}

// --- series -----------------------------------------------------------------------------------

const seriesColumns = (now: Date) => ({
  series: blackoutSeries,
  siteName: sites.name,
  timeZone: sites.timeZone,
  bayName: bays.name,
  upcomingCount: sql<number>`(select count(*) from blackouts x where x.series_id = ${blackoutSeries.id} and x.start_time >= ${now.toISOString()}::timestamptz)`.mapWith(Number),
  nextStart: sql<string | null>`(select min(x.start_time) from blackouts x where x.series_id = ${blackoutSeries.id} and x.end_time > ${now.toISOString()}::timestamptz)`,
});
export type SeriesRow = Awaited<ReturnType<typeof listSeries>>[number];

function seriesQuery(db: Conn, now: Date) {
  return db
    .select(seriesColumns(now))
    .from(blackoutSeries)
    .innerJoin(sites, eq(sites.id, blackoutSeries.siteId))
    .leftJoin(bays, eq(bays.id, blackoutSeries.bayId));
}

export async function listSeries(db: Conn, orgId: string, siteId: string | undefined, now: Date) {
  const where: SQL[] = [eq(blackoutSeries.orgId, orgId)];
  if (siteId) where.push(eq(blackoutSeries.siteId, siteId));
  return seriesQuery(db, now)
    .where(and(...where))
    .orderBy(asc(sites.name), asc(blackoutSeries.startsOn), asc(blackoutSeries.startLocal), asc(blackoutSeries.id));
}

export async function findSeries(db: Conn, orgId: string, id: string, now: Date) {
  const [row] = await seriesQuery(db, now).where(and(eq(blackoutSeries.orgId, orgId), eq(blackoutSeries.id, id)));
  return row;
}

/** Locks the series for the rest of the transaction (edits, deletion and the job queue behind it). */
export async function lockSeries(tx: Tx, orgId: string, id: string) {
  const [row] = await tx
    .select()
    .from(blackoutSeries)
    .where(and(eq(blackoutSeries.orgId, orgId), eq(blackoutSeries.id, id)))
    .for('update');
  return row;
}

export async function insertSeries(tx: Tx, values: typeof blackoutSeries.$inferInsert) {
  const [row] = await tx.insert(blackoutSeries).values(values).returning();
  return row!;
}

export async function updateSeries(tx: Tx, orgId: string, id: string, values: Partial<typeof blackoutSeries.$inferInsert>) {
  await tx
    .update(blackoutSeries)
    .set(values)
    .where(and(eq(blackoutSeries.orgId, orgId), eq(blackoutSeries.id, id)));
}

export async function deleteSeries(tx: Tx, orgId: string, id: string) {
  await tx.delete(blackoutSeries).where(and(eq(blackoutSeries.orgId, orgId), eq(blackoutSeries.id, id)));
}

/** The series' occurrences starting at or after `from`, in start order. */
export async function futureOccurrences(tx: Tx, orgId: string, seriesId: string, from: Date) {
  return tx
    .select({ id: blackouts.id, startTime: blackouts.startTime, endTime: blackouts.endTime })
    .from(blackouts)
    .where(and(eq(blackouts.orgId, orgId), eq(blackouts.seriesId, seriesId), gte(blackouts.startTime, from)))
    .orderBy(asc(blackouts.startTime));
}

/** Deletes the series' occurrences starting at or after `from`; returns how many. */
export async function deleteFutureOccurrences(tx: Tx, orgId: string, seriesId: string, from: Date): Promise<number> {
  const deleted = await tx
    .delete(blackouts)
    .where(and(eq(blackouts.orgId, orgId), eq(blackouts.seriesId, seriesId), gte(blackouts.startTime, from)))
    .returning({ id: blackouts.id });
  return deleted.length;
}

/** Occurrences that stay as history when their series goes: they become plain blackouts. */
export async function detachOccurrences(tx: Tx, orgId: string, seriesId: string, now: Date): Promise<number> {
  const kept = await tx
    .update(blackouts)
    .set({ seriesId: null, updatedAt: now })
    .where(and(eq(blackouts.orgId, orgId), eq(blackouts.seriesId, seriesId), lt(blackouts.startTime, now)))
    .returning({ id: blackouts.id });
  return kept.length;
}

/** Series of every organization whose occurrences may not reach the horizon yet (the hourly job checks each site's today). */
export async function seriesToExtendAnyOrg(db: Conn) {
  return db
    .select({ id: blackoutSeries.id, orgId: blackoutSeries.orgId, siteId: blackoutSeries.siteId, timeZone: sites.timeZone, expandedUntil: blackoutSeries.expandedUntil, until: blackoutSeries.until })
    .from(blackoutSeries)
    .innerJoin(sites, eq(sites.id, blackoutSeries.siteId))
    .where(or(isNull(blackoutSeries.until), isNull(blackoutSeries.expandedUntil), lt(blackoutSeries.expandedUntil, blackoutSeries.until)))
    .orderBy(asc(blackoutSeries.expandedUntil), asc(blackoutSeries.id));
}
