import { openMinutesOn, parseTimeOfDay, todayIn, windowAt, zonedTimeToUtc } from '../../../domain/slot-grid';
import type { SiteRules } from './org-rules';

// The requested slot's instants at each site, from the cached site rules alone (no query): the
// hot path's first check. Only the one slot is computed, not the day's grid; the full path
// (booking-candidates.ts) reads the grid and has the precise refusal messages.

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export type SlotWindow = { siteId: string; start: Date; end: Date };

/**
 * Wall-clock → instant conversions of the hot path, remembered (bounded): a busy morning asks for
 * the same few (zone, date, time) triples thousands of times, and each costs several offset lookups.
 */
const instants = new Map<string, Date | null>();
function localInstant(date: string, minutes: number, timeZone: string, disambiguation: 'compatible' | 'reject'): Date | null {
  const key = `${timeZone}|${date}|${minutes}|${disambiguation}`;
  let instant = instants.get(key);
  if (instant === undefined) {
    instant = disambiguation === 'reject' ? zonedTimeToUtc(date, minutes, timeZone, 'reject') : zonedTimeToUtc(date, minutes, timeZone);
    if (instants.size > 50_000) instants.clear();
    instants.set(key, instant);
  }
  return instant;
}

/** The site's local date, remembered per zone for the current minute. */
const todays = new Map<string, { minute: number; date: string }>();
function siteToday(timeZone: string, now: Date): string {
  const minute = Math.floor(now.getTime() / MINUTE_MS);
  const cached = todays.get(timeZone);
  if (cached?.minute === minute) return cached.date;
  const date = todayIn(timeZone, now);
  if (todays.size > 1000) todays.clear();
  todays.set(timeZone, { minute, date });
  return date;
}

/** 'YYYY-MM-DD' plus whole days. */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The instants of one requested slot at each site where it is a bookable slot of that day: on the
 * site's grid (open, aligned to the interval, ending by closing time), not past, at least the
 * minimum advance ahead and within the booking horizon. Only the one slot is computed.
 */
export function bookableWindows(sites: SiteRules[], date: string, slot: string, durationMin: number, now: Date): SlotWindow[] {
  const minutes = parseTimeOfDay(slot);
  if (minutes === null) return [];
  const windows: SlotWindow[] = [];
  for (const site of sites) {
    const window = windowAt(openMinutesOn(date, site.operatingHours), minutes);
    if (!window) continue;
    const { open: opens, close: closes } = window;
    if ((minutes - opens) % site.slotIntervalMin !== 0 || minutes + site.slotIntervalMin > closes) continue;
    const today = siteToday(site.timeZone, now);
    if (date > addDays(today, site.bookingHorizonDays)) continue;
    const start = localInstant(date, minutes, site.timeZone, 'reject');
    if (!start) continue;
    const end = new Date(start.getTime() + durationMin * MINUTE_MS);
    if (start.getTime() < now.getTime() + site.minAdvanceMin * MINUTE_MS) continue;
    if (end.getTime() > localInstant(date, closes, site.timeZone, 'compatible')!.getTime()) continue;
    windows.push({ siteId: site.id, start, end });
  }
  return windows;
}

/**
 * Whether `date` is within every site's booking horizon (each in its own calendar). The full path
 * refuses a date beyond the horizon of the organization's first site with a compatible bay.
 */
export function isWithinEveryHorizon(sites: SiteRules[], date: string, now: Date): boolean {
  return sites.every((site) => date <= addDays(siteToday(site.timeZone, now), site.bookingHorizonDays));
}
