import { and, asc, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { blackouts, bookings, sites } from '../../db/schema';
import { LIVE_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import { statusList } from '../../db/sql-status';

// The organization's sites and their holiday closures. Every query starts from the caller's
// organization (`org_id = orgId`), so an id of another organization finds nothing.

type Conn = Db | Tx;

const LIVE = statusList(LIVE_BOOKING_STATUSES);

const siteColumns = {
  id: sites.id,
  orgId: sites.orgId,
  name: sites.name,
  address: sites.address,
  timeZone: sites.timeZone,
  operatingHours: sites.operatingHours,
  slotIntervalMin: sites.slotIntervalMin,
  minAdvanceMin: sites.minAdvanceMin,
  bookingHorizonDays: sites.bookingHorizonDays,
  contactPhone: sites.contactPhone,
  contactEmail: sites.contactEmail,
  emergencyContacts: sites.emergencyContacts,
  active: sites.active,
  createdAt: sites.createdAt,
  updatedAt: sites.updatedAt,
};

const countColumns = (now: Date) => ({
  activeBays: sql<number>`(select count(*) from bays b where b.site_id = sites.id and b.active)`.mapWith(Number),
  upcomingBookings: sql<number>`(select count(*) from bookings k
     where k.site_id = sites.id and k.status in (${LIVE}) and k.end_time > ${now.toISOString()}::timestamptz)`.mapWith(Number),
});

/** Every site of the organization, active or not, by name, with its active bays and upcoming live bookings. */
export function listSites(db: Conn, orgId: string, now: Date) {
  return db
    .select({ ...siteColumns, ...countColumns(now) })
    .from(sites)
    .where(eq(sites.orgId, orgId))
    .orderBy(asc(sites.name), asc(sites.id));
}
export type SiteWithCounts = Awaited<ReturnType<typeof listSites>>[number];

export async function findSiteWithCounts(db: Conn, orgId: string, siteId: string, now: Date): Promise<SiteWithCounts | undefined> {
  const [row] = await db
    .select({ ...siteColumns, ...countColumns(now) })
    .from(sites)
    .where(and(eq(sites.orgId, orgId), eq(sites.id, siteId)));
  return row;
}

/** The site row, locked for the rest of the transaction (changes to one site are serialized). */
export async function lockSite(tx: Tx, orgId: string, siteId: string) {
  const [row] = await tx
    .select(siteColumns)
    .from(sites)
    .where(and(eq(sites.orgId, orgId), eq(sites.id, siteId)))
    .for('update');
  return row;
}
export type SiteRow = NonNullable<Awaited<ReturnType<typeof lockSite>>>;

/** Another site of the organization with the same name whatever its case. */
export async function findSiteNamed(db: Conn, orgId: string, name: string, exceptId?: string) {
  const [row] = await db
    .select({ id: sites.id, name: sites.name })
    .from(sites)
    .where(and(eq(sites.orgId, orgId), sql`lower(${sites.name}) = lower(${name})`, ...(exceptId ? [ne(sites.id, exceptId)] : [])))
    .limit(1);
  return row;
}

export async function insertSite(tx: Tx, values: typeof sites.$inferInsert) {
  const [row] = await tx.insert(sites).values(values).returning({ id: sites.id });
  return row!;
}

export async function updateSite(tx: Tx, orgId: string, siteId: string, values: Partial<typeof sites.$inferInsert>) {
  await tx
    .update(sites)
    .set(values)
    .where(and(eq(sites.orgId, orgId), eq(sites.id, siteId)));
}

/** The site's live bookings that have not ended: just their times (which new hours leave outside is decided in code). */
export function listUpcomingBookingTimes(tx: Tx, orgId: string, siteId: string, now: Date) {
  return tx
    .select({ id: bookings.id, startTime: bookings.startTime, endTime: bookings.endTime })
    .from(bookings)
    .where(
      and(
        eq(bookings.orgId, orgId),
        eq(bookings.siteId, siteId),
        sql`${bookings.status} in (${LIVE})`,
        gt(bookings.endTime, now),
      ),
    );
}

// ── Holiday closures (blackouts of kind 'holiday', the whole site) ───────────────────────────

const holidayColumns = {
  id: blackouts.id,
  siteId: blackouts.siteId,
  reason: blackouts.reason,
  startTime: blackouts.startTime,
  endTime: blackouts.endTime,
  createdAt: blackouts.createdAt,
};

const isHolidayOf = (orgId: string, siteId: string) =>
  and(eq(blackouts.orgId, orgId), eq(blackouts.siteId, siteId), eq(blackouts.kind, 'holiday'));

/** The site's holiday closures that end after `from`, in date order. */
export function listHolidays(db: Conn, orgId: string, siteId: string, from: Date) {
  return db
    .select(holidayColumns)
    .from(blackouts)
    .where(and(isHolidayOf(orgId, siteId), gt(blackouts.endTime, from)))
    .orderBy(asc(blackouts.startTime), asc(blackouts.id))
    .limit(1000);
}
export type HolidayRow = Awaited<ReturnType<typeof listHolidays>>[number];

/** A holiday of the site overlapping [start, end). */
export async function findOverlappingHoliday(db: Conn, orgId: string, siteId: string, start: Date, end: Date) {
  const [row] = await db
    .select(holidayColumns)
    .from(blackouts)
    .where(and(isHolidayOf(orgId, siteId), lt(blackouts.startTime, end), gt(blackouts.endTime, start)))
    .orderBy(asc(blackouts.startTime))
    .limit(1);
  return row;
}

export async function findHoliday(db: Conn, orgId: string, siteId: string, id: string) {
  const [row] = await db
    .select(holidayColumns)
    .from(blackouts)
    .where(and(isHolidayOf(orgId, siteId), eq(blackouts.id, id)));
  return row;
}

export async function insertHoliday(tx: Tx, values: { orgId: string; siteId: string; name: string; start: Date; end: Date; createdBy: string; now: Date }) {
  const [row] = await tx
    .insert(blackouts)
    .values({
      orgId: values.orgId,
      siteId: values.siteId,
      bayId: null,
      kind: 'holiday',
      reason: values.name,
      startTime: values.start,
      endTime: values.end,
      createdBy: values.createdBy,
      createdAt: values.now,
      updatedAt: values.now,
    })
    .returning(holidayColumns);
  return row!;
}

export async function moveHoliday(tx: Tx, orgId: string, id: string, start: Date, end: Date, now: Date) {
  await tx
    .update(blackouts)
    .set({ startTime: start, endTime: end, updatedAt: now })
    .where(and(eq(blackouts.orgId, orgId), eq(blackouts.id, id)));
}

export async function deleteHoliday(tx: Tx, orgId: string, siteId: string, id: string) {
  const rows = await tx
    .delete(blackouts)
    .where(and(isHolidayOf(orgId, siteId), eq(blackouts.id, id)))
    .returning({ id: blackouts.id });
  return rows.length > 0;
}
