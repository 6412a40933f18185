import { TZDate, tzOffset } from '@date-fns/tz';
import {
  DEFAULT_DURATION_MIN,
  MIN_ADVANCE_MIN,
  SLOT_INTERVAL_MIN,
  type DayHours,
  type HoursWindow,
  type OperatingHours,
} from './constants';
import { WEEKDAYS, type Weekday } from './enums';

// The slots of one site day (spec §9: every 30 minutes from opening to the last start that leaves
// one interval before closing; the defaults give 06:00..21:30, 32 slots on a weekday).
//
// Local wall-clock times are turned into instants in the site's IANA time zone:
// - a local time that does not exist (spring forward: 01:00-01:59 in London on 2026-03-29) has no
//   slot; the grid simply skips it;
// - a local time that happens twice (fall back: 01:00-01:59 in London on 2026-10-25) gets one slot,
//   at its FIRST occurrence (the earlier instant, still on summer time), so each 'HH:mm' label names
//   exactly one instant. This is Temporal's 'compatible' disambiguation for repeated times.
// A booking's end is its start plus the duration in elapsed minutes, whatever the clock does.

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^(\d{2}):(\d{2})$/;

export type SlotUnavailableReason = 'past' | 'too_soon' | 'after_close';

export type Slot = {
  /** Local wall-clock start at the site, 'HH:mm'. */
  label: string;
  start: Date;
  /** start + the requested duration. */
  end: Date;
  bookable: boolean;
  reason?: SlotUnavailableReason;
};

export type SlotGridOptions = {
  /** The site's local calendar date, 'YYYY-MM-DD'. */
  date: string;
  /** The site's IANA time zone, e.g. 'Australia/Sydney'. */
  timeZone: string;
  operatingHours: OperatingHours;
  slotIntervalMin?: number;
  durationMin?: number;
  minAdvanceMin?: number;
  /** The current instant, passed in (domain code never reads the clock). */
  now: Date;
};

export type LocalDate = { year: number; month: number; day: number };

/** 'YYYY-MM-DD' → its parts, or null when it is not a real calendar date. */
export function parseLocalDate(date: string): LocalDate | null {
  const match = DATE_PATTERN.exec(date);
  if (!match) return null;
  const [year, month, day] = match.slice(1).map(Number);
  const probe = new Date(Date.UTC(year, month - 1, day));
  const isReal = probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
  return isReal ? { year, month, day } : null;
}

/** 'HH:mm' → minutes after midnight; '24:00' is accepted as the end of the day (1440). */
export function parseTimeOfDay(time: string): number | null {
  const match = TIME_PATTERN.exec(time);
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  const isValid = Number(match[2]) < 60 && minutes <= 24 * 60;
  return isValid ? minutes : null;
}

/** Minutes after midnight → 'HH:mm'. */
export function formatTimeOfDay(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  return `${String(hours).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** True when the runtime knows `timeZone` (IANA name or UTC). */
export function isValidTimeZone(timeZone: string): boolean {
  const known = knownTimeZones.get(timeZone);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    valid = true;
  } catch {
    valid = false;
  }
  // Building a formatter is costly and every slot grid asks: remember the answer (bounded).
  if (knownTimeZones.size < 1000) knownTimeZones.set(timeZone, valid);
  return valid;
}
const knownTimeZones = new Map<string, boolean>();

function requireLocalDate(date: string): LocalDate {
  const parsed = parseLocalDate(date);
  if (!parsed) throw new RangeError(`Invalid date '${date}': expected a real date written YYYY-MM-DD`);
  return parsed;
}

function requireTimeZone(timeZone: string): void {
  if (!isValidTimeZone(timeZone)) throw new RangeError(`Unknown time zone '${timeZone}'`);
}

/**
 * The instant at which the wall clock in `timeZone` reads `date` + `minutes` after midnight.
 * Repeated times resolve to their first occurrence. Non-existent times answer null with
 * 'reject', or are moved forward by the gap with 'compatible' (01:30 → 02:30 summer time).
 */
export function zonedTimeToUtc(date: string, minutes: number, timeZone: string, disambiguation?: 'compatible'): Date;
export function zonedTimeToUtc(date: string, minutes: number, timeZone: string, disambiguation: 'reject'): Date | null;
export function zonedTimeToUtc(
  date: string,
  minutes: number,
  timeZone: string,
  disambiguation: 'compatible' | 'reject' = 'compatible',
): Date | null {
  const { year, month, day } = requireLocalDate(date);
  const wallMs = Date.UTC(year, month - 1, day, 0, minutes);
  const offsetAt = (ms: number) => tzOffset(timeZone, new Date(ms));
  // At most one offset change lies within a day of any wall time, so these are all candidates.
  const offsetBefore = offsetAt(wallMs - DAY_MS);
  const candidates = [offsetBefore, offsetAt(wallMs), offsetAt(wallMs + DAY_MS)];
  const matches = candidates
    .filter((offset) => offsetAt(wallMs - offset * MINUTE_MS) === offset)
    .map((offset) => wallMs - offset * MINUTE_MS);
  if (matches.length > 0) return new Date(Math.min(...matches));
  return disambiguation === 'reject' ? null : new Date(wallMs - offsetBefore * MINUTE_MS);
}

/** The local calendar date of an instant in `timeZone`, 'YYYY-MM-DD'. */
export function localDateOf(instant: Date, timeZone: string): string {
  const local = new TZDate(instant.getTime(), timeZone);
  const month = String(local.getMonth() + 1).padStart(2, '0');
  const day = String(local.getDate()).padStart(2, '0');
  return `${String(local.getFullYear()).padStart(4, '0')}-${month}-${day}`;
}

/** The local wall-clock time of an instant in `timeZone`, 'HH:mm'. */
export function localTimeOf(instant: Date, timeZone: string): string {
  const local = new TZDate(instant.getTime(), timeZone);
  return formatTimeOfDay(local.getHours() * 60 + local.getMinutes());
}

/** The weekday of a calendar date ('YYYY-MM-DD'), or of an instant as seen in `timeZone`. */
export function weekdayOf(date: string | Date, timeZone = 'UTC'): Weekday {
  const calendarDate = typeof date === 'string' ? date : localDateOf(date, timeZone);
  const { year, month, day } = requireLocalDate(calendarDate);
  const sundayFirst = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return WEEKDAYS[(sundayFirst + 6) % 7];
}

/** Today's date at the site, 'YYYY-MM-DD'. */
export function todayIn(timeZone: string, now: Date): string {
  return localDateOf(now, timeZone);
}

/** Spec §5: dates before today (at the site) cannot be picked. */
export function isBeforeToday(date: string, timeZone: string, now: Date): boolean {
  return date < todayIn(timeZone, now);
}

/**
 * A weekday's windows as stored. Sites saved before several windows a day existed hold one
 * `{open, close}` object or null; both read as a list.
 */
export function dayWindows(day: DayHours | HoursWindow | null | undefined): DayHours {
  if (!day) return [];
  return Array.isArray(day) ? day : [day];
}

/** The opening windows of `date`'s weekday, in time order; empty when closed. */
export function hoursOn(date: string, operatingHours: OperatingHours): DayHours {
  return dayWindows(operatingHours[weekdayOf(date)]);
}

export type MinuteWindow = { open: number; close: number };

/** `date`'s opening windows in minutes after midnight; windows that cannot be read are left out. */
export function openMinutesOn(date: string, operatingHours: OperatingHours): MinuteWindow[] {
  return hoursOn(date, operatingHours).flatMap((window) => {
    const open = parseTimeOfDay(window.open);
    const close = parseTimeOfDay(window.close);
    return open !== null && close !== null && close > open ? [{ open, close }] : [];
  });
}

/** The window of a day's minute, if the site is open then. */
export function windowAt(windows: readonly MinuteWindow[], minutes: number): MinuteWindow | undefined {
  return windows.find((w) => minutes >= w.open && minutes < w.close);
}

/** 'Closed', '06:00-22:00' or '06:00-12:00, 13:00-22:00'. */
export function formatDayHours(day: DayHours, separator = '-'): string {
  return day.length === 0 ? 'Closed' : day.map((w) => `${w.open}${separator}${w.close}`).join(', ');
}

function requirePositiveWholeMinutes(name: string, value: number, allowZero = false): void {
  const isValid = Number.isInteger(value) && (allowZero ? value >= 0 : value > 0);
  if (!isValid) throw new RangeError(`${name} must be a whole number of minutes${allowZero ? '' : ' above 0'}, got ${value}`);
}

type SlotRules = { now: Date; earliestStart: number; closesAt: Date };

function slotStatus(start: Date, end: Date, rules: SlotRules): Pick<Slot, 'bookable' | 'reason'> {
  if (start.getTime() < rules.now.getTime()) return { bookable: false, reason: 'past' };
  if (start.getTime() < rules.earliestStart) return { bookable: false, reason: 'too_soon' };
  if (end.getTime() > rules.closesAt.getTime()) return { bookable: false, reason: 'after_close' };
  return { bookable: true };
}

/**
 * The slots of one site day, each with its start, its end (start + duration) and whether it can be
 * booked: not in the past, at least `minAdvanceMin` from `now`, and ending by closing time.
 * Closed days and hours that cannot be read give no slots.
 */
export function buildSlotGrid(options: SlotGridOptions): Slot[] {
  const { date, timeZone, now } = options;
  const intervalMin = options.slotIntervalMin ?? SLOT_INTERVAL_MIN;
  const durationMin = options.durationMin ?? DEFAULT_DURATION_MIN;
  const minAdvanceMin = options.minAdvanceMin ?? MIN_ADVANCE_MIN;
  requireLocalDate(date);
  requireTimeZone(timeZone);
  requirePositiveWholeMinutes('slotIntervalMin', intervalMin);
  requirePositiveWholeMinutes('durationMin', durationMin);
  requirePositiveWholeMinutes('minAdvanceMin', minAdvanceMin, true);

  const windows = openMinutesOn(date, options.operatingHours);
  const earliestStart = now.getTime() + minAdvanceMin * MINUTE_MS;
  const slots: Slot[] = [];
  // Each window has its own slots and its own closing time (a slot never runs into a break).
  for (const window of windows) {
    const rules: SlotRules = { now, earliestStart, closesAt: zonedTimeToUtc(date, window.close, timeZone) };
    for (let minutes = window.open; minutes + intervalMin <= window.close; minutes += intervalMin) {
      const start = zonedTimeToUtc(date, minutes, timeZone, 'reject');
      if (!start) continue; // skipped by a spring-forward change
      const end = new Date(start.getTime() + durationMin * MINUTE_MS);
      slots.push({ label: formatTimeOfDay(minutes), start, end, ...slotStatus(start, end, rules) });
    }
  }
  return slots;
}

/** The slot with the given 'HH:mm' label, if the grid has one. */
export function findSlot<S extends Pick<Slot, 'label'>>(slots: readonly S[], label: string): S | undefined {
  return slots.find((slot) => slot.label === label);
}

/** For a requested time that is not a slot of that day (closed, outside hours, off the grid). */
export const OUTSIDE_OPERATING_HOURS_MESSAGE = 'The selected time slot is outside operating hours';

/** '2 hours', '1 hour', '90 minutes'. */
export function formatMinutes(minutes: number): string {
  if (minutes % 60 === 0 && minutes > 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** The user-facing reason a slot cannot be booked. */
export function slotUnavailableMessage(reason: SlotUnavailableReason, minAdvanceMin = MIN_ADVANCE_MIN): string {
  switch (reason) {
    case 'past':
      return 'The selected time slot has already passed';
    case 'too_soon':
      return `Bookings must be made at least ${formatMinutes(minAdvanceMin)} in advance`;
    case 'after_close':
      return 'The booking would run past closing time. Please choose an earlier time slot or a shorter duration.';
  }
}
