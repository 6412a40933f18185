import { compareBestFit, computeDayAvailability, isBayCompatible } from '../../../domain/availability';
import {
  addDays,
  beyondHorizonMessage,
  closedDayMessage,
  fullDayMessage,
  monthFullMessage,
  noCompatibleBayMessage,
  pastDayMessage,
  tooSoonMessage,
  type DayStatus,
} from '../../../domain/day-notice';
import { buildSlotGrid, todayIn } from '../../../domain/slot-grid';
import type { Db, Tx } from '../../db/client';
import { notFound } from '../../plugins/errors';
import { monthlyBookingCapOf } from '../billing/plan-limits';
import * as repo from './availability.repo';

export type AvailabilityQuery = {
  orgId: string;
  /** Only this site (a haulier's choice, checked by the caller); none: every site of the organization. */
  siteId?: string | null;
  /** The sites' local calendar date, 'YYYY-MM-DD'. */
  date: string;
  durationMin: number;
  vehicleHeightM?: number | null;
  vehicleLengthM?: number | null;
  specialAccessNeeds?: readonly string[];
};

/** A free bay for a slot, with the slot's instants at that bay's site (sites may differ in time zone). */
export type Candidate = { bayId: string; bayName: string; siteId: string; siteName: string; start: Date; end: Date };

export type DaySlot = {
  time: string;
  start: Date;
  end: Date;
  freeBays: number;
  available: boolean;
  bookable: boolean;
  reason?: string;
  /** Free compatible bays across the organization's sites, best fit first. */
  candidates: Candidate[];
};

export type DayAvailability = {
  orgId: string;
  date: string;
  timeZone: string;
  compatibleBays: number;
  slots: DaySlot[];
  /** The site the grid is labelled for, today there, and the last date its booking horizon allows. */
  siteName: string | null;
  siteToday: string;
  lastBookableDate: string;
  /** Why the day offers nothing, or null when some slot can be booked. */
  status: DayStatus | null;
  notice: string | null;
  /** Every site with a compatible bay is stopped (emergency): nothing can be booked now. */
  isEmergencyStop: boolean;
  /** The organization's monthly booking cap is reached (asked with `isMonthlyCapApplied`): no slot is offered. */
  isMonthFull: boolean;
};

/** The portal's answer while a site is stopped (docs/decisions/011-gate-rules.md). */
export const emergencyStopMessage = (siteName: string) =>
  `${siteName} is not taking bookings right now (the site has stopped operations). Please try again later.`;

/**
 * The whole day's grid for an organization in a constant number of queries (organization, bays,
 * busy intervals), whatever the number of slots and bays. Slots are labelled in each site's own
 * local time; a label offered by several sites adds their free bays up.
 * A bay is free for a slot only when nothing holds it for the whole requested duration.
 */
export async function getDayAvailability(
  db: Db | Tx,
  query: AvailabilityQuery,
  now: Date,
  options: {
    excludeBookingId?: string;
    ignoreMinAdvance?: boolean;
    /** The public portal: once this month's booking cap is reached, offer nothing and say so neutrally. */
    isMonthlyCapApplied?: boolean;
  } = {},
): Promise<DayAvailability> {
  const org = await repo.findBookableOrg(db, query.orgId);
  if (!org) throw notFound('Organization');
  const isMonthFull = options.isMonthlyCapApplied ? ((await monthlyBookingCapOf(db, org.id, now))?.isReached ?? false) : false;
  const vehicle = {
    heightM: query.vehicleHeightM ?? 0,
    lengthM: query.vehicleLengthM ?? null,
    specialAccessNeeds: query.specialAccessNeeds ?? [],
  };
  const activeBays = (await repo.listActiveBays(db, org.id)).filter((bay) => !query.siteId || bay.siteId === query.siteId);
  const compatible = activeBays.filter((bay) => isBayCompatible(bay, vehicle));

  const bySite = new Map<string, repo.ActiveBay[]>();
  for (const bay of compatible) bySite.set(bay.siteId, [...(bySite.get(bay.siteId) ?? []), bay]);

  const grids = [...bySite.values()].map((siteBays) => {
    const site = siteBays[0]!;
    // Beyond the site's booking horizon the grid offers nothing (and no instant is ever built
    // for a date like 9999-12-31).
    const isBeyondHorizon = query.date > addDays(todayIn(site.timeZone, now), site.bookingHorizonDays);
    // A site stopped for an emergency offers nothing until it resumes.
    const isStopped = site.emergencyAt !== null;
    return {
      site,
      bays: siteBays,
      slots: isBeyondHorizon || isStopped || isMonthFull ? [] : buildSlotGrid({
        date: query.date,
        timeZone: site.timeZone,
        operatingHours: site.operatingHours,
        slotIntervalMin: site.slotIntervalMin,
        durationMin: query.durationMin,
        // Staff booking on a tenant's behalf may override the minimum advance (audited by the caller).
        minAdvanceMin: options.ignoreMinAdvance ? 0 : site.minAdvanceMin,
        now,
      }),
    };
  });
  const allSlots = grids.flatMap((g) => g.slots);
  const busy =
    allSlots.length === 0
      ? []
      : await repo.listBusyIntervals(
          db,
          { orgId: org.id, siteIds: [...bySite.keys()], bayIds: compatible.map((bay) => bay.id) },
          new Date(Math.min(...allSlots.map((s) => s.start.getTime()))),
          new Date(Math.max(...allSlots.map((s) => s.end.getTime()))),
          options.excludeBookingId,
        );

  type Ranked = { bay: repo.ActiveBay; start: Date; end: Date };
  const byLabel = new Map<string, DaySlot & { ranked: Ranked[] }>();
  for (const grid of grids) {
    const bayById = new Map(grid.bays.map((b) => [b.id, b]));
    for (const slot of computeDayAvailability({ slots: grid.slots, bays: grid.bays, busy })) {
      const free = slot.freeBayIds.map((id) => ({ bay: bayById.get(id)!, start: slot.start, end: slot.end }));
      const merged = byLabel.get(slot.label);
      if (!merged) {
        byLabel.set(slot.label, {
          time: slot.label,
          start: slot.start,
          end: slot.end,
          freeBays: slot.freeBays,
          available: slot.available,
          bookable: slot.bookable,
          reason: slot.reason,
          candidates: [],
          ranked: slot.bookable ? free : [],
        });
      } else {
        merged.freeBays += slot.freeBays;
        merged.available ||= slot.available;
        if (slot.bookable) {
          merged.bookable = true;
          merged.reason = undefined;
          merged.ranked.push(...free);
        }
      }
    }
  }
  const slots = [...byLabel.values()]
    .sort((a, b) => a.time.localeCompare(b.time))
    .map(({ ranked, ...slot }) => ({
      ...slot,
      candidates: ranked
        .sort((a, b) => compareBestFit(a.bay, b.bay))
        .map(({ bay, start, end }) => ({ bayId: bay.id, bayName: bay.name, siteId: bay.siteId, siteName: bay.siteName, start, end })),
    }));
  // The notice speaks of the first site with a compatible bay, or the organization's first site.
  const bay = grids[0]?.site ?? activeBays[0];
  const site = bay
    ? { name: bay.siteName, timeZone: bay.timeZone, bookingHorizonDays: bay.bookingHorizonDays, minAdvanceMin: bay.minAdvanceMin }
    : (await repo.listActiveSites(db, org.id))[0];
  const timeZone = site?.timeZone ?? 'UTC';
  const siteToday = todayIn(timeZone, now);
  const lastBookableDate = addDays(siteToday, site?.bookingHorizonDays ?? 60);
  let status: DayStatus | null = null;
  let notice: string | null = null;
  const isEmergencyStop = grids.length > 0 && grids.every((g) => g.site.emergencyAt !== null);
  if (isMonthFull) {
    status = 'month_full';
    notice = monthFullMessage;
  } else if (isEmergencyStop) {
    status = 'closed';
    notice = emergencyStopMessage(grids[0]!.site.siteName);
  } else if (compatible.length === 0) {
    status = activeBays.length === 0 ? 'no_bays' : 'no_compatible_bay';
    notice = noCompatibleBayMessage(
      org.name,
      { heightM: vehicle.heightM, lengthM: vehicle.lengthM, specialAccessNeeds: vehicle.specialAccessNeeds },
      await repo.activeBayLimits(db, org.id),
    );
  } else if (query.date < siteToday) {
    status = 'past';
    notice = pastDayMessage(site!.name, siteToday);
  } else if (query.date > lastBookableDate) {
    status = 'beyond_horizon';
    notice = beyondHorizonMessage(site!.bookingHorizonDays, lastBookableDate);
  } else if (slots.length === 0) {
    status = 'closed';
    notice = closedDayMessage(site!.name, query.date);
  } else if (!slots.some((slot) => slot.bookable)) {
    status = 'too_soon';
    notice = tooSoonMessage(site!.name, grids[0]!.site.minAdvanceMin);
  } else if (!slots.some((slot) => slot.available)) {
    status = 'full';
    notice = fullDayMessage;
  }
  return {
    orgId: org.id,
    date: query.date,
    timeZone,
    compatibleBays: compatible.length,
    slots,
    siteName: site?.name ?? null,
    siteToday,
    lastBookableDate,
    status,
    notice,
    isEmergencyStop,
    isMonthFull,
  };
}
