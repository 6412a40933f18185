// The spec's availability pattern (spec §7), implemented faithfully for comparison:
//   "Bays for availability: read bays joined to sites, filtered by sites.org_id equal to the chosen
//    organization, bay active and site active; fields id, name, height_clearance_m, active and site
//    id, name, org_id, active. Bays lower than the vehicle height are dropped.
//    Per slot: read bookings (id, bay_id) for the first compatible bay's site with an overlap
//    condition and status not declined; read blackouts (id, bay_id) for the compatible bays.
//    Bays in either result are busy."
// Slots are every 30 minutes from 06:00 to 21:30, each 30 minutes long (spec §9), so one day grid
// is one bays query plus 32 × 2 queries, each its own round trip, awaited one after the other.
import { and, eq, gt, inArray, lt, ne } from 'drizzle-orm';
import { zonedTimeToUtc, formatTimeOfDay } from '../../domain/slot-grid';
import type { Db } from '../../server/db/client';
import { bays, blackouts, bookings, sites } from '../../server/db/schema';

export const SPEC_SLOT_MINUTES = Array.from({ length: 32 }, (_, i) => 6 * 60 + i * 30);
const SLOT_MS = 30 * 60_000;

export type SpecSlot = { time: string; freeBays: number };

export async function specPatternDayGrid(
  db: Db,
  query: { orgId: string; date: string; timeZone: string; vehicleHeightM: number },
): Promise<SpecSlot[]> {
  const rows = await db
    .select({
      id: bays.id,
      name: bays.name,
      heightClearanceM: bays.heightClearanceM,
      active: bays.active,
      site: { id: sites.id, name: sites.name, orgId: sites.orgId, active: sites.active },
    })
    .from(bays)
    .innerJoin(sites, eq(sites.id, bays.siteId))
    .where(and(eq(sites.orgId, query.orgId), eq(bays.active, true), eq(sites.active, true)));
  const compatible = rows.filter((bay) => bay.heightClearanceM >= query.vehicleHeightM);
  if (compatible.length === 0) return [];
  const firstSiteId = compatible[0]!.site.id;
  const compatibleIds = compatible.map((bay) => bay.id);

  const slots: SpecSlot[] = [];
  for (const minutes of SPEC_SLOT_MINUTES) {
    const start = zonedTimeToUtc(query.date, minutes, query.timeZone);
    const end = new Date(start.getTime() + SLOT_MS);
    const busyBookings = await db
      .select({ id: bookings.id, bayId: bookings.bayId })
      .from(bookings)
      .where(and(eq(bookings.siteId, firstSiteId), lt(bookings.startTime, end), gt(bookings.endTime, start), ne(bookings.status, 'declined')));
    const busyBlackouts = await db
      .select({ id: blackouts.id, bayId: blackouts.bayId })
      .from(blackouts)
      .where(and(inArray(blackouts.bayId, compatibleIds), lt(blackouts.startTime, end), gt(blackouts.endTime, start)));
    const busy = new Set<string | null>([...busyBookings, ...busyBlackouts].map((row) => row.bayId));
    slots.push({ time: formatTimeOfDay(minutes), freeBays: compatible.filter((bay) => !busy.has(bay.id)).length });
  }
  return slots;
}
