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

/** A booking with the names a person reads (organization, site, bay) and the site's time zone. */
export function findBookingView(db: Conn, where: { id: string } | { manageTokenHash: string }, forUpdate = false) {
  const query = db
    .select(bookingView)
    .from(bookings)
    .innerJoin(organizations, eq(organizations.id, bookings.orgId))
    .innerJoin(sites, eq(sites.id, bookings.siteId))
    .innerJoin(bays, eq(bays.id, bookings.bayId))
    .where('id' in where ? eq(bookings.id, where.id) : eq(bookings.manageTokenHash, where.manageTokenHash));
  return (forUpdate ? query.for('update', { of: bookings }) : query).then((rows) => rows[0]);
}
export type BookingView = NonNullable<Awaited<ReturnType<typeof findBookingView>>>;

export function countDocuments(db: Conn, bookingId: string) {
  return db
    .select({ id: bookingDocuments.id })
    .from(bookingDocuments)
    .where(eq(bookingDocuments.bookingId, bookingId))
    .then((rows) => rows.length);
}

export type BookingUpdate = Partial<typeof bookings.$inferInsert>;

export function updateBooking(db: Conn, id: string, values: BookingUpdate) {
  return db.update(bookings).set(values).where(eq(bookings.id, id));
}
