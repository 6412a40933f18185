import { and, count, desc, eq, gte, inArray, or, sql } from 'drizzle-orm';
import { ON_SITE_STATUSES } from '../../../domain/booking-lifecycle';
import type { Db, Tx } from '../../db/client';
import { bays, bookings, organizations, plateReads, sites } from '../../db/schema';

// SQL of plate reads: the site's vehicles to match against, the reads themselves. Every query
// names the organization and the site (`{ orgId, siteId }`).

type Conn = Db | Tx;
/** One site of one organization. */
export type SiteScope = { orgId: string; siteId: string };

/** Approved bookings starting this long before now still count as expected (late arrivals). */
export const EXPECTED_BEFORE_MS = 2 * 3_600_000;
/** … and this long after now (early arrivals). */
export const EXPECTED_AFTER_MS = 4 * 3_600_000;

export type SiteVehicle = {
  plate: string;
  bookingId: string;
  version: number;
  tsrNumber: string;
  tenantName: string;
  vehicleRegistration: string;
  bayName: string;
  startTime: Date;
  status: string;
};

/** One entry per booking, with what the gate shows of it. */
const siteVehicleQuery = (db: Conn) =>
  db
    .select({
      plate: bookings.vehicleRegistration,
      bookingId: bookings.id,
      version: bookings.version,
      tsrNumber: bookings.tsrNumber,
      tenantName: bookings.tenantName,
      vehicleRegistration: bookings.vehicleRegistration,
      bayName: bays.name,
      startTime: bookings.startTime,
      status: bookings.status,
    })
    .from(bookings)
    .innerJoin(bays, eq(bays.id, bookings.bayId));

/** The site's expected (approved, starting within [now − 2 h, now + 4 h]) and on-site vehicles: one entry per booking. */
export function findSiteVehicles(db: Conn, site: SiteScope, now: Date): Promise<SiteVehicle[]> {
  const from = new Date(now.getTime() - EXPECTED_BEFORE_MS);
  const to = new Date(now.getTime() + EXPECTED_AFTER_MS);
  return siteVehicleQuery(db)
    .where(
      and(
        eq(bookings.orgId, site.orgId),
        eq(bookings.siteId, site.siteId),
        or(
          and(eq(bookings.status, 'approved'), gte(bookings.startTime, from), sql`${bookings.startTime} <= ${to}`),
          inArray(bookings.status, [...ON_SITE_STATUSES]),
        ),
      ),
    );
}

/**
 * The site's bookings (approved or pending) starting after `from` and before `to` (later today,
 * for a read nothing expected matched). One entry per booking, earliest first.
 */
export function findLaterBookings(db: Conn, site: SiteScope, from: Date, to: Date): Promise<SiteVehicle[]> {
  return siteVehicleQuery(db)
    .where(
      and(
        eq(bookings.orgId, site.orgId),
        eq(bookings.siteId, site.siteId),
        inArray(bookings.status, ['approved', 'pending']),
        sql`${bookings.startTime} > ${from}`,
        sql`${bookings.startTime} < ${to}`,
      ),
    )
    .orderBy(bookings.startTime);
}

/** The site's time zone (IANA), or undefined when the site is not the organization's. */
export async function findSiteTimeZone(db: Conn, site: SiteScope): Promise<string | undefined> {
  const [row] = await db.select({ timeZone: sites.timeZone }).from(sites).where(and(eq(sites.orgId, site.orgId), eq(sites.id, site.siteId)));
  return row?.timeZone;
}

export type PlateReadRow = typeof plateReads.$inferSelect;

/** Reads at the site created at or after `since`, oldest first (for the 60-second repeat rule). */
export function findReadsSince(db: Conn, site: SiteScope, since: Date): Promise<PlateReadRow[]> {
  return db
    .select()
    .from(plateReads)
    .where(and(eq(plateReads.orgId, site.orgId), eq(plateReads.siteId, site.siteId), gte(plateReads.createdAt, since)))
    .orderBy(plateReads.createdAt, plateReads.id);
}

export async function insertRead(db: Conn, values: typeof plateReads.$inferInsert): Promise<PlateReadRow> {
  const [row] = await db.insert(plateReads).values(values).returning();
  return row!;
}

const readOfSite = (site: SiteScope, id: string) => and(eq(plateReads.orgId, site.orgId), eq(plateReads.siteId, site.siteId), eq(plateReads.id, id));

export async function findRead(db: Conn, site: SiteScope, id: string): Promise<PlateReadRow | undefined> {
  const [row] = await db.select().from(plateReads).where(readOfSite(site, id));
  return row;
}

export async function updateRead(db: Conn, site: SiteScope, id: string, values: Partial<typeof plateReads.$inferInsert>): Promise<PlateReadRow> {
  const [row] = await db.update(plateReads).set(values).where(readOfSite(site, id)).returning();
  return row!;
}

export async function listReads(db: Conn, site: SiteScope, status: string | undefined, limit: number, offset: number) {
  const where = and(
    eq(plateReads.orgId, site.orgId),
    eq(plateReads.siteId, site.siteId),
    status ? eq(plateReads.status, status) : inArray(plateReads.status, ['unmatched', 'ambiguous']),
  );
  const rows = await db.select().from(plateReads).where(where).orderBy(desc(plateReads.createdAt), desc(plateReads.id)).limit(limit).offset(offset);
  const [total] = await db.select({ n: count() }).from(plateReads).where(where);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function findOrgSettings(db: Conn, orgId: string): Promise<unknown> {
  const [row] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
  return row?.settings ?? {};
}

/** A booking of the site (for resolving a read), or undefined. */
export async function findSiteBooking(db: Conn, site: SiteScope, bookingId: string) {
  const [row] = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.orgId, site.orgId), eq(bookings.siteId, site.siteId), eq(bookings.id, bookingId)));
  return row;
}
