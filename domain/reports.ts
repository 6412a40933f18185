import { z } from 'zod';
import { ON_TIME_WINDOW_MIN } from './constants';
import { isCalendarDate } from './booking-request';
import { addDays } from './day-notice';
import { BOOKING_TYPES, WEEKDAYS } from './enums';
import { daysInRange } from './org-schedule';

// Reports (/org/reports, issue 11): what GET /api/orgs/:orgId/reports… take and answer, the CSV
// each report downloads, and the rules both sides share. The web derives its types from these
// schemas and renders each table with the same columns the CSV is written with.
//
// Every day and hour is the SITE's local day and hour: a booking is counted on the local date of
// its start (its start's local hour and weekday), and its time on a bay is split at each local
// midnight, so a 23- or 25-hour day is simply a shorter or longer day. With several sites in
// different time zones each site's bookings fall on its own dates.
//
// Which bookings each report reads (docs/decisions/013-reports.md):
// - utilisation: every status but declined, cancelled and no-show (RELEASED); time outside the
//   bay's open hours (the site's hours minus site-wide and bay blackouts, holiday closures
//   included) is not counted; each bay only while it was in service (its active periods, so a
//   deactivated bay keeps its history and a new bay counts from the day it was made).
// - punctuality: arrivals (bookings checked in at the gate) starting in the range.
// - dwell: visits (checked in) starting in the range; each time needs both of its timestamps.
// - no-shows and cancellations: bookings starting in the range, except declined ones.
// - volume: bookings starting in the range, except declined and cancelled ones.

// ── Range and filters ───────────────────────────────────────────────────────────────────────────

/** The longest range one request may cover, in site-local days (inclusive). */
export const REPORT_MAX_RANGE_DAYS = 366;
/** The range when none is given: the last 30 days, today included. */
export const REPORT_DEFAULT_RANGE_DAYS = 30;

export const REPORT_RANGE_PRESETS = ['today', 'last_7_days', 'last_30_days', 'this_month', 'custom'] as const;
export type ReportRangePreset = (typeof REPORT_RANGE_PRESETS)[number];
export const DEFAULT_REPORT_RANGE_PRESET: ReportRangePreset = 'last_30_days';
export const REPORT_RANGE_PRESET_LABELS: Record<ReportRangePreset, string> = {
  today: 'Today',
  last_7_days: 'Last 7 days',
  last_30_days: 'Last 30 days',
  this_month: 'This month',
  custom: 'Custom range',
};

export type ReportRange = { from: string; to: string };

/**
 * A preset's dates, given today at the site ('YYYY-MM-DD'): 'last 7 days' is today and the six days
 * before; 'this month' runs from the 1st to today. 'custom' has no dates of its own (null).
 */
export function resolveReportRange(preset: ReportRangePreset, today: string): ReportRange | null {
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'last_7_days':
      return { from: addDays(today, -6), to: today };
    case 'last_30_days':
      return { from: addDays(today, -(REPORT_DEFAULT_RANGE_DAYS - 1)), to: today };
    case 'this_month':
      return { from: `${today.slice(0, 8)}01`, to: today };
    case 'custom':
      return null;
  }
}

/** Whole days from `from` to `to`, both included. */
export const reportRangeDays = (range: ReportRange): number => daysInRange(range.from, range.to);

/** The texts the API answers with (and the web shows as they come). */
export const REPORT_MESSAGES = {
  fromInvalid: 'The start date must be a calendar date written YYYY-MM-DD',
  toInvalid: 'The end date must be a calendar date written YYYY-MM-DD',
  bothDates: 'Give both a start and an end date (or neither, for the last 30 days)',
  endBeforeStart: 'The end date is before the start date',
  rangeTooLong: `Choose a range of at most ${REPORT_MAX_RANGE_DAYS} days`,
  /** 404: a site that is not the organization's (or does not exist). */
  siteNotFound: 'Site not found',
  /** 403: a dockmaster asking for every site together. */
  allSitesForAdmins: 'Choose a site: reports for all sites together are for organization admins',
  /** 403: a dockmaster signed in at one site asking for another. */
  ownSiteOnly: 'Dockmasters see the reports of the site they signed in at',
} as const;

const dateParam = (message: string) => z.string().max(10, message).refine(isCalendarDate, message);

const reportQueryFields = {
  /** The first site-local day, 'YYYY-MM-DD' (with `to`; both absent: the last 30 days). */
  from: dateParam(REPORT_MESSAGES.fromInvalid).optional(),
  /** The last site-local day, included. */
  to: dateParam(REPORT_MESSAGES.toInvalid).optional(),
  /** One site of the organization; absent: every site (organization admins). Unknown: 404. */
  siteId: z.string().max(100).optional(),
};

function checkRange(q: { from?: string; to?: string }, ctx: z.RefinementCtx): void {
  if ((q.from === undefined) !== (q.to === undefined)) {
    ctx.addIssue({ code: 'custom', path: [q.from === undefined ? 'from' : 'to'], message: REPORT_MESSAGES.bothDates });
    return;
  }
  if (!q.from || !q.to || !isCalendarDate(q.from) || !isCalendarDate(q.to)) return;
  if (q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_MESSAGES.endBeforeStart });
  else if (daysInRange(q.from, q.to) > REPORT_MAX_RANGE_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_MESSAGES.rangeTooLong });
}

/** The query of every report: a date range and a site filter. */
export const reportQuerySchema = z.object(reportQueryFields).superRefine(checkRange);
export type ReportQuery = z.input<typeof reportQuerySchema>;

// ── What every report answers ───────────────────────────────────────────────────────────────────

export const reportSiteSchema = z.object({ id: z.string(), name: z.string(), timeZone: z.string() });
export type ReportSite = z.infer<typeof reportSiteSchema>;

const reportHeaderFields = {
  /** The server's clock when the figures were computed (ISO). */
  generatedAt: z.string(),
  /** The range the figures cover (the default filled in), site-local dates, inclusive. */
  range: z.object({ from: z.string(), to: z.string(), days: z.number() }),
  /** The site asked for; null: every site of the organization. */
  siteId: z.string().nullable(),
  /** The sites the figures cover, by name. */
  sites: z.array(reportSiteSchema),
};

/** A share of a whole, 0–1; null when the whole is 0 (nothing to divide). */
const rate = z.number().nullable();

// ── GET /reports: what the caller may ask for ───────────────────────────────────────────────────

export const reportOptionsSchema = z.object({
  /** The sites the caller may report on, by name, each with its own today. */
  sites: z.array(reportSiteSchema.extend({ today: z.string() })),
  /** Whether "All sites" may be chosen (organization admins); dockmasters pick one site. */
  allSitesAllowed: z.boolean(),
  /** The site a dockmaster signed in at (their reports are that site's), else null. */
  lockedSiteId: z.string().nullable(),
  /** The site filter to start with: null for all sites (admins), else a site. */
  defaultSiteId: z.string().nullable(),
  /** Today where the figures for all sites are dated (the first site's time zone), for the presets. */
  today: z.string(),
  /** The range used when none is given (last 30 days). */
  defaultRange: z.object({ from: z.string(), to: z.string() }),
  maxRangeDays: z.number(),
});
export type ReportOptions = z.infer<typeof reportOptionsSchema>;

// ── Bay utilisation ─────────────────────────────────────────────────────────────────────────────

export const utilisationFiguresSchema = z.object({
  /** Minutes the bay (or bays) could be used: open hours minus blackouts and closures. */
  openMinutes: z.number(),
  /** Minutes of those held by bookings (every status but declined, cancelled and no-show). */
  bookedMinutes: z.number(),
  /** Minutes of those a vehicle was actually at the bay: start → check-out (or now, still there). */
  occupiedMinutes: z.number(),
  bookedRate: rate,
  occupiedRate: rate,
});
export type UtilisationFigures = z.infer<typeof utilisationFiguresSchema>;

export const utilisationBaySchema = utilisationFiguresSchema.extend({
  bayId: z.string(),
  bayName: z.string(),
  /** False for a bay deactivated since: its figures are from while it was in service. */
  isActive: z.boolean(),
  siteId: z.string(),
  siteName: z.string(),
});
export type UtilisationBay = z.infer<typeof utilisationBaySchema>;

export const utilisationReportSchema = z.object({
  ...reportHeaderFields,
  /** The table: each bay in service at some time in the range, over the range, by site then bay name. */
  bays: z.array(utilisationBaySchema),
  /** The heat map: one cell per bay and site-local day (every day of the range, closed days 0). */
  cells: z.array(utilisationFiguresSchema.extend({ bayId: z.string(), date: z.string() })),
  /** The line over time: each site per site-local day. */
  siteDays: z.array(utilisationFiguresSchema.extend({ siteId: z.string(), date: z.string() })),
  /** Each site over the whole range. */
  siteTotals: z.array(utilisationFiguresSchema.extend({ siteId: z.string(), siteName: z.string() })),
  total: utilisationFiguresSchema,
});
export type UtilisationReport = z.infer<typeof utilisationReportSchema>;

// ── Grouped tables (punctuality, dwell, no-shows) ───────────────────────────────────────────────

/** The groupings a report's rows come in; `key` is an id (or the value itself), `label` what people read. */
export const REPORT_DIMENSIONS = ['site', 'bay', 'tenant', 'vehicle_type', 'booking_type'] as const;
export type ReportDimension = (typeof REPORT_DIMENSIONS)[number];
export const REPORT_DIMENSION_LABELS: Record<ReportDimension, string> = {
  site: 'Site',
  bay: 'Bay',
  tenant: 'Tenant',
  vehicle_type: 'Vehicle type',
  booking_type: 'Booking type',
};
export const PUNCTUALITY_DIMENSIONS = ['tenant', 'site', 'vehicle_type'] as const satisfies readonly ReportDimension[];
export const DWELL_DIMENSIONS = ['site', 'bay', 'tenant', 'vehicle_type', 'booking_type'] as const satisfies readonly ReportDimension[];
export const NO_SHOW_DIMENSIONS = ['tenant', 'site'] as const satisfies readonly ReportDimension[];

/**
 * A tenant is the organization's tenant a booking is linked to; an unlinked booking is grouped by
 * the company name typed on it (case and surrounding spaces ignored). Its key is then 'name:<name>'.
 */
export const UNLINKED_TENANT_KEY_PREFIX = 'name:';

const groupFields = {
  dimension: z.enum(REPORT_DIMENSIONS),
  key: z.string(),
  label: z.string(),
};

/** A grouped report's CSV: every dimension (a "Group by" column), or one. */
export const groupedReportCsvQuerySchema = z
  .object({ ...reportQueryFields, groupBy: z.enum(REPORT_DIMENSIONS).optional() })
  .superRefine(checkRange);
export type GroupedReportCsvQuery = z.input<typeof groupedReportCsvQuerySchema>;

// ── Punctuality ─────────────────────────────────────────────────────────────────────────────────

/** Spec §9's booking window: an arrival within this many minutes of the start, either side, is on time (the gate's "LATE" too). */
export const PUNCTUALITY_WINDOW_MIN = ON_TIME_WINDOW_MIN;

/**
 * How late the late arrivals were, in minutes after the booked start (all are later than the
 * window): each bucket holds arrivals later than `after` and at most `upTo` (null: no limit).
 */
export const LATE_MINUTE_BUCKETS = [
  { key: '30-45', label: '31–45 min', after: 30, upTo: 45 },
  { key: '45-60', label: '46–60 min', after: 45, upTo: 60 },
  { key: '60-90', label: '61–90 min', after: 60, upTo: 90 },
  { key: '90-120', label: '91–120 min', after: 90, upTo: 120 },
  { key: '120+', label: 'Over 120 min', after: 120, upTo: null },
] as const;

export const punctualityFiguresSchema = z.object({
  /** Bookings checked in at the gate. */
  arrivals: z.number(),
  /** Checked in more than 30 minutes before the start. */
  early: z.number(),
  /** Within 30 minutes of the start, either side. */
  onTime: z.number(),
  /** More than 30 minutes after the start. */
  late: z.number(),
  earlyRate: rate,
  onTimeRate: rate,
  lateRate: rate,
  /** Minutes after the start, over the late arrivals; null without any. */
  medianLateMinutes: z.number().nullable(),
  p90LateMinutes: z.number().nullable(),
  /** Late arrivals per LATE_MINUTE_BUCKETS, in that order. */
  lateByBucket: z.array(z.number()),
});
export type PunctualityFigures = z.infer<typeof punctualityFiguresSchema>;

export const punctualityRowSchema = punctualityFiguresSchema.extend(groupFields);
export type PunctualityRow = z.infer<typeof punctualityRowSchema>;

export const punctualityReportSchema = z.object({
  ...reportHeaderFields,
  total: punctualityFiguresSchema,
  /** The table: per tenant, site and vehicle type (PUNCTUALITY_DIMENSIONS order), most arrivals first. */
  rows: z.array(punctualityRowSchema),
});
export type PunctualityReport = z.infer<typeof punctualityReportSchema>;

// ── Dwell and turn time ─────────────────────────────────────────────────────────────────────────

export const DWELL_MEASURES = ['gateWait', 'atBay', 'onSite'] as const;
export type DwellMeasure = (typeof DWELL_MEASURES)[number];
export const DWELL_MEASURE_LABELS: Record<DwellMeasure, string> = {
  gateWait: 'Gate wait (check-in → at bay)',
  atBay: 'Time at bay (start → check-out)',
  onSite: 'Total on site (check-in → check-out)',
};
/** Spec §9: a vehicle at the bay this many minutes past its booked end is an overstay. */
export const DWELL_OVERSTAY_MIN = 30;

export const dwellStatsSchema = z.object({
  /** Visits with both timestamps of this measure. */
  count: z.number(),
  medianMinutes: z.number().nullable(),
  p90Minutes: z.number().nullable(),
  maxMinutes: z.number().nullable(),
});
export type DwellStats = z.infer<typeof dwellStatsSchema>;

export const dwellFiguresSchema = z.object({
  /** Bookings checked in at the gate. */
  visits: z.number(),
  /** Visits still at the bay (or checked out) more than 30 minutes after their booked end. */
  overstays: z.number(),
  gateWait: dwellStatsSchema,
  atBay: dwellStatsSchema,
  onSite: dwellStatsSchema,
});
export type DwellFigures = z.infer<typeof dwellFiguresSchema>;

export const dwellRowSchema = dwellFiguresSchema.extend(groupFields);
export type DwellRow = z.infer<typeof dwellRowSchema>;

export const dwellReportSchema = z.object({
  ...reportHeaderFields,
  total: dwellFiguresSchema,
  /** The table: per site, bay, tenant, vehicle type and booking type (DWELL_DIMENSIONS order), most visits first. */
  rows: z.array(dwellRowSchema),
});
export type DwellReport = z.infer<typeof dwellReportSchema>;

// ── No-shows and cancellations ──────────────────────────────────────────────────────────────────

export const noShowFiguresSchema = z.object({
  /** Bookings starting in the range, except declined ones (the organization's refusals). */
  bookings: z.number(),
  noShows: z.number(),
  cancellations: z.number(),
  noShowRate: rate,
  cancellationRate: rate,
});
export type NoShowFigures = z.infer<typeof noShowFiguresSchema>;

export const noShowRowSchema = noShowFiguresSchema.extend(groupFields);
export type NoShowRow = z.infer<typeof noShowRowSchema>;

export const noShowReportSchema = z.object({
  ...reportHeaderFields,
  total: noShowFiguresSchema,
  /** The table: per tenant and site (NO_SHOW_DIMENSIONS order), most bookings first. */
  rows: z.array(noShowRowSchema),
  /** The trend: every site-local day of the range. */
  trend: z.array(noShowFiguresSchema.extend({ date: z.string() })),
});
export type NoShowReport = z.infer<typeof noShowReportSchema>;

// ── Volume ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Where bookings come from. A booking's stored source maps to one of these: 'portal', 'admin' and
 * 'gate' (a walk-in) as they are; 'api' or 'carrier_api' (a carrier's system); anything else
 * (demo data, imports) is 'other'.
 */
export const VOLUME_SOURCES = ['portal', 'admin', 'gate', 'carrier_api', 'other'] as const;
export type VolumeSource = (typeof VOLUME_SOURCES)[number];
export const VOLUME_SOURCE_LABELS: Record<VolumeSource, string> = {
  portal: 'Portal',
  admin: 'Admin',
  gate: 'Gate (walk-in)',
  carrier_api: 'Carrier API',
  other: 'Other',
};
/** The stored `bookings.source` values of each reported source ('other': the rest). */
export const VOLUME_SOURCE_VALUES: Record<Exclude<VolumeSource, 'other'>, readonly string[]> = {
  portal: ['portal'],
  admin: ['admin'],
  gate: ['gate'],
  carrier_api: ['ssc'],
};

const countsOf = <K extends string>(keys: readonly K[]) => z.object(Object.fromEntries(keys.map((k) => [k, z.number()])) as Record<K, z.ZodNumber>);

export const volumeFiguresSchema = z.object({
  /** Bookings starting then, except declined and cancelled ones. */
  bookings: z.number(),
  byType: countsOf(BOOKING_TYPES),
  bySource: countsOf(VOLUME_SOURCES),
});
export type VolumeFigures = z.infer<typeof volumeFiguresSchema>;

export const volumeReportSchema = z.object({
  ...reportHeaderFields,
  total: volumeFiguresSchema,
  /** The table and the bars: every site-local day of the range. */
  days: z.array(volumeFiguresSchema.extend({ date: z.string() })),
  /** The heat map: 7 × 24 cells, Monday 00:00 first, by the site-local weekday and hour of the start. */
  weekdayHours: z.array(z.object({ weekday: z.enum(WEEKDAYS), hour: z.number(), bookings: z.number() })),
});
export type VolumeReport = z.infer<typeof volumeReportSchema>;

// ── The reports, their routes and CSV ───────────────────────────────────────────────────────────

export const REPORT_KINDS = ['utilisation', 'punctuality', 'dwell', 'no-shows', 'volume'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export const REPORT_TITLES: Record<ReportKind, string> = {
  utilisation: 'Bay utilisation',
  punctuality: 'Punctuality',
  dwell: 'Dwell and turn time',
  'no-shows': 'No-shows and cancellations',
  volume: 'Volume',
};

export type CsvCell = string | number | null;
/** One column of a report's table: its header and how a row fills it (text is escaped, numbers are written as given). */
export type ReportColumn<Row> = { header: string; value: (row: Row) => CsvCell };

const hours = (minutes: number): string => (minutes / 60).toFixed(2);
const percent = (share: number | null): string => (share === null ? '' : (share * 100).toFixed(1));
const minutes = (value: number | null): string => (value === null ? '' : value.toFixed(1));

export const UTILISATION_COLUMNS: ReadonlyArray<ReportColumn<UtilisationBay>> = [
  { header: 'Site', value: (r) => r.siteName },
  { header: 'Bay', value: (r) => (r.isActive ? r.bayName : `${r.bayName} (inactive)`) },
  { header: 'Open hours', value: (r) => hours(r.openMinutes) },
  { header: 'Booked hours', value: (r) => hours(r.bookedMinutes) },
  { header: 'Occupied hours', value: (r) => hours(r.occupiedMinutes) },
  { header: 'Booked %', value: (r) => percent(r.bookedRate) },
  { header: 'Occupied %', value: (r) => percent(r.occupiedRate) },
];

const groupColumns: ReadonlyArray<ReportColumn<{ dimension: ReportDimension; label: string }>> = [
  { header: 'Group by', value: (r) => REPORT_DIMENSION_LABELS[r.dimension] },
  { header: 'Group', value: (r) => r.label },
];

export const PUNCTUALITY_COLUMNS: ReadonlyArray<ReportColumn<PunctualityRow>> = [
  ...groupColumns,
  { header: 'Arrivals', value: (r) => r.arrivals },
  { header: 'Early', value: (r) => r.early },
  { header: 'On time', value: (r) => r.onTime },
  { header: 'Late', value: (r) => r.late },
  { header: 'Early %', value: (r) => percent(r.earlyRate) },
  { header: 'On time %', value: (r) => percent(r.onTimeRate) },
  { header: 'Late %', value: (r) => percent(r.lateRate) },
  { header: 'Median minutes late', value: (r) => minutes(r.medianLateMinutes) },
  { header: 'P90 minutes late', value: (r) => minutes(r.p90LateMinutes) },
  ...LATE_MINUTE_BUCKETS.map((bucket, i) => ({ header: `Late ${bucket.label}`, value: (r: PunctualityRow) => r.lateByBucket[i] ?? 0 })),
];

const dwellColumns = (measure: DwellMeasure, name: string): Array<ReportColumn<DwellRow>> => [
  { header: `${name} median min`, value: (r) => minutes(r[measure].medianMinutes) },
  { header: `${name} p90 min`, value: (r) => minutes(r[measure].p90Minutes) },
  { header: `${name} max min`, value: (r) => minutes(r[measure].maxMinutes) },
];

export const DWELL_COLUMNS: ReadonlyArray<ReportColumn<DwellRow>> = [
  ...groupColumns,
  { header: 'Visits', value: (r) => r.visits },
  ...dwellColumns('gateWait', 'Gate wait'),
  ...dwellColumns('atBay', 'At bay'),
  ...dwellColumns('onSite', 'On site'),
  { header: 'Overstays', value: (r) => r.overstays },
];

export const NO_SHOW_COLUMNS: ReadonlyArray<ReportColumn<NoShowRow>> = [
  ...groupColumns,
  { header: 'Bookings', value: (r) => r.bookings },
  { header: 'No-shows', value: (r) => r.noShows },
  { header: 'No-show %', value: (r) => percent(r.noShowRate) },
  { header: 'Cancellations', value: (r) => r.cancellations },
  { header: 'Cancellation %', value: (r) => percent(r.cancellationRate) },
];

export type VolumeDay = VolumeReport['days'][number];
const BOOKING_TYPE_HEADERS: Record<(typeof BOOKING_TYPES)[number], string> = { delivery: 'Deliveries', pickup: 'Pickups', both: 'Delivery and pickup' };
export const VOLUME_COLUMNS: ReadonlyArray<ReportColumn<VolumeDay>> = [
  { header: 'Date', value: (r) => r.date },
  { header: 'Bookings', value: (r) => r.bookings },
  ...BOOKING_TYPES.map((type) => ({ header: BOOKING_TYPE_HEADERS[type], value: (r: VolumeDay) => r.byType[type] })),
  ...VOLUME_SOURCES.map((source) => ({ header: VOLUME_SOURCE_LABELS[source], value: (r: VolumeDay) => r.bySource[source] })),
];

/** Escapes a text cell: a leading =, +, -, @ (or tab, carriage return) would make a spreadsheet run it as a formula, so it gets a leading apostrophe (OWASP's advice). */
export function neutralizeFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One CSV field (RFC 4180): text is neutralized, then quoted when it holds a comma, quote or line break. */
export function csvField(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  const text = neutralizeFormula(cell);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV mark that tells spreadsheet programs the file is UTF-8 (the first character of every report CSV). */
export const CSV_BOM = '\uFEFF';

/** A table as CSV: the byte-order mark, the header, one line per row, CRLF line ends. */
export function toCsv<Row>(columns: ReadonlyArray<ReportColumn<Row>>, rows: readonly Row[]): string {
  const lines = [columns.map((c) => csvField(c.header)), ...rows.map((row) => columns.map((c) => csvField(c.value(row))))];
  return `${CSV_BOM}${lines.map((cells) => cells.join(',')).join('\r\n')}\r\n`;
}

/** The download's file name: 'baywise-utilisation-2026-10-01-to-2026-10-30.csv'. */
export function reportCsvFileName(kind: ReportKind, range: ReportRange): string {
  return `baywise-${kind}-${range.from}-to-${range.to}.csv`;
}
