import { and, asc, count, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import { RELEASED_BOOKING_STATUSES } from '../../../domain/enums';
import type { Db, Tx } from '../../db/client';
import {
  bays,
  billing,
  blackouts,
  bookings,
  organizations,
  plans,
  quoteRequests,
  sites,
  users,
} from '../../db/schema';

// Read models of the public (signed-out) screens. Only active organizations with status 'active'
// are ever visible here.

const visibleOrganization = and(eq(organizations.active, true), eq(organizations.status, 'active'));
const visibleSite = and(eq(sites.active, true), visibleOrganization);
/** A vehicle on site: arrived at the gate, at a bay, or over its time at a bay. */
const ON_SITE_STATUSES = ['checked_in', 'in_progress', 'overstay'];
/** A vehicle physically occupying its bay. */
const AT_BAY_STATUSES = ['in_progress', 'overstay'];
const liveBooking = notInArray(bookings.status, [...RELEASED_BOOKING_STATUSES]);

export async function listVisibleOrganizations(db: Db) {
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(visibleOrganization)
    .orderBy(asc(organizations.name), asc(organizations.id));
}

export async function listVisibleSites(db: Db) {
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

export async function findVisibleSite(db: Db, siteId: string) {
  const [row] = await db
    .select({ id: sites.id, timeZone: sites.timeZone })
    .from(sites)
    .innerJoin(organizations, eq(organizations.id, sites.orgId))
    .where(and(eq(sites.id, siteId), visibleSite));
  return row;
}

/** Bookings of one site starting in [dayStart, dayEnd): expected (live) and already checked in. */
export async function countSiteBookingsBetween(db: Db, siteId: string, dayStart: Date, dayEnd: Date) {
  const [row] = await db
    .select({
      expected: count(),
      checkedIn: sql<number>`count(*) filter (where ${isNotNull(bookings.checkedInAt)})`.mapWith(Number),
    })
    .from(bookings)
    .where(
      and(eq(bookings.siteId, siteId), gte(bookings.startTime, dayStart), lt(bookings.startTime, dayEnd), liveBooking),
    );
  return { expected: row?.expected ?? 0, checkedIn: row?.checkedIn ?? 0 };
}

/** Active bays of a site, and how many of them are free at `now` (no vehicle, no blackout). */
export async function countSiteBays(db: Db, siteId: string, now: Date) {
  const occupied = db
    .select({ bayId: bookings.bayId })
    .from(bookings)
    .where(and(eq(bookings.siteId, siteId), inArray(bookings.status, AT_BAY_STATUSES)));
  const blackedOut = db
    .select({ one: sql`1` })
    .from(blackouts)
    .where(
      and(
        eq(blackouts.siteId, siteId),
        or(isNull(blackouts.bayId), eq(blackouts.bayId, bays.id)),
        lte(blackouts.startTime, now),
        gt(blackouts.endTime, now),
      ),
    );
  const [row] = await db
    .select({
      total: count(),
      available: sql<number>`count(*) filter (where ${bays.id} not in (${occupied}) and not exists (${blackedOut}))`.mapWith(
        Number,
      ),
    })
    .from(bays)
    .where(and(eq(bays.siteId, siteId), eq(bays.active, true)));
  return { total: row?.total ?? 0, available: row?.available ?? 0 };
}

export async function countVisibleOrganizations(db: Db): Promise<number> {
  const [row] = await db.select({ value: count() }).from(organizations).where(visibleOrganization);
  return row?.value ?? 0;
}

export async function countActiveUsers(db: Db): Promise<number> {
  const [row] = await db.select({ value: count() }).from(users).where(eq(users.active, true));
  return row?.value ?? 0;
}

/** The plan of every organization whose subscription is active. */
export async function listActiveSubscriptionPlans(db: Db) {
  return db
    .select({ priceCents: plans.priceCents, interval: plans.interval, currency: plans.currency })
    .from(billing)
    .innerJoin(plans, eq(plans.id, billing.planId))
    .innerJoin(organizations, eq(organizations.id, billing.orgId))
    .where(and(eq(billing.status, 'active'), visibleOrganization));
}

/**
 * Platform-wide figures over visible organizations. "Today" is each site's own calendar day in
 * its time zone; the range pre-filter keeps the per-row conversion on a handful of rows.
 */
export async function overviewCounts(db: Db, now: Date) {
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
    bookingsOfVisibleSites().where(and(visibleOrganization, inArray(bookings.status, ON_SITE_STATUSES))),
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
