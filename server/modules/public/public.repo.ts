import { and, asc, count, eq, gt, inArray, lt, notInArray, sql } from 'drizzle-orm';
import { ON_SITE_STATUSES, RELEASED_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import type { Db, Tx } from '../../db/client';
import {
  bays,
  bookings,
  organizations,
  quoteRequests,
  sites,
  users,
} from '../../db/schema';

// Read models of the public (signed-out) screens. Only active organizations with status 'active'
// are ever visible here.

const visibleOrganization = and(eq(organizations.active, true), eq(organizations.status, 'active'));
const visibleSite = and(eq(sites.active, true), visibleOrganization);
/** A vehicle on site: arrived at the gate, at a bay, or over its time at a bay. */
const liveBooking = notInArray(bookings.status, [...RELEASED_BOOKING_STATUSES]);

export async function listVisibleOrganizations(db: Db) {
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(visibleOrganization)
    .orderBy(asc(organizations.name), asc(organizations.id));
}

/** Visible sites of every visible organization (the public portal's picker). */
export async function listVisibleSitesAnyOrg(db: Db) {
  return db
    .select({
      id: sites.id,
      name: sites.name,
      orgId: sites.orgId,
      orgName: organizations.name,
      emergencyContacts: sites.emergencyContacts,
    })
    .from(sites)
    .innerJoin(organizations, eq(organizations.id, sites.orgId))
    .where(visibleSite)
    .orderBy(asc(organizations.name), asc(sites.name), asc(sites.id));
}

export async function findVisibleSiteAnyOrg(db: Db, siteId: string) {
  const [row] = await db
    .select({ id: sites.id, name: sites.name, timeZone: sites.timeZone, operatingHours: sites.operatingHours })
    .from(sites)
    .innerJoin(organizations, eq(organizations.id, sites.orgId))
    .where(and(eq(sites.id, siteId), visibleSite));
  return row;
}



export async function countVisibleOrganizations(db: Db): Promise<number> {
  const [row] = await db.select({ value: count() }).from(organizations).where(visibleOrganization);
  return row?.value ?? 0;
}

export async function countActiveUsers(db: Db): Promise<number> {
  const [row] = await db.select({ value: count() }).from(users).where(eq(users.active, true));
  return row?.value ?? 0;
}


/**
 * Platform-wide figures over visible organizations. "Today" is each site's own calendar day in
 * its time zone; the range pre-filter keeps the per-row conversion on a handful of rows.
 */
export async function overviewCountsAnyOrg(db: Db, now: Date) {
  const nowIso = now.toISOString();
  const bookingsOfVisibleSites = () =>
    db
      .select({ value: count() })
      .from(bookings)
      .innerJoin(sites, eq(sites.id, bookings.siteId))
      .innerJoin(organizations, eq(organizations.id, bookings.orgId));
  const [[today], [pending], [onSite], [activeBays]] = await Promise.all([
    bookingsOfVisibleSites().where(
      and(
        visibleOrganization,
        liveBooking,
        gt(bookings.startTime, new Date(now.getTime() - 36 * 3_600_000)),
        lt(bookings.startTime, new Date(now.getTime() + 36 * 3_600_000)),
        sql`(${bookings.startTime} at time zone ${sites.timeZone})::date = (${nowIso}::timestamptz at time zone ${sites.timeZone})::date`,
      ),
    ),
    bookingsOfVisibleSites().where(
      and(visibleOrganization, eq(bookings.status, 'pending'), gt(bookings.endTime, now)),
    ),
    bookingsOfVisibleSites().where(and(visibleOrganization, inArray(bookings.status, [...ON_SITE_STATUSES]))),
    db
      .select({ value: count() })
      .from(bays)
      .innerJoin(sites, eq(sites.id, bays.siteId))
      .innerJoin(organizations, eq(organizations.id, bays.orgId))
      .where(and(eq(bays.active, true), visibleSite)),
  ]);
  return {
    bookingsToday: today?.value ?? 0,
    pendingRequests: pending?.value ?? 0,
    checkedInNow: onSite?.value ?? 0,
    activeBays: activeBays?.value ?? 0,
  };
}

export async function insertQuoteRequest(
  tx: Tx,
  values: { name: string; company: string; email: string; phone: string | null; sites: number | null; message: string | null },
): Promise<string> {
  const [row] = await tx.insert(quoteRequests).values(values).returning({ id: quoteRequests.id });
  return row!.id;
}
