import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { bays, bookingDocuments, bookings, organizations, sites } from '../../db/schema';

type Conn = Db | Tx;

export function insertBooking(db: Conn, values: typeof bookings.$inferInsert) {
  return db
    .insert(bookings)
    .values(values)
    .returning()
    .then((rows) => rows[0]!);
}

export function insertDocument(db: Conn, values: typeof bookingDocuments.$inferInsert) {
  return db.insert(bookingDocuments).values(values);
}

export function findByIdempotencyKey(db: Conn, orgId: string, key: string) {
  return db
    .select({ id: bookings.id, fingerprint: bookings.idempotencyFingerprint })
    .from(bookings)
    .where(and(eq(bookings.orgId, orgId), eq(bookings.idempotencyKey, key)))
    .then((rows) => rows[0]);
}

const bookingView = {
  booking: bookings,
  orgName: organizations.name,
  siteName: sites.name,
  siteAddress: sites.address,
  timeZone: sites.timeZone,
  bayName: bays.name,
};

/** One booking of one organization: every query of a booking names both. */
export type BookingKey = { orgId: string; id: string };

const byKey = (key: BookingKey) => and(eq(bookings.orgId, key.orgId), eq(bookings.id, key.id));

function viewQuery(db: Conn) {
  return db
    .select(bookingView)
    .from(bookings)
    .innerJoin(organizations, eq(organizations.id, bookings.orgId))
    .innerJoin(sites, eq(sites.id, bookings.siteId))
    .innerJoin(bays, eq(bays.id, bookings.bayId));
}

/**
 * A booking with the names a person reads (organization, site, bay) and the site's time zone.
 * `forUpdate` locks the booking row alone, then the view is read. Locking the joined view instead
 * (FOR UPDATE OF bookings) lets a waiter that a concurrent move released re-check the moved row
 * against the bay row it had read before waiting: no match, no row, and a racing reschedule
 * answered 404 instead of the 409 its stale version deserves (issue 21 item 7).
 */
export async function findBookingView(db: Conn, key: BookingKey, forUpdate = false) {
  if (forUpdate && (await db.select({ id: bookings.id }).from(bookings).where(byKey(key)).for('update')).length === 0) return undefined;
  return viewQuery(db)
    .where(byKey(key))
    .then((rows) => rows[0]);
}

export type BookingView = NonNullable<Awaited<ReturnType<typeof findBookingView>>>;

/** The booking a manage link's token opens, whichever organization it belongs to (the token is the credential). */
export async function findBookingViewByManageTokenAnyOrg(db: Conn, manageTokenHash: string, forUpdate = false) {
  // Locks the row alone first, as findBookingView does.
  if (forUpdate && (await db.select({ id: bookings.id }).from(bookings).where(eq(bookings.manageTokenHash, manageTokenHash)).for('update')).length === 0) {
    return undefined;
  }
  return viewQuery(db)
    .where(eq(bookings.manageTokenHash, manageTokenHash))
    .then((rows) => rows[0]);
}

/** The booking a queued e-mail names, whichever organization it belongs to (the mail worker serves them all). */
export function findBookingViewAnyOrg(db: Conn, bookingId: string) {
  return viewQuery(db)
    .where(eq(bookings.id, bookingId))
    .then((rows) => rows[0]);
}

export function countDocuments(db: Conn, key: BookingKey) {
  return db
    .select({ id: bookingDocuments.id })
    .from(bookingDocuments)
    .where(and(eq(bookingDocuments.orgId, key.orgId), eq(bookingDocuments.bookingId, key.id)))
    .then((rows) => rows.length);
}

export type BookingUpdate = Partial<typeof bookings.$inferInsert>;

export function updateBooking(db: Conn, key: BookingKey, values: BookingUpdate) {
  return db.update(bookings).set(values).where(byKey(key));
}

export type BookingRow = typeof bookings.$inferSelect;
