// NOT the product's code: two changes this benchmark proposes for getDayAvailability
// (server/modules/availability), measured side by side with the current code.
//
// 1. The busy-interval query. The current one bounds bookings by `org_id = … AND site_id IN (…)
//    AND start_time < to AND end_time > from`. No btree index can bound `end_time > from`, so
//    PostgreSQL reads every booking of the organization that starts before the day's end — its
//    whole history (a sequential scan, or a bitmap over the org_id index) — growing with the table.
//    The proposed one asks the range-overlap question the exclusion constraint's GiST index answers:
//      bay_id IN (compatible bays) AND tstzrange(start_time, end_time, '[)') && tstzrange(from, to, '[)')
//      AND status NOT IN ('declined', 'cancelled', 'no_show')   -- literally the index's predicate
//    so it reads only the bookings that overlap the day. It has no `org_id = …` term on purpose: the
//    bay ids come from the organization-scoped bays query, and with that term the planner ANDs in a
//    bitmap of the organization's every booking (bookings_idempotency_idx), O(history) again.
// 2. One round trip of wall time. Today organization, bays, then busy intervals run one after the
//    other (three round trips). The busy intervals do not need the bays first: read them for the
//    organization's bays (a subquery) over a window that covers the calendar date in any time
//    zone (UTC−12 … UTC+14) plus the duration, and issue all four queries at once.
import { and, eq, gt, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import { computeDayAvailability, isBayCompatible, type BusyInterval } from '../../domain/availability';
import { RELEASED_BOOKING_STATUSES } from '../../domain/booking-lifecycle';
import { buildSlotGrid, type Slot } from '../../domain/slot-grid';
import type { Db } from '../../server/db/client';
import { bays, blackouts, bookings, sites } from '../../server/db/schema';
import * as repo from '../../server/modules/availability/availability.repo';
import type { AvailabilityQuery } from '../../server/modules/availability/availability.service';

// Written as literals (not parameters) so the planner can prove the partial index's predicate.
const RELEASED_LITERALS = sql.raw(RELEASED_BOOKING_STATUSES.map((status) => `'${status}'`).join(', '));
const HOUR_MS = 3_600_000;

const overlapsWindow = (from: Date, to: Date) =>
  sql`tstzrange(${bookings.startTime}, ${bookings.endTime}, '[)') && tstzrange(${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz, '[)')`;

function busyBookings(db: Db, bayIds: string[] | SQL, from: Date, to: Date, excludeBookingId?: string) {
  return db
    .select({ bayId: bookings.bayId, siteId: bookings.siteId, start: bookings.startTime, end: bookings.endTime })
    .from(bookings)
    .where(
      and(
        Array.isArray(bayIds) ? inArray(bookings.bayId, bayIds) : sql`${bookings.bayId} in ${bayIds}`,
        sql`${bookings.status} not in (${RELEASED_LITERALS})`,
        overlapsWindow(from, to),
        ...(excludeBookingId ? [ne(bookings.id, excludeBookingId)] : []),
      ),
    );
}

/** Live bookings overlapping [from, to) on the given bays, through the exclusion constraint's GiST index. */
export function listBusyBookingsByRange(db: Db, bayIds: string[], from: Date, to: Date, excludeBookingId?: string) {
  return bayIds.length === 0 ? Promise.resolve([]) : busyBookings(db, bayIds, from, to, excludeBookingId);
}

/**
 * Alternative to change 1, needing a migration: with a CHECK that no booking is longer than
 * `maxLength` (e.g. `end_time - start_time <= interval '24 hours'`), the current query gains a lower
 * bound on start_time and the (org_id | site_id, start_time) btrees read about one day of rows.
 * Measured here without the constraint: correct only while every booking is shorter than maxLength.
 */
export function listBusyBookingsBounded(db: Db, orgId: string, siteIds: string[], from: Date, to: Date, maxLengthMs: number) {
  return db
    .select({ bayId: bookings.bayId, siteId: bookings.siteId, start: bookings.startTime, end: bookings.endTime })
    .from(bookings)
    .where(
      and(
        eq(bookings.orgId, orgId),
        inArray(bookings.siteId, siteIds),
        sql`${bookings.status} not in (${RELEASED_LITERALS})`,
        gt(bookings.startTime, new Date(from.getTime() - maxLengthMs)),
        lt(bookings.startTime, to),
        gt(bookings.endTime, from),
      ),
    );
}

/** Blackouts overlapping [from, to) at the sites: the current query's blackout half, unchanged. */
function listBlackouts(db: Db, orgId: string, siteIds: string[] | SQL, from: Date, to: Date) {
  return db
    .select({ bayId: blackouts.bayId, siteId: blackouts.siteId, start: blackouts.startTime, end: blackouts.endTime })
    .from(blackouts)
    .where(
      and(
        eq(blackouts.orgId, orgId),
        Array.isArray(siteIds) ? inArray(blackouts.siteId, siteIds) : sql`${blackouts.siteId} in ${siteIds}`,
        lt(blackouts.startTime, to),
        gt(blackouts.endTime, from),
      ),
    );
}

type Grid = { bays: repo.ActiveBay[]; slots: Slot[] };

function siteGrids(compatible: repo.ActiveBay[], query: AvailabilityQuery, now: Date): Grid[] {
  const bySite = new Map<string, repo.ActiveBay[]>();
  for (const bay of compatible) bySite.set(bay.siteId, [...(bySite.get(bay.siteId) ?? []), bay]);
  return [...bySite.values()].map((siteBays) => ({
    bays: siteBays,
    slots: buildSlotGrid({
      date: query.date,
      timeZone: siteBays[0]!.timeZone,
      operatingHours: siteBays[0]!.operatingHours,
      slotIntervalMin: siteBays[0]!.slotIntervalMin,
      durationMin: query.durationMin,
      minAdvanceMin: siteBays[0]!.minAdvanceMin,
      now,
    }),
  }));
}

/** Free bays per slot label, as getDayAvailability counts them for the DTO. */
function freeBaysByLabel(grids: Grid[], busy: BusyInterval[]): Map<string, number> {
  const free = new Map<string, number>();
  for (const grid of grids) {
    for (const slot of computeDayAvailability({ slots: grid.slots, bays: grid.bays, busy })) {
      free.set(slot.label, (free.get(slot.label) ?? 0) + (slot.bookable ? slot.freeBays : 0));
    }
  }
  return free;
}

const compatibleBays = (all: repo.ActiveBay[], query: AvailabilityQuery) =>
  all.filter((bay) =>
    isBayCompatible(bay, { heightM: query.vehicleHeightM ?? 0, lengthM: query.vehicleLengthM ?? null, specialAccessNeeds: query.specialAccessNeeds ?? [] }),
  );

/** Change 1 only: the current flow (organization, bays, busy) with the GiST-range busy query. */
export async function proposedDayFreeBays(db: Db, query: AvailabilityQuery, now: Date): Promise<Map<string, number>> {
  const org = await repo.findBookableOrg(db, query.orgId);
  if (!org) throw new Error('organization not bookable');
  const compatible = compatibleBays(await repo.listActiveBays(db, org.id), query);
  const grids = siteGrids(compatible, query, now);
  const allSlots = grids.flatMap((g) => g.slots);
  if (allSlots.length === 0) return new Map();
  const from = new Date(Math.min(...allSlots.map((s) => s.start.getTime())));
  const to = new Date(Math.max(...allSlots.map((s) => s.end.getTime())));
  const siteIds = grids.map((g) => g.bays[0]!.siteId);
  const [booked, blackedOut] = await Promise.all([
    listBusyBookingsByRange(db, compatible.map((bay) => bay.id), from, to),
    listBlackouts(db, org.id, siteIds, from, to),
  ]);
  return freeBaysByLabel(grids, [...booked, ...blackedOut]);
}

/** Changes 1 and 2: all four queries at once, busy intervals over a time-zone-proof window. */
export async function proposedOneTripDayFreeBays(db: Db, query: AvailabilityQuery, now: Date): Promise<Map<string, number>> {
  const midnightUtc = Date.parse(`${query.date}T00:00:00Z`);
  const from = new Date(midnightUtc - 14 * HOUR_MS);
  const to = new Date(midnightUtc + (24 + 12) * HOUR_MS + query.durationMin * 60_000);
  const orgBays = sql`(select ${bays.id} from ${bays} where ${bays.orgId} = ${query.orgId} and ${bays.active})`;
  const orgSites = sql`(select ${sites.id} from ${sites} where ${sites.orgId} = ${query.orgId} and ${sites.active})`;
  const [org, activeBays, booked, blackedOut] = await Promise.all([
    repo.findBookableOrg(db, query.orgId),
    repo.listActiveBays(db, query.orgId),
    busyBookings(db, orgBays, from, to),
    listBlackouts(db, query.orgId, orgSites, from, to),
  ]);
  if (!org) throw new Error('organization not bookable');
  return freeBaysByLabel(siteGrids(compatibleBays(activeBays, query), query, now), [...booked, ...blackedOut]);
}
