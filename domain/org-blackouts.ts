import * as rruleModule from 'rrule';
import { z } from 'zod';
import { affectedOutcomeSchema, affectedResolutionSchema } from './affected-bookings';
import { isCalendarDate, isTimeOfDay } from './booking-request';
import { WEEKDAYS, type Weekday } from './enums';
import { formatTimeOfDay, parseTimeOfDay, weekdayOf, zonedTimeToUtc } from './slot-grid';
import { multiLine } from './text-rules';

// Blackouts: times a bay (or a whole site) takes no bookings. A one-off is one row of `blackouts`;
// a recurring blackout is a series (an RFC 5545 RRULE without DTSTART, a first day, a local start
// time and a duration) EXPANDED into ordinary `blackouts` rows, so availability, the one-statement
// booking and the schedule read one table and never a rule.
//
// Expansion is "floating": the rule makes local calendar DATES (rrule run with UTC as a wall clock,
// DTSTART at midnight UTC of the first day, no TZID), and each date + the local start time becomes
// an instant in the site's time zone — so 06:00 stays 06:00 local across a DST change. A start
// time skipped by a spring-forward change moves forward by the gap; a repeated one is its first
// occurrence (domain/slot-grid.ts). The end is the start plus the duration in elapsed minutes.

// rrule ships CommonJS for Node (its exports sit on `default`) and ESM for bundlers (which have
// no `default`: read it dynamically so the bundler does not warn about it).
const { RRule } = (Reflect.get(rruleModule, 'default') as typeof rruleModule | undefined) ?? rruleModule;

export const BLACKOUT_KINDS = ['blackout', 'holiday'] as const;
export type BlackoutKind = (typeof BLACKOUT_KINDS)[number];
export const BLACKOUT_KIND_LABELS: Record<BlackoutKind, string> = { blackout: 'Blackout', holiday: 'Holiday' };

export const BLACKOUT_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type BlackoutFrequency = (typeof BLACKOUT_FREQUENCIES)[number];
export const BLACKOUT_FREQUENCY_LABELS: Record<BlackoutFrequency, string> = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };

/** Occurrences are written up to this many days ahead: the longest booking horizon a site may have. */
export const EXPANSION_HORIZON_DAYS = 730;
/** At most this many occurrences are written by one expansion (a safety cap; the daily job continues). */
export const MAX_OCCURRENCES_PER_EXPANSION = 1000;
export const MAX_SERIES_DURATION_MIN = 10_080;
export const MAX_INTERVAL = 99;
export const REASON_MAX = 500;
export const BLACKOUT_PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_BLACKOUT_PAGE_SIZE = 25;

export const WEEKDAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};
const RRULE_DAYS: Record<Weekday, string> = { mon: 'MO', tue: 'TU', wed: 'WE', thu: 'TH', fri: 'FR', sat: 'SA', sun: 'SU' };
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// Schemas: what the API takes (the web form validates with the same ones) and answers.

const uuid = z.uuid();
const dateField = (label: string) =>
  z.string({ error: `${label} is required` }).min(1, `${label} is required`).refine(isCalendarDate, `${label} must be a date (YYYY-MM-DD)`);
const timeField = (label: string) =>
  z.string({ error: `${label} is required` }).min(1, `${label} is required`).refine(isTimeOfDay, `${label} must be a time of day (HH:mm)`);
/** An end may be '24:00', the end of its day. */
const endTimeField = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .min(1, `${label} is required`)
    .refine((t) => isTimeOfDay(t) || t === '24:00', `${label} must be a time of day (HH:mm)`);
const reasonField = z
  .string()
  .trim()
  .max(REASON_MAX, `Keep the reason under ${REASON_MAX} characters`)
  .refine(...multiLine('Reason'))
  .nullish();
const bayField = z.uuid('Choose a bay, or the whole site').nullable();

export const END_BEFORE_START_MESSAGE = 'The end must be after the start';
export const WEEKDAYS_REQUIRED_MESSAGE = 'Choose at least one weekday';
export const UNTIL_BEFORE_START_MESSAGE = 'The last date must be on or after the start date';

type LocalSpan = { startDate?: string; startTime?: string; endDate?: string; endTime?: string };

/** The one-off's end after its start, compared as local wall-clock text (the server checks the instants too). */
function checkEndAfterStart(value: LocalSpan, ctx: z.RefinementCtx): void {
  const { startDate, startTime, endDate, endTime } = value;
  if (!startDate || !startTime || !endDate || !endTime) return;
  if (!isCalendarDate(startDate) || !isCalendarDate(endDate)) return;
  if (`${endDate}T${endTime}` <= `${startDate}T${startTime}`) {
    ctx.addIssue({ code: 'custom', message: END_BEFORE_START_MESSAGE, path: [endDate < startDate ? 'endDate' : 'endTime'] });
  }
}

const oneOffFields = z.object({
  siteId: z.uuid('Choose a site'),
  /** null: the whole site. */
  bayId: bayField,
  /** Site-local wall clock. */
  startDate: dateField('Start date'),
  startTime: timeField('Start time'),
  endDate: dateField('End date'),
  endTime: endTimeField('End time'),
  reason: reasonField,
});

/** A one-off blackout as the form fills it in. */
export const blackoutFormSchema = oneOffFields.superRefine(checkEndAfterStart);
export type BlackoutFormInput = z.input<typeof blackoutFormSchema>;

/** POST /blackouts: with `resolution` when live bookings are in the way (409 affected_bookings). */
export const createBlackoutSchema = oneOffFields.extend({ resolution: affectedResolutionSchema.optional() }).superRefine(checkEndAfterStart);
export type CreateBlackoutInput = z.input<typeof createBlackoutSchema>;

/** PATCH /blackouts/:id: any of the fields (the site stays); an occurrence edited alone leaves its series. */
export const updateBlackoutSchema = oneOffFields
  .omit({ siteId: true })
  .partial()
  .extend({ resolution: affectedResolutionSchema.optional() })
  .superRefine(checkEndAfterStart);
export type UpdateBlackoutInput = z.input<typeof updateBlackoutSchema>;

type SeriesShape = { frequency?: BlackoutFrequency; weekdays?: Weekday[]; startsOn?: string; until?: string | null };

/** `isPatch`: weekdays left out keep what the series has (the server checks the merged series again). */
const checkSeries = (isPatch: boolean) => (value: SeriesShape, ctx: z.RefinementCtx): void => {
  const isMissingDays = isPatch ? value.weekdays !== undefined && value.weekdays.length === 0 : !value.weekdays?.length;
  if (value.frequency === 'weekly' && isMissingDays) {
    ctx.addIssue({ code: 'custom', message: WEEKDAYS_REQUIRED_MESSAGE, path: ['weekdays'] });
  }
  if (value.until && value.startsOn && isCalendarDate(value.until) && isCalendarDate(value.startsOn) && value.until < value.startsOn) {
    ctx.addIssue({ code: 'custom', message: UNTIL_BEFORE_START_MESSAGE, path: ['until'] });
  }
};

const seriesFields = z.object({
  siteId: z.uuid('Choose a site'),
  bayId: bayField,
  frequency: z.enum(BLACKOUT_FREQUENCIES, { error: 'Repeat daily, weekly or monthly' }),
  interval: z
    .number({ error: 'Repeat every must be a number' })
    .int('Repeat every must be a whole number')
    .min(1, `Repeat every must be between 1 and ${MAX_INTERVAL}`)
    .max(MAX_INTERVAL, `Repeat every must be between 1 and ${MAX_INTERVAL}`)
    .optional(),
  /** Weekly only: the days it repeats on. */
  weekdays: z.array(z.enum(WEEKDAYS, { error: 'Choose weekdays from Monday to Sunday' })).max(7).optional(),
  /** The first day (site-local). */
  startsOn: dateField('Start date'),
  /** Local start time of each occurrence. */
  startLocal: timeField('Start time'),
  durationMin: z
    .number({ error: 'Duration must be a number of minutes' })
    .int('Duration must be a whole number of minutes')
    .min(1, `Duration must be between 1 and ${MAX_SERIES_DURATION_MIN} minutes (7 days)`)
    .max(MAX_SERIES_DURATION_MIN, `Duration must be between 1 and ${MAX_SERIES_DURATION_MIN} minutes (7 days)`),
  /** The last day an occurrence may start on; null: no end. */
  until: dateField('Until').nullish(),
  reason: reasonField,
});

/** A recurring blackout as the form fills it in. */
export const seriesFormSchema = seriesFields.superRefine(checkSeries(false));
export type SeriesFormInput = z.input<typeof seriesFormSchema>;

export const createSeriesSchema = seriesFields.extend({ resolution: affectedResolutionSchema.optional() }).superRefine(checkSeries(false));
export type CreateSeriesInput = z.input<typeof createSeriesSchema>;

export const updateSeriesSchema = seriesFields
  .omit({ siteId: true })
  .partial()
  .extend({ resolution: affectedResolutionSchema.optional() })
  .superRefine(checkSeries(true));
export type UpdateSeriesInput = z.input<typeof updateSeriesSchema>;

export const blackoutListQuerySchema = z
  .object({
    siteId: uuid.optional(),
    /** That bay's blackouts and its site's whole-site ones. */
    bayId: uuid.optional(),
    /** Site-local days, inclusive; neither: blackouts not over yet. */
    from: dateField('From').optional(),
    to: dateField('To').optional(),
    seriesId: uuid.optional(),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce
      .number()
      .int()
      .refine((n) => (BLACKOUT_PAGE_SIZES as readonly number[]).includes(n), 'Page size must be 10, 25, 50 or 100')
      .default(DEFAULT_BLACKOUT_PAGE_SIZE),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'From must be on or before To', path: ['to'] });
export type BlackoutListQuery = z.input<typeof blackoutListQuerySchema>;

export const seriesListQuerySchema = z.object({ siteId: uuid.optional() });

export const blackoutItemSchema = z.object({
  id: z.string(),
  kind: z.enum(BLACKOUT_KINDS),
  siteId: z.string(),
  siteName: z.string(),
  timeZone: z.string(),
  bayId: z.string().nullable(),
  /** null: the whole site. */
  bayName: z.string().nullable(),
  startTime: z.string(),
  endTime: z.string(),
  /** The same instants on the site's wall clock. */
  startDate: z.string(),
  startLocal: z.string(),
  endDate: z.string(),
  endLocal: z.string(),
  reason: z.string().nullable(),
  /** The recurring series this occurrence belongs to. */
  series: z.object({ id: z.string(), summary: z.string() }).nullable(),
  status: z.enum(['upcoming', 'current', 'past']),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BlackoutItem = z.infer<typeof blackoutItemSchema>;

export const blackoutListSchema = z.object({
  items: z.array(blackoutItemSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type BlackoutList = z.infer<typeof blackoutListSchema>;

export const seriesSchema = z.object({
  id: z.string(),
  siteId: z.string(),
  siteName: z.string(),
  timeZone: z.string(),
  bayId: z.string().nullable(),
  bayName: z.string().nullable(),
  frequency: z.enum(BLACKOUT_FREQUENCIES),
  interval: z.number(),
  weekdays: z.array(z.enum(WEEKDAYS)),
  startsOn: z.string(),
  startLocal: z.string(),
  durationMin: z.number(),
  until: z.string().nullable(),
  reason: z.string().nullable(),
  /** 'Every Monday 06:00–08:00'. */
  summary: z.string(),
  rrule: z.string(),
  /** The last local date occurrences have been written for. */
  expandedUntil: z.string().nullable(),
  upcomingCount: z.number(),
  nextStart: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BlackoutSeries = z.infer<typeof seriesSchema>;
export const seriesListSchema = z.object({ items: z.array(seriesSchema) });

export const blackoutWriteResultSchema = z.object({ blackout: blackoutItemSchema, outcomes: z.array(affectedOutcomeSchema) });
export type BlackoutWriteResult = z.infer<typeof blackoutWriteResultSchema>;
export const seriesWriteResultSchema = z.object({
  series: seriesSchema,
  /** Occurrences written from now on. */
  occurrences: z.number(),
  outcomes: z.array(affectedOutcomeSchema),
});
export type SeriesWriteResult = z.infer<typeof seriesWriteResultSchema>;
export const seriesDeleteResultSchema = z.object({ deletedOccurrences: z.number(), keptOccurrences: z.number() });

/** The sites and bays a blackout can be put on. */
export const blackoutOptionsSchema = z.object({
  sites: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      timeZone: z.string(),
      active: z.boolean(),
      today: z.string(),
      bays: z.array(z.object({ id: z.string(), name: z.string(), active: z.boolean() })),
    }),
  ),
});
export type BlackoutOptions = z.infer<typeof blackoutOptionsSchema>;

// ---------------------------------------------------------------------------------------------
// Recurrence rules.

export type Recurrence = { frequency: BlackoutFrequency; interval: number; weekdays: Weekday[] };

/** A rule the expansion does not take: the API answers it with a 400. */
export class RecurrenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecurrenceError';
  }
}

/** The stored RRULE of a simple recurrence, e.g. 'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE'. */
export function buildRrule(recurrence: Recurrence): string {
  const parts = [`FREQ=${recurrence.frequency.toUpperCase()}`, `INTERVAL=${recurrence.interval}`];
  if (recurrence.frequency === 'weekly' && recurrence.weekdays.length > 0) {
    parts.push(`BYDAY=${WEEKDAYS.filter((d) => recurrence.weekdays.includes(d)).map((d) => RRULE_DAYS[d]).join(',')}`);
  }
  return parts.join(';');
}

const RRULE_KEYS = new Set(['FREQ', 'INTERVAL', 'BYDAY', 'WKST']);
const FREQUENCY_OF: Record<string, BlackoutFrequency> = { DAILY: 'daily', WEEKLY: 'weekly', MONTHLY: 'monthly' };
const WEEKDAY_OF = Object.fromEntries(WEEKDAYS.map((d) => [RRULE_DAYS[d], d])) as Record<string, Weekday>;

/**
 * Reads a stored rule back into a simple recurrence, strictly: FREQ DAILY, WEEKLY or MONTHLY, an
 * INTERVAL, BYDAY weekdays for weekly rules (WKST allowed). Anything else (HOURLY, COUNT, UNTIL,
 * DTSTART, BYMONTH…) throws a RecurrenceError saying what.
 */
export function parseRrule(text: string): Recurrence {
  const body = text.trim().replace(/^RRULE:/i, '');
  if (!body) throw new RecurrenceError('The recurrence is empty');
  const values = new Map<string, string>();
  for (const part of body.split(';')) {
    const match = /^([A-Za-z]+)=([^;=]+)$/.exec(part.trim());
    if (!match) throw new RecurrenceError(`Cannot read '${part}' in the recurrence`);
    const key = match[1]!.toUpperCase();
    if (!RRULE_KEYS.has(key)) throw new RecurrenceError(`The recurrence cannot use ${key}: only a frequency, an interval and weekdays`);
    if (values.has(key)) throw new RecurrenceError(`${key} is given twice in the recurrence`);
    values.set(key, match[2]!.toUpperCase());
  }
  const freq = values.get('FREQ');
  if (!freq) throw new RecurrenceError('The recurrence needs a frequency (FREQ)');
  const frequency = FREQUENCY_OF[freq];
  if (!frequency) throw new RecurrenceError(`Blackouts repeat daily, weekly or monthly (FREQ=${freq} is not supported)`);
  const intervalText = values.get('INTERVAL') ?? '1';
  const interval = /^\d{1,3}$/.test(intervalText) ? Number(intervalText) : NaN;
  if (!(interval >= 1 && interval <= MAX_INTERVAL)) throw new RecurrenceError(`The interval must be a whole number from 1 to ${MAX_INTERVAL}`);
  const byDay = values.get('BYDAY');
  let weekdays: Weekday[] = [];
  if (byDay !== undefined) {
    if (frequency !== 'weekly') throw new RecurrenceError('Weekdays (BYDAY) go with a weekly recurrence only');
    const days = byDay.split(',');
    if (days.some((d) => !WEEKDAY_OF[d])) throw new RecurrenceError(`Unknown weekday in BYDAY=${byDay}: use MO, TU, WE, TH, FR, SA or SU`);
    weekdays = WEEKDAYS.filter((d) => days.includes(RRULE_DAYS[d]));
  }
  const wkst = values.get('WKST');
  if (wkst !== undefined && !WEEKDAY_OF[wkst]) throw new RecurrenceError(`Unknown week start WKST=${wkst}`);
  return { frequency, interval, weekdays };
}

/** 'YYYY-MM-DD' plus whole days. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

const utcMidnight = (date: string) => new Date(`${date}T00:00:00Z`);

/**
 * The local dates the rule gives from `startsOn`, within [from, to] (inclusive), at most `max`:
 * the rule runs in "floating" time, UTC standing in for the site's wall clock.
 */
export function occurrenceDates(
  rrule: string,
  startsOn: string,
  range: { from: string; to: string },
  max = MAX_OCCURRENCES_PER_EXPANSION,
): { dates: string[]; capped: boolean } {
  const recurrence = parseRrule(rrule);
  const from = range.from > startsOn ? range.from : startsOn;
  if (from > range.to) return { dates: [], capped: false };
  const wkst = /WKST=(\w\w)/i.exec(rrule)?.[1]?.toUpperCase();
  const rule = new RRule({
    freq: { daily: RRule.DAILY, weekly: RRule.WEEKLY, monthly: RRule.MONTHLY }[recurrence.frequency],
    interval: recurrence.interval,
    byweekday: recurrence.weekdays.length > 0 ? recurrence.weekdays.map((d) => WEEKDAYS.indexOf(d)) : null,
    wkst: wkst ? WEEKDAYS.indexOf(WEEKDAY_OF[wkst]!) : 0,
    dtstart: utcMidnight(startsOn),
    tzid: null,
  });
  // One more than the cap tells whether the cap cut the list.
  const found = rule.between(utcMidnight(from), utcMidnight(range.to), true, (_date, i) => i <= max);
  const dates = found.map((d) => d.toISOString().slice(0, 10));
  return { dates: dates.slice(0, max), capped: dates.length > max };
}

export type SeriesRule = { rrule: string; startsOn: string; startLocal: string; durationMin: number; until: string | null };
export type Occurrence = { date: string; start: Date; end: Date };

/** The last local date a series is written up to: `until`, or today + the horizon, whichever is first. */
export function expansionEnd(today: string, until: string | null): string {
  const horizon = addDays(today, EXPANSION_HORIZON_DAYS);
  return until && until < horizon ? until : horizon;
}

/**
 * A series' occurrences on local dates [from, to] (to no later than `until`), each starting at
 * `startLocal` on the site's wall clock and lasting `durationMin`; those starting before
 * `notBefore` are left out (history is not rewritten), as are the `except` dates (occurrences
 * deleted or edited alone). `coveredUntil` is the last date the expansion accounted for: `to`, or
 * the last occurrence's date when the cap cut it short (the daily job goes on from there).
 */
export function expandSeries(
  series: SeriesRule,
  options: { timeZone: string; from: string; to: string; notBefore?: Date; except?: ReadonlySet<string>; max?: number },
): { occurrences: Occurrence[]; coveredUntil: string } {
  const minutes = parseTimeOfDay(series.startLocal);
  if (minutes === null || minutes >= 24 * 60) throw new RecurrenceError('The start time must be a time of day (HH:mm)');
  if (!Number.isInteger(series.durationMin) || series.durationMin < 1 || series.durationMin > MAX_SERIES_DURATION_MIN) {
    throw new RecurrenceError(`The duration must be between 1 and ${MAX_SERIES_DURATION_MIN} minutes`);
  }
  const to = series.until && series.until < options.to ? series.until : options.to;
  const { dates, capped } = occurrenceDates(series.rrule, series.startsOn, { from: options.from, to }, options.max);
  const occurrences: Occurrence[] = [];
  for (const date of dates) {
    if (options.except?.has(date)) continue;
    const start = zonedTimeToUtc(date, minutes, options.timeZone);
    if (options.notBefore && start.getTime() < options.notBefore.getTime()) continue;
    occurrences.push({ date, start, end: new Date(start.getTime() + series.durationMin * MINUTE_MS) });
  }
  return { occurrences, coveredUntil: capped ? dates.at(-1)! : to };
}

// ---------------------------------------------------------------------------------------------
// Plain-language summaries.

function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** '2 hours', '1 day 4 hours', '45 minutes'. */
export function formatDuration(minutes: number): string {
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const parts = [
    days ? `${days} day${days === 1 ? '' : 's'}` : '',
    hours ? `${hours} hour${hours === 1 ? '' : 's'}` : '',
    mins ? `${mins} minute${mins === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(' ') : '0 minutes';
}

/** '06:00–08:00', '22:00–06:00 next day', or 'from 18:00 for 2 days 12 hours'. */
export function formatTimeSpan(startLocal: string, durationMin: number): string {
  const start = parseTimeOfDay(startLocal) ?? 0;
  const end = start + durationMin;
  if (end <= 24 * 60) return `${startLocal}–${formatTimeOfDay(end)}`;
  if (end < 48 * 60) return `${startLocal}–${formatTimeOfDay(end - 24 * 60)} next day`;
  return `from ${startLocal} for ${formatDuration(durationMin)}`;
}

/** 'Every Monday 06:00–08:00', 'Every 2 weeks on Monday and Friday 22:00–06:00 next day', 'Every month on the 15th 06:00–07:00'. */
export function describeRecurrence(
  recurrence: Recurrence,
  series: { startsOn: string; startLocal: string; durationMin: number },
): string {
  const span = formatTimeSpan(series.startLocal, series.durationMin);
  const n = recurrence.interval;
  switch (recurrence.frequency) {
    case 'daily':
      return `${n === 1 ? 'Every day' : `Every ${n} days`} ${span}`;
    case 'weekly': {
      const days = recurrence.weekdays.length > 0 ? recurrence.weekdays : [weekdayOf(series.startsOn)];
      const names = joinWords(days.map((d) => WEEKDAY_NAMES[d]));
      if (n === 1) return `${days.length === 7 ? 'Every day' : `Every ${names}`} ${span}`;
      return `Every ${n} weeks on ${names} ${span}`;
    }
    case 'monthly': {
      const day = Number(series.startsOn.slice(8, 10));
      return `${n === 1 ? 'Every month' : `Every ${n} months`} on the ${ordinal(day)} ${span}`;
    }
  }
}

/** The summary of a stored series (its rule read back). */
export function describeSeries(series: { rrule: string; startsOn: string; startLocal: string; durationMin: number }): string {
  return describeRecurrence(parseRrule(series.rrule), series);
}
