import { z } from 'zod';
import { bookingRequestSchema, isCalendarDate, isTimeOfDay } from './booking-request';
import { languageSchema } from './language-schema';
import { multiLine } from './text-rules';
import { parseTimeOfDay, weekdayOf, zonedTimeToUtc } from './slot-grid';
import { addDays } from './day-notice';
import { WEEKDAYS } from './enums';

// Standing (recurring) bookings (issue 27 item 2, decision 045): an org admin's series for a tenant
// — every Tuesday and Thursday 07:00 for 60 minutes, from a date, until a date or open-ended. The
// job runner writes each date's occurrence `weeksAhead` weeks ahead through the normal booking path.
// One schema for the admin's form and the API, so both show the same messages.

export const STANDING_STATUSES = ['requested', 'active', 'declined', 'cancelled', 'ended'] as const;
export type StandingStatus = (typeof STANDING_STATUSES)[number];
export const OCCURRENCE_STATUSES = ['booked', 'conflict', 'skipped', 'cancelled'] as const;
export type OccurrenceStatus = (typeof OCCURRENCE_STATUSES)[number];

export const STANDING_STATUS_LABELS: Record<StandingStatus, string> = {
  requested: 'Requested',
  active: 'Active',
  declined: 'Declined',
  cancelled: 'Cancelled',
  ended: 'Ended',
};

/** ISO weekdays: 1 = Monday … 7 = Sunday. */
export const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const ISO_WEEKDAY_SHORT: Record<number, string> = { 1: 'Mon', 2: 'Tue', 3: 'Wed', 4: 'Thu', 5: 'Fri', 6: 'Sat', 7: 'Sun' };

export const MIN_WEEKS_AHEAD = 1;
export const MAX_WEEKS_AHEAD = 26;
export const DEFAULT_WEEKS_AHEAD = 4;

export const STANDING_MESSAGES = {
  siteRequired: 'Site is required',
  weekdaysRequired: 'Choose at least one weekday',
  weekdayInvalid: 'Weekdays are numbers from 1 (Monday) to 7 (Sunday)',
  startRequired: 'Start time is required',
  startInvalid: 'Start time must be a time of day (HH:mm)',
  startsOnRequired: 'Start date is required',
  dateInvalid: 'Use a calendar date as YYYY-MM-DD',
  endsBeforeStart: 'The end date must be on or after the start date',
  weeksAhead: `Weeks ahead must be a whole number from ${MIN_WEEKS_AHEAD} to ${MAX_WEEKS_AHEAD}`,
} as const;
const M = STANDING_MESSAGES;

const uuid = (message: string) => z.string({ error: message }).trim().min(1, { error: message, abort: true }).pipe(z.guid({ error: message }));

const weekdaysSchema = z
  .array(z.number({ error: M.weekdayInvalid }).int({ error: M.weekdayInvalid }).min(1, M.weekdayInvalid).max(7, M.weekdayInvalid), { error: M.weekdaysRequired })
  .min(1, M.weekdaysRequired)
  .transform((days) => [...new Set(days)].sort((a, b) => a - b));

const dateText = (required: string) =>
  z.string({ error: required }).trim().min(1, { error: required, abort: true }).refine(isCalendarDate, { error: M.dateInvalid });

const optionalDate = z
  .string({ error: M.dateInvalid })
  .trim()
  .nullish()
  .transform((value) => (value ? value : null))
  .refine((value) => value === null || isCalendarDate(value), { error: M.dateInvalid });

const weeksAhead = z
  .union([z.number(), z.string(), z.null()], { error: M.weeksAhead })
  .optional()
  .transform((value) => (value == null || value === '' ? DEFAULT_WEEKS_AHEAD : Number(value)))
  .pipe(z.number({ error: M.weeksAhead }).int({ error: M.weeksAhead }).min(MIN_WEEKS_AHEAD, M.weeksAhead).max(MAX_WEEKS_AHEAD, M.weeksAhead));

// The booking request's own field rules and messages (reference, company, contact, vehicle …).
const request = bookingRequestSchema.shape;

const standingFields = z.object({
  siteId: uuid(M.siteRequired),
  tenantId: z.guid({ error: 'Tenant is invalid' }).nullish().transform((id) => id ?? null),
  weekdays: weekdaysSchema,
  startLocal: z.string({ error: M.startRequired }).trim().min(1, { error: M.startRequired, abort: true }).refine(isTimeOfDay, { error: M.startInvalid }),
  durationMin: request.expectedDurationMin,
  startsOn: dateText(M.startsOnRequired),
  endsOn: optionalDate,
  weeksAhead,
  bookingType: request.bookingType,
  tsrNumber: request.tsrNumber,
  tenantName: request.tenantName,
  contactName: request.contactName,
  tenantEmail: request.tenantEmail,
  tenantPhone: request.tenantPhone,
  vehicleType: request.vehicleType,
  vehicleRegistration: request.vehicleRegistration,
  vehicleHeightM: request.vehicleHeightM,
  vehicleLengthM: request.vehicleLengthM,
  goodsDescription: request.goodsDescription,
  notes: request.notes,
  /** The language of the haulier's e-mails about the series and its bookings. */
  language: languageSchema.optional().default('en'),
});

const endsOnOrAfterStart = (value: { startsOn: string; endsOn: string | null }) => value.endsOn === null || value.endsOn >= value.startsOn;

/** A new standing booking (and, whole, the edit of one: the form sends every field). */
export const standingBookingInputSchema = standingFields.refine(endsOnOrAfterStart, { error: M.endsBeforeStart, path: ['endsOn'] });
export type StandingBookingInput = z.input<typeof standingBookingInputSchema>;
export type StandingBookingValues = z.output<typeof standingBookingInputSchema>;

export const standingListQuerySchema = z.object({
  status: z.enum(STANDING_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});

export const standingDeclineSchema = z.object({
  reason: z.string({ error: 'Give a reason' }).trim().min(1, { error: 'Give a reason', abort: true }).max(500, 'The reason is too long').refine(...multiLine('Reason')),
});
export const standingCancelSchema = z.object({
  reason: z.string().trim().max(500, 'The reason is too long').nullish().transform((r) => r || null),
});

/** Move one occurrence's booking to another date and time of its site (the admin's reschedule). */
export const occurrenceMoveSchema = z.object({
  date: dateText('Date is required'),
  slot: z.string({ error: 'Time slot is required' }).trim().refine(isTimeOfDay, { error: 'Time slot must be a time of day (HH:mm)' }),
});

/** A conflict's choices: place it again at the series' time, at another time that day (or date), or skip it. */
export const conflictResolutionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('retry') }),
  z.object({ action: z.literal('pick'), date: dateText('Date is required'), slot: occurrenceMoveSchema.shape.slot }),
  z.object({ action: z.literal('skip') }),
], { error: 'Choose retry, pick or skip' });
export type ConflictResolution = z.infer<typeof conflictResolutionSchema>;

// ── Answers ──

export const occurrenceSchema = z.object({
  date: z.string(),
  status: z.enum(OCCURRENCE_STATUSES),
  bookingId: z.string().nullable(),
  bookingStatus: z.string().nullable(),
  bookingVersion: z.number().nullable(),
  startTime: z.string().nullable(),
  bayName: z.string().nullable(),
  conflictCode: z.string().nullable(),
  conflictMessage: z.string().nullable(),
  resolvedAt: z.string().nullable(),
});
export type Occurrence = z.infer<typeof occurrenceSchema>;

export const standingBookingSchema = z.object({
  id: z.string(),
  status: z.enum(STANDING_STATUSES),
  siteId: z.string(),
  siteName: z.string(),
  timeZone: z.string(),
  tenantId: z.string().nullable(),
  weekdays: z.array(z.number()),
  startLocal: z.string(),
  durationMin: z.number(),
  startsOn: z.string(),
  endsOn: z.string().nullable(),
  weeksAhead: z.number(),
  expandedThrough: z.string().nullable(),
  bookingType: z.string(),
  tsrNumber: z.string(),
  tenantName: z.string(),
  contactName: z.string().nullable(),
  tenantEmail: z.string(),
  tenantPhone: z.string().nullable(),
  vehicleType: z.string(),
  vehicleRegistration: z.string(),
  vehicleHeightM: z.number(),
  vehicleLengthM: z.number().nullable(),
  goodsDescription: z.string().nullable(),
  notes: z.string().nullable(),
  language: z.string(),
  decisionReason: z.string().nullable(),
  requestedByHaulier: z.boolean(),
  nextOccurrence: z.string().nullable(),
  openConflicts: z.number(),
  createdAt: z.string(),
});
export type StandingBooking = z.infer<typeof standingBookingSchema>;

export const standingBookingDetailSchema = standingBookingSchema.extend({ occurrences: z.array(occurrenceSchema) });
export type StandingBookingDetail = z.infer<typeof standingBookingDetailSchema>;

export const standingListSchema = z.object({ items: z.array(standingBookingSchema), total: z.number(), page: z.number(), pageSize: z.number() });
export type StandingList = z.infer<typeof standingListSchema>;

export const conflictListSchema = z.object({
  items: z.array(
    occurrenceSchema.extend({
      standingBookingId: z.string(),
      tsrNumber: z.string(),
      tenantName: z.string(),
      siteName: z.string(),
      startLocal: z.string(),
    }),
  ),
});
export type ConflictList = z.infer<typeof conflictListSchema>;

// ── Pure rules ──

/** ISO weekday (1 = Monday … 7 = Sunday) of a calendar date. */
export function isoWeekdayOf(date: string): number {
  return WEEKDAYS.indexOf(weekdayOf(date)) + 1;
}

/**
 * The dates of a series in [from, to] (inclusive, local calendar dates): each day whose ISO weekday
 * is one of `weekdays`, not before `startsOn`, not after `endsOn`.
 */
export function standingOccurrenceDates(
  series: { weekdays: readonly number[]; startsOn: string; endsOn: string | null },
  range: { from: string; to: string },
): string[] {
  const from = range.from > series.startsOn ? range.from : series.startsOn;
  const to = series.endsOn && series.endsOn < range.to ? series.endsOn : range.to;
  const days = new Set(series.weekdays);
  const dates: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    if (days.has(isoWeekdayOf(date))) dates.push(date);
  }
  return dates;
}

/**
 * An occurrence's start and end: `startLocal` on the site's wall clock that date (07:00 stays 07:00
 * local across a daylight-saving change), lasting `durationMin`.
 */
export function occurrenceTimes(date: string, startLocal: string, durationMin: number, timeZone: string): { start: Date; end: Date } {
  const start = zonedTimeToUtc(date, parseTimeOfDay(startLocal) ?? 0, timeZone);
  return { start, end: new Date(start.getTime() + durationMin * 60_000) };
}

/**
 * The dates the job must still write for a series, as of `today` at its site: from the day after
 * `expandedThrough` (or `startsOn`, never before today) to today + `weeksAhead` weeks (never after
 * `endsOn`); null when there is nothing to write.
 */
export function expansionWindow(
  series: { startsOn: string; endsOn: string | null; weeksAhead: number; expandedThrough: string | null },
  today: string,
): { from: string; to: string } | null {
  const candidates = [series.startsOn, today, series.expandedThrough ? addDays(series.expandedThrough, 1) : series.startsOn];
  const from = candidates.reduce((a, b) => (a > b ? a : b));
  const horizon = addDays(today, series.weeksAhead * 7);
  const to = series.endsOn && series.endsOn < horizon ? series.endsOn : horizon;
  return from <= to ? { from, to } : null;
}

/** 'Tue, Thu 07:00, 60 min, from 2026-12-01 until 2027-03-31' or '…, from 2026-12-01, open-ended'. */
export function describeStandingSchedule(series: { weekdays: readonly number[]; startLocal: string; durationMin: number; startsOn: string; endsOn: string | null }): string {
  const days = [...series.weekdays].sort((a, b) => a - b).map((d) => ISO_WEEKDAY_SHORT[d]).join(', ');
  return `${days} ${series.startLocal}, ${series.durationMin} min, from ${series.startsOn}${series.endsOn ? ` until ${series.endsOn}` : ', open-ended'}`;
}
