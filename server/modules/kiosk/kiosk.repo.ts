import { and, asc, desc, eq, gte, isNull, lt, or, sql } from 'drizzle-orm';
import { WITHDRAWN_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import type { Db, Tx } from '../../db/client';
import { statusList } from '../../db/sql-status';
import { bays, bookings, kioskWalkInRequests, organizations, siteKioskDevices, sites, users } from '../../db/schema';

// The kiosk's SQL: its devices, the bookings of its site it may find, the queue, the walk-in
// requests. Every query names the organization and, for what the kiosk itself reads, its site.

type Conn = Db | Tx;

// ---- Devices ------------------------------------------------------------------------------------

const deviceRow = {
  id: siteKioskDevices.id,
  name: siteKioskDevices.name,
  siteId: siteKioskDevices.siteId,
  siteName: sites.name,
  hint: siteKioskDevices.tokenHint,
  createdAt: siteKioskDevices.createdAt,
  createdByEmail: users.email,
  lastUsedAt: siteKioskDevices.lastUsedAt,
  revokedAt: siteKioskDevices.revokedAt,
};

/** Every kiosk of the organization: active first, newest first. */
export function listDevices(db: Conn, orgId: string) {
  return db
    .select(deviceRow)
    .from(siteKioskDevices)
    .innerJoin(sites, and(eq(sites.id, siteKioskDevices.siteId), eq(sites.orgId, siteKioskDevices.orgId)))
    .leftJoin(users, eq(users.id, siteKioskDevices.createdBy))
    .where(eq(siteKioskDevices.orgId, orgId))
    .orderBy(sql`${siteKioskDevices.revokedAt} is not null`, desc(siteKioskDevices.createdAt), desc(siteKioskDevices.id));
}

export function findDeviceById(db: Conn, orgId: string, id: string) {
  return db
    .select(deviceRow)
    .from(siteKioskDevices)
    .innerJoin(sites, eq(sites.id, siteKioskDevices.siteId))
    .leftJoin(users, eq(users.id, siteKioskDevices.createdBy))
    .where(and(eq(siteKioskDevices.orgId, orgId), eq(siteKioskDevices.id, id)))
    .then((rows) => rows[0]);
}

export function findSite(db: Conn, orgId: string, siteId: string) {
  return db
    .select({ id: sites.id, name: sites.name, active: sites.active })
    .from(sites)
    .where(and(eq(sites.orgId, orgId), eq(sites.id, siteId)))
    .then((rows) => rows[0]);
}

export function countActiveDevices(db: Conn, orgId: string, siteId: string) {
  return db
    .select({ n: sql<number>`count(*)::int` })
    .from(siteKioskDevices)
    .where(and(eq(siteKioskDevices.orgId, orgId), eq(siteKioskDevices.siteId, siteId), isNull(siteKioskDevices.revokedAt)))
    .then((rows) => Number(rows[0]?.n ?? 0));
}

export function insertDevice(db: Conn, values: typeof siteKioskDevices.$inferInsert) {
  return db
    .insert(siteKioskDevices)
    .values(values)
    .returning({ id: siteKioskDevices.id })
    .then((rows) => rows[0]!);
}

/** Revokes a live device; returns it, or nothing when it was not live (or not this organization's). */
export function revokeDevice(db: Conn, orgId: string, id: string, at: Date) {
  return db
    .update(siteKioskDevices)
    .set({ revokedAt: at })
    .where(and(eq(siteKioskDevices.orgId, orgId), eq(siteKioskDevices.id, id), isNull(siteKioskDevices.revokedAt)))
    .returning({ id: siteKioskDevices.id, siteId: siteKioskDevices.siteId, name: siteKioskDevices.name, hint: siteKioskDevices.tokenHint })
    .then((rows) => rows[0]);
}

/** A device by the hash of its secret, with its site and organization (any organization: the secret is the credential). */
export function findDeviceByHashAnyOrg(db: Conn, tokenHash: string) {
  return db
    .select({
      id: siteKioskDevices.id,
      name: siteKioskDevices.name,
      orgId: siteKioskDevices.orgId,
      siteId: siteKioskDevices.siteId,
      revokedAt: siteKioskDevices.revokedAt,
      siteName: sites.name,
      siteActive: sites.active,
      timeZone: sites.timeZone,
      orgName: organizations.name,
      orgActive: organizations.active,
      orgStatus: organizations.status,
      logoKey: organizations.logoKey,
      logoContentType: organizations.logoContentType,
      /** The settings' portal section only (kiosk-devices.ts reads the default language from it). */
      orgPortalSettings: sql<unknown>`${organizations.settings} -> 'portal'`,
    })
    .from(siteKioskDevices)
    .innerJoin(sites, and(eq(sites.id, siteKioskDevices.siteId), eq(sites.orgId, siteKioskDevices.orgId)))
    .innerJoin(organizations, eq(organizations.id, siteKioskDevices.orgId))
    .where(eq(siteKioskDevices.tokenHash, tokenHash))
    .then((rows) => rows[0]);
}

/** Sets the last use, unless it is already after `unlessAfter`. */
export function touchDevice(db: Conn, device: { orgId: string; id: string }, at: Date, unlessAfter: Date) {
  return db
    .update(siteKioskDevices)
    .set({ lastUsedAt: at })
    .where(
      and(
        eq(siteKioskDevices.orgId, device.orgId),
        eq(siteKioskDevices.id, device.id),
        or(isNull(siteKioskDevices.lastUsedAt), lt(siteKioskDevices.lastUsedAt, unlessAfter)),
      ),
    );
}

// ---- Bookings the kiosk may find ----------------------------------------------------------------

const kioskBookingRow = {
  id: bookings.id,
  status: bookings.status,
  startTime: bookings.startTime,
  vehicleRegistration: bookings.vehicleRegistration,
  tsrNumber: bookings.tsrNumber,
  bayName: bays.name,
  checkedInAt: bookings.checkedInAt,
};
export type KioskBookingRow = Awaited<ReturnType<typeof listSiteBookings>>[number];

/** The site's bookings starting in [from, to), neither declined nor cancelled: those whose code or plate a driver may give. */
export function listSiteBookings(db: Conn, site: { orgId: string; siteId: string }, from: Date, to: Date) {
  return db
    .select(kioskBookingRow)
    .from(bookings)
    .innerJoin(bays, eq(bays.id, bookings.bayId))
    .where(
      and(
        eq(bookings.orgId, site.orgId),
        eq(bookings.siteId, site.siteId),
        gte(bookings.startTime, from),
        lt(bookings.startTime, to),
        sql`${bookings.status} not in (${statusList(WITHDRAWN_BOOKING_STATUSES)})`,
      ),
    )
    .orderBy(asc(bookings.startTime), asc(bookings.id));
}

/** One booking of the site. */
export function findSiteBooking(db: Conn, site: { orgId: string; siteId: string }, id: string) {
  return db
    .select(kioskBookingRow)
    .from(bookings)
    .innerJoin(bays, eq(bays.id, bookings.bayId))
    .where(and(eq(bookings.orgId, site.orgId), eq(bookings.siteId, site.siteId), eq(bookings.id, id)))
    .then((rows) => rows[0]);
}

/** The place in the site's queue (checked in, first come first — the gate queue's order) of a booking checked in at `checkedInAt`. */
export function queuePosition(db: Conn, site: { orgId: string; siteId: string }, booking: { id: string; checkedInAt: Date; startTime: Date }) {
  return db
    .select({ n: sql<number>`count(*)::int` })
    .from(bookings)
    .where(
      and(
        eq(bookings.orgId, site.orgId),
        eq(bookings.siteId, site.siteId),
        eq(bookings.status, 'checked_in'),
        sql`(${bookings.checkedInAt}, ${bookings.startTime}, ${bookings.id}) <= (${booking.checkedInAt.toISOString()}::timestamptz, ${booking.startTime.toISOString()}::timestamptz, ${booking.id}::uuid)`,
      ),
    )
    .then((rows) => Math.max(1, Number(rows[0]?.n ?? 1)));
}

// ---- Walk-in requests ---------------------------------------------------------------------------

const requestRow = {
  id: kioskWalkInRequests.id,
  status: kioskWalkInRequests.status,
  vehicleRegistration: kioskWalkInRequests.vehicleRegistration,
  companyName: kioskWalkInRequests.companyName,
  driverName: kioskWalkInRequests.driverName,
  driverPhone: kioskWalkInRequests.driverPhone,
  bookingType: kioskWalkInRequests.bookingType,
  deviceName: siteKioskDevices.name,
  createdAt: kioskWalkInRequests.createdAt,
  bookingId: kioskWalkInRequests.bookingId,
  decisionReason: kioskWalkInRequests.decisionReason,
};
export type WalkInRequestRow = NonNullable<Awaited<ReturnType<typeof findRequest>>>;

export function insertRequest(db: Conn, values: typeof kioskWalkInRequests.$inferInsert) {
  return db
    .insert(kioskWalkInRequests)
    .values(values)
    .returning({ id: kioskWalkInRequests.id, status: kioskWalkInRequests.status })
    .then((rows) => rows[0]!);
}

/** Pending requests of the site made in the last `since`…now, oldest first. */
export function listPendingRequests(db: Conn, site: { orgId: string; siteId: string }, since: Date) {
  return db
    .select(requestRow)
    .from(kioskWalkInRequests)
    .leftJoin(siteKioskDevices, eq(siteKioskDevices.id, kioskWalkInRequests.deviceId))
    .where(
      and(
        eq(kioskWalkInRequests.orgId, site.orgId),
        eq(kioskWalkInRequests.siteId, site.siteId),
        eq(kioskWalkInRequests.status, 'pending'),
        gte(kioskWalkInRequests.createdAt, since),
      ),
    )
    .orderBy(asc(kioskWalkInRequests.createdAt), asc(kioskWalkInRequests.id));
}

export function findRequest(db: Conn, site: { orgId: string; siteId: string }, id: string) {
  return db
    .select(requestRow)
    .from(kioskWalkInRequests)
    .leftJoin(siteKioskDevices, eq(siteKioskDevices.id, kioskWalkInRequests.deviceId))
    .where(and(eq(kioskWalkInRequests.orgId, site.orgId), eq(kioskWalkInRequests.siteId, site.siteId), eq(kioskWalkInRequests.id, id)))
    .then((rows) => rows[0]);
}

/** Decides a pending request (accepted with its booking, or declined); nothing when it was not pending. */
export function decideRequest(
  db: Conn,
  site: { orgId: string; siteId: string },
  id: string,
  decision: { status: 'accepted' | 'declined'; bookingId?: string | null; by: string | null; at: Date; reason?: string | null },
) {
  return db
    .update(kioskWalkInRequests)
    .set({ status: decision.status, bookingId: decision.bookingId ?? null, decidedBy: decision.by, decidedAt: decision.at, decisionReason: decision.reason ?? null })
    .where(
      and(
        eq(kioskWalkInRequests.orgId, site.orgId),
        eq(kioskWalkInRequests.siteId, site.siteId),
        eq(kioskWalkInRequests.id, id),
        eq(kioskWalkInRequests.status, 'pending'),
      ),
    )
    .returning({ id: kioskWalkInRequests.id, vehicleRegistration: kioskWalkInRequests.vehicleRegistration, companyName: kioskWalkInRequests.companyName })
    .then((rows) => rows[0]);
}
