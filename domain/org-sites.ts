import { z } from 'zod';
import { affectedBookingSchema, affectedResolutionSchema } from './affected-bookings';
import { isCalendarDate } from './booking-request';
import { DEFAULT_OPERATING_HOURS, MIN_ADVANCE_MIN, SLOT_INTERVAL_MIN, type OperatingHours } from './constants';
import { addDays } from './day-notice';
import { WEEKDAYS, type Weekday } from './enums';
import { emergencyContactSchema, operatingHoursSchema } from './site-schemas';
import { dayWindows, formatDayHours, isValidTimeZone, localDateOf, openMinutesOn, zonedTimeToUtc } from './slot-grid';
import { multiLine, singleLine } from './text-rules';

// The organization's sites as their admins run them (Settings › Sites & hours): the request bodies
// with the messages people see (the form validates with the same schemas), the answers, and the
// pure rules the screen and the server share — which bookings new hours leave outside, how a
// week's hours read in one line.

export const TIME_ZONE_MESSAGE = 'Choose a time zone from the list';
export const SITE_NAME_TAKEN_MESSAGE = 'Another site of this organization already has this name';
export const DEFAULT_BOOKING_HORIZON_DAYS = 60;
export const SLOT_INTERVAL_LIMITS = { min: 5, max: 240 } as const;
export const MIN_ADVANCE_LIMITS = { min: 0, max: 43_200 } as const;
export const BOOKING_HORIZON_LIMITS = { min: 1, max: 730 } as const;
/** The longest holiday closure, in days. */
export const MAX_HOLIDAY_DAYS = 366;
/** A closure starts at most this many years after the site's today. */
export const HOLIDAY_MAX_YEARS_AHEAD = 10;
export const HOLIDAY_TOO_FAR_MESSAGE = `Choose a first day within the next ${HOLIDAY_MAX_YEARS_AHEAD} years`;

export const WEEKDAY_SHORT_LABELS: Record<Weekday, string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};
export const WEEKDAY_LONG_LABELS: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

// IANA names ('Europe/London', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5', 'UTC'), not the bare
// offsets ('+05:00') some runtimes also accept.
const TIME_ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The organization's time zone, a new site's default: the zone most of its sites use (active
 * sites first, else any; a tie goes to the earliest listed); null without sites.
 */
export function organizationTimeZone(sites: ReadonlyArray<{ timeZone: string; active?: boolean }>): string | null {
  const pool = sites.some((s) => s.active !== false) ? sites.filter((s) => s.active !== false) : sites;
  const counts = new Map<string, number>();
  for (const site of pool) counts.set(site.timeZone, (counts.get(site.timeZone) ?? 0) + 1);
  let best: string | null = null;
  for (const [zone, n] of counts) if (best === null || n > counts.get(best)!) best = zone;
  return best;
}

/** True for an IANA time-zone name the runtime knows. */
export function isIanaTimeZone(timeZone: string): boolean {
  return timeZone.length <= 64 && TIME_ZONE_NAME.test(timeZone) && isValidTimeZone(timeZone);
}

/** The name as the runtime spells it when only the case differs ('europe/london' → 'Europe/London'); aliases are kept as given. */
export function canonicalTimeZone(timeZone: string): string {
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === timeZone.toLowerCase() ? resolved : timeZone;
}

const minutes = (what: string, limits: { min: number; max: number }, maxText: string) =>
  z
    .number({ error: `Enter the ${what} in minutes` })
    .int('Enter whole minutes')
    .min(limits.min, `At least ${limits.min} minute${limits.min === 1 ? '' : 's'}`)
    .max(limits.max, maxText);

/** A one-line optional text: blank is stored as null. */
const optionalLine = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `Keep the ${label.toLowerCase()} under ${max} characters`)
    .refine(...singleLine(label))
    .transform((value) => (value === '' ? null : value))
    .nullish();

const siteFields = {
  name: z
    .string({ error: 'Enter the site name' })
    .trim()
    .min(1, 'Enter the site name')
    .max(100, 'Keep the site name under 100 characters')
    .refine(...singleLine('Site name')),
  address: z
    .string()
    .trim()
    .max(300, 'Keep the address under 300 characters')
    .refine(...multiLine('Address'))
    .transform((value) => (value === '' ? null : value))
    .nullish(),
  timeZone: z
    .string({ error: TIME_ZONE_MESSAGE })
    .trim()
    .refine(isIanaTimeZone, TIME_ZONE_MESSAGE)
    .transform(canonicalTimeZone),
  operatingHours: operatingHoursSchema,
  slotIntervalMin: minutes('slot interval', SLOT_INTERVAL_LIMITS, 'At most 240 minutes (4 hours)'),
  minAdvanceMin: minutes('minimum advance', MIN_ADVANCE_LIMITS, 'At most 43200 minutes (30 days)'),
  bookingHorizonDays: z
    .number({ error: 'Enter the booking horizon in days' })
    .int('Enter whole days')
    .min(BOOKING_HORIZON_LIMITS.min, 'At least 1 day')
    .max(BOOKING_HORIZON_LIMITS.max, 'At most 730 days (2 years)'),
  contactPhone: optionalLine('Contact phone', 40),
  contactEmail: z
    .string()
    .trim()
    .max(254, 'Keep the e-mail address under 254 characters')
    .refine((value) => value === '' || z.email().safeParse(value).success, 'Enter a valid e-mail address')
    .transform((value) => (value === '' ? null : value.toLowerCase()))
    .nullish(),
};

/** POST /sites: a name and a time zone; the rest has the product's defaults (spec §9 hours, 30-minute slots, 2 h advance, 60 days ahead). */
export const createSiteSchema = z.object({
  ...siteFields,
  operatingHours: siteFields.operatingHours.default(() => structuredClone(DEFAULT_OPERATING_HOURS)),
  slotIntervalMin: siteFields.slotIntervalMin.default(SLOT_INTERVAL_MIN),
  minAdvanceMin: siteFields.minAdvanceMin.default(MIN_ADVANCE_MIN),
  bookingHorizonDays: siteFields.bookingHorizonDays.default(DEFAULT_BOOKING_HORIZON_DAYS),
});
export type CreateSiteInput = z.input<typeof createSiteSchema>;

/** PATCH /sites/:siteId: any of the fields; those left out stay as they are. */
export const updateSiteSchema = z.object(siteFields).partial();
export type UpdateSiteInput = z.input<typeof updateSiteSchema>;

/** What to do with the bookings a site-wide change leaves without a site: keep or cancel (no other site's bay can take them). */
export const siteResolutionSchema = affectedResolutionSchema.refine((r) => r.action !== 'reassign', {
  message: 'Bookings cannot be moved to another site: keep them or cancel them',
  path: ['action'],
});

/** POST /sites/:siteId/deactivate. */
export const deactivateSiteSchema = z.object({ resolution: siteResolutionSchema.optional() });

export const orgSiteSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  timeZone: z.string(),
  operatingHours: operatingHoursSchema,
  slotIntervalMin: z.number(),
  minAdvanceMin: z.number(),
  bookingHorizonDays: z.number(),
  contactPhone: z.string().nullable(),
  contactEmail: z.string().nullable(),
  emergencyContacts: z.array(emergencyContactSchema),
  active: z.boolean(),
  /** Active bays at the site. */
  activeBays: z.number(),
  /** Live bookings (pending, approved, on site) that have not ended yet. */
  upcomingBookings: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OrgSite = z.infer<typeof orgSiteSchema>;

export const orgSiteListSchema = z.object({ items: z.array(orgSiteSchema) });
export type OrgSiteList = z.infer<typeof orgSiteListSchema>;

/** PATCH's answer: the site as saved, and the upcoming bookings its new hours or time zone leave outside opening hours (never moved). */
export const updateSiteResultSchema = z.object({ site: orgSiteSchema, outsideHours: z.array(affectedBookingSchema) });
export type UpdateSiteResult = z.infer<typeof updateSiteResultSchema>;

/** Deactivate's answer: the site, and what became of its upcoming bookings. */
export const deactivateSiteResultSchema = z.object({
  site: orgSiteSchema,
  outcomes: z.array(z.object({ id: z.string(), tsrNumber: z.string(), outcome: z.string(), message: z.string().nullable() })),
});
export type DeactivateSiteResult = z.infer<typeof deactivateSiteResultSchema>;

// ── Holiday closures ──────────────────────────────────────────────────────────────────────────

/** A dated site-wide closure: from the first day's local midnight to the midnight after the last day. */
const hasBothDays = (h: { fromDate: string; toDate: string }) => isCalendarDate(h.fromDate) && isCalendarDate(h.toDate);
/** Whole days from one calendar date to another (counted, so it holds up to 9999-12-31). */
const daysFrom = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

export const holidayInputSchema = z
  .object({
    name: z
      .string({ error: 'Name the closure' })
      .trim()
      .min(1, 'Name the closure')
      .max(100, 'Keep the name under 100 characters')
      .refine(...singleLine('Name')),
    fromDate: z.string({ error: 'Choose the first day' }).refine(isCalendarDate, 'Choose the first day'),
    toDate: z.string({ error: 'Choose the last day' }).refine(isCalendarDate, 'Choose the last day'),
    resolution: siteResolutionSchema.optional(),
  })
  // Both days must be real dates before their order and length mean anything (a blank one has its own message).
  .refine((h) => !hasBothDays(h) || h.toDate >= h.fromDate, { message: 'The last day cannot be before the first day', path: ['toDate'] })
  .refine((h) => !hasBothDays(h) || h.toDate < h.fromDate || daysFrom(h.fromDate, h.toDate) < MAX_HOLIDAY_DAYS, {
    message: `A closure can last at most ${MAX_HOLIDAY_DAYS} days`,
    path: ['toDate'],
  });
export type HolidayInput = z.input<typeof holidayInputSchema>;

export const holidaySchema = z.object({
  id: z.string(),
  siteId: z.string(),
  name: z.string(),
  /** Local dates at the site, inclusive. */
  fromDate: z.string(),
  toDate: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  createdAt: z.string(),
});
export type Holiday = z.infer<typeof holidaySchema>;

export const holidayListSchema = z.object({ items: z.array(holidaySchema) });
export type HolidayList = z.infer<typeof holidayListSchema>;

export const createHolidayResultSchema = z.object({
  holiday: holidaySchema,
  outcomes: deactivateSiteResultSchema.shape.outcomes,
});
export type CreateHolidayResult = z.infer<typeof createHolidayResultSchema>;

/** A holiday's instants: local midnight of the first day to local midnight after the last. */
export function holidayInstants(fromDate: string, toDate: string, timeZone: string): { start: Date; end: Date } {
  return { start: zonedTimeToUtc(fromDate, 0, timeZone), end: zonedTimeToUtc(addDays(toDate, 1), 0, timeZone) };
}

/** A holiday's local dates back from its instants (the last day is the one before its end). */
export function holidayDates(start: Date, end: Date, timeZone: string): { fromDate: string; toDate: string } {
  return { fromDate: localDateOf(start, timeZone), toDate: localDateOf(new Date(end.getTime() - 1), timeZone) };
}

// ── Rules shared by the server and the screen ─────────────────────────────────────────────────

/**
 * True when the booking's local start–end lies within one opening window of its local day (the
 * day it starts on) under `hours` in `timeZone`. Instants are compared, so a window across a
 * clock change keeps its real length.
 */
export function fitsOpeningHours(start: Date, end: Date, timeZone: string, hours: OperatingHours): boolean {
  const date = localDateOf(start, timeZone);
  return openMinutesOn(date, hours).some((window) => {
    const opens = zonedTimeToUtc(date, window.open, timeZone);
    const closes = zonedTimeToUtc(date, window.close, timeZone);
    return start.getTime() >= opens.getTime() && end.getTime() <= closes.getTime();
  });
}

/** A week's hours in one line, equal neighbouring days run together: 'Mon–Fri 06:00-22:00 · Sat 08:00-18:00 · Sun Closed'. */
export function summarizeWeekHours(hours: OperatingHours): string {
  const runs: { from: Weekday; to: Weekday; text: string }[] = [];
  for (const day of WEEKDAYS) {
    const text = formatDayHours(dayWindows(hours[day]));
    const last = runs.at(-1);
    if (last && last.text === text) last.to = day;
    else runs.push({ from: day, to: day, text });
  }
  return runs
    .map((r) => `${r.from === r.to ? WEEKDAY_SHORT_LABELS[r.from] : `${WEEKDAY_SHORT_LABELS[r.from]}–${WEEKDAY_SHORT_LABELS[r.to]}`} ${r.text}`)
    .join(' · ');
}
