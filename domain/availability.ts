import { compareBayNames } from './bay-order';
import { RELEASED_BOOKING_STATUSES } from './booking-lifecycle';
import { metresToMm } from './booking-request';
import type { Slot } from './slot-grid';

// Which bays can take a vehicle, in which order we offer them, and which are free for the whole of
// each requested slot. Pure: the caller loads bays, live bookings and blackouts in one query each.
// Intervals are half-open [start, end): a booking ending at 10:00 leaves a 10:00 slot free.

/** Statuses that still hold their bay (every status except declined, cancelled, no_show). */
export function holdsBay(status: string): boolean {
  return !(RELEASED_BOOKING_STATUSES as readonly string[]).includes(status);
}

export type CompatibilityBay = {
  active: boolean;
  /** Whether the bay's site is active. */
  siteActive: boolean;
  heightClearanceM: number;
  /** null: the bay takes any length. */
  lengthM: number | null;
  features: readonly string[];
};

export type VehicleRequirements = {
  heightM: number;
  lengthM?: number | null;
  specialAccessNeeds?: readonly string[];
};

/**
 * A bay fits a vehicle when bay and site are active, the clearance is at least the vehicle height,
 * its length (when it has one) at least the vehicle length (when given), and its features cover
 * every special access need. Sizes are compared in whole millimetres, so 4.2 m fits 4.2 m.
 */
export function isBayCompatible(bay: CompatibilityBay, vehicle: VehicleRequirements): boolean {
  if (!bay.active || !bay.siteActive) return false;
  if (!(metresToMm(bay.heightClearanceM) >= metresToMm(vehicle.heightM))) return false;
  if (bay.lengthM != null && vehicle.lengthM != null && metresToMm(bay.lengthM) < metresToMm(vehicle.lengthM)) return false;
  return (vehicle.specialAccessNeeds ?? []).every((need) => bay.features.includes(need));
}

export type RankableBay = { id: string; name: string; heightClearanceM: number };

/**
 * Best fit first: lowest sufficient clearance, then name in natural order ('N-2' < 'N-10', the one
 * rule of bay-order.ts, as the database's `order by height_clearance_m, sort_key, id`), then id.
 */
export function compareBestFit(a: RankableBay, b: RankableBay): number {
  return (
    metresToMm(a.heightClearanceM) - metresToMm(b.heightClearanceM) ||
    compareBayNames(a.name, b.name) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** The bays in the order we assign them (a new array). */
export function bestFitOrder<T extends RankableBay>(bays: readonly T[]): T[] {
  return [...bays].sort(compareBestFit);
}

export type AvailabilityBay = RankableBay & { siteId: string };

/** Something that occupies a bay: a live booking or a blackout. bayId null = the whole site. */
export type BusyInterval = { bayId: string | null; siteId: string; start: Date; end: Date };

export type SlotWindow = Pick<Slot, 'start' | 'end' | 'bookable'>;

export type SlotAvailability<S extends SlotWindow = Slot> = S & {
  /** How many of the given bays are free for the slot's whole [start, end). */
  freeBays: number;
  /** bookable and at least one bay free. */
  available: boolean;
  /** The free bays' ids in best-fit order: the first is the one to assign. */
  freeBayIds: string[];
};

export type DayAvailabilityInput<S extends SlotWindow> = {
  slots: readonly S[];
  /** The compatible bays (see isBayCompatible). */
  bays: readonly AvailabilityBay[];
  busy: readonly BusyInterval[];
};

/** Disjoint, sorted busy time of one bay or one site: starts[i] < ends[i] <= starts[i+1]. */
type Timeline = { starts: number[]; ends: number[] };

/** Sorts and merges intervals (touching ones too: the union is unchanged for overlap tests). */
function toTimeline(intervals: Array<[number, number]>): Timeline {
  intervals.sort((a, b) => a[0] - b[0]);
  const timeline: Timeline = { starts: [], ends: [] };
  for (const [start, end] of intervals) {
    const last = timeline.ends.length - 1;
    if (last >= 0 && start <= timeline.ends[last]) timeline.ends[last] = Math.max(timeline.ends[last], end);
    else {
      timeline.starts.push(start);
      timeline.ends.push(end);
    }
  }
  return timeline;
}

/** Whether [start, end) overlaps the timeline: binary search for the first interval ending after start. */
function overlaps(timeline: Timeline | undefined, start: number, end: number): boolean {
  if (!timeline) return false;
  let low = 0;
  let high = timeline.ends.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (timeline.ends[middle] > start) high = middle;
    else low = middle + 1;
  }
  return low < timeline.starts.length && timeline.starts[low] < end;
}

/** Groups the busy intervals per bay and per site (site-wide ones), each as a merged timeline. */
function indexBusy(busy: readonly BusyInterval[]): { byBay: Map<string, Timeline>; bySite: Map<string, Timeline> } {
  const bayIntervals = new Map<string, Array<[number, number]>>();
  const siteIntervals = new Map<string, Array<[number, number]>>();
  for (const interval of busy) {
    const start = interval.start.getTime();
    const end = interval.end.getTime();
    if (!(end > start)) continue; // empty or unreadable: occupies nothing
    const [groups, key] = interval.bayId === null ? [siteIntervals, interval.siteId] : [bayIntervals, interval.bayId];
    const group = groups.get(key);
    if (group) group.push([start, end]);
    else groups.set(key, [[start, end]]);
  }
  const toTimelines = (groups: Map<string, Array<[number, number]>>) =>
    new Map([...groups].map(([key, intervals]) => [key, toTimeline(intervals)] as const));
  return { byBay: toTimelines(bayIntervals), bySite: toTimelines(siteIntervals) };
}

/**
 * Per slot: the bays free for the whole slot, in best-fit order, and whether the slot can be offered.
 * O(I log I + B·S·log I) for I busy intervals, B bays and S slots.
 */
export function computeDayAvailability<S extends SlotWindow>({
  slots,
  bays,
  busy,
}: DayAvailabilityInput<S>): Array<SlotAvailability<S>> {
  const { byBay, bySite } = indexBusy(busy);
  const ordered = bestFitOrder(bays);
  return slots.map((slot) => {
    const start = slot.start.getTime();
    const end = slot.end.getTime();
    const freeBayIds = ordered
      .filter((bay) => !overlaps(byBay.get(bay.id), start, end) && !overlaps(bySite.get(bay.siteId), start, end))
      .map((bay) => bay.id);
    return { ...slot, freeBays: freeBayIds.length, available: slot.bookable && freeBayIds.length > 0, freeBayIds };
  });
}
