import { z } from 'zod';
import { VOLUME_SOURCE_LABELS, VOLUME_SOURCE_VALUES, VOLUME_SOURCES, type ReportColumn, type VolumeSource } from './reports';
import { singleLine } from './text-rules';

// Platform usage analytics (/superadmin/usage, issue 12): per organization and in total, over the
// last 7, 30 or 90 days. The API (server/modules/usage) and the screens (web/features/superadmin-usage,
// the organization page) share these schemas, definitions and the CSV columns.
//
// What each figure counts (the window is the last N UTC days: today and the N−1 days before it, up
// to now):
// - bookings created: bookings whose created_at falls in the window, by source (portal, admin,
//   gate walk-in, carrier API, other — domain/reports.ts VOLUME_SOURCES);
// - sign-ins: sessions opened in the window by a member of the organization, for it or without an
//   organization chosen (the e-mail sign-in); impersonation sessions are not sign-ins. A member of
//   two organizations who signs in by e-mail alone counts for both; the total counts that session once;
// - active users: members of the organization who signed in (as above) or wrote an entry of its
//   audit trail (not while impersonated) in the window — each person once; the total counts each
//   person once across every organization;
// - documents stored: booking documents kept now (count and bytes); documents added: those stored
//   in the window;
// - API calls: admitted requests to the organization's routes (/api/orgs/:orgId/…, and
//   /api/sites/:siteId/… of its sites); webhook calls: accepted ANPR camera reads. Both are counted
//   per UTC day (usage_counters).

export const USAGE_PERIODS_DAYS = [7, 30, 90] as const;
export type UsagePeriodDays = (typeof USAGE_PERIODS_DAYS)[number];
export const DEFAULT_USAGE_PERIOD_DAYS: UsagePeriodDays = 30;
export const USAGE_PAGE_SIZE = 20;
/** The list of organizations nearest their plan limits holds this many. */
export const NEAREST_LIMITS_SHOWN = 10;

/** What the counting hook writes to usage_counters.kind. */
export const USAGE_COUNTER_KINDS = ['api_call', 'webhook_call'] as const;
export type UsageCounterKind = (typeof USAGE_COUNTER_KINDS)[number];

export const USAGE_SOURCES = VOLUME_SOURCES;
export type UsageSource = VolumeSource;
export const USAGE_SOURCE_LABELS = VOLUME_SOURCE_LABELS;

/** A stored bookings.source as the source the usage screens report. */
export function usageSourceOf(stored: string): UsageSource {
  for (const [source, values] of Object.entries(VOLUME_SOURCE_VALUES) as [Exclude<UsageSource, 'other'>, readonly string[]][]) {
    if (values.includes(stored)) return source;
  }
  return 'other';
}

export const emptyBySource = (): Record<UsageSource, number> => ({ portal: 0, admin: 0, gate: 0, carrier_api: 0, other: 0 });

// --- The window ---------------------------------------------------------------------------------

const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' of an instant in UTC. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** The last `days` UTC days up to `now`: from the start of the first one (inclusive) to now (inclusive), and each day's date. */
export function usageWindow(now: Date, days: number): { from: Date; to: Date; dates: string[] } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - (days - 1) * DAY_MS);
  const dates = Array.from({ length: days }, (_, i) => utcDay(new Date(from.getTime() + i * DAY_MS)));
  return { from, to: now, dates };
}

/** The first instant of `now`'s UTC calendar month (plans limit bookings per calendar month, UTC). */
export function startOfUtcMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

// --- Plan limits --------------------------------------------------------------------------------

export const LIMIT_KINDS = ['sites', 'bays', 'users', 'bookings'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];
export const LIMIT_LABELS: Record<LimitKind, string> = {
  sites: 'Active sites',
  bays: 'Active bays',
  users: 'Active members',
  bookings: 'Bookings this month',
};

/** used / limit as a whole percentage (may pass 100); null when the plan sets no limit. */
export function limitPercent(used: number, limit: number | null): number | null {
  if (limit === null) return null;
  if (limit <= 0) return used > 0 ? 100 : 0;
  return Math.round((used / limit) * 100);
}

// --- Query --------------------------------------------------------------------------------------

export const USAGE_SORT_KEYS = [
  'name',
  'bookingsCreated',
  'activeUsers',
  'signIns',
  'documentsStored',
  'documentBytesStored',
  'apiCalls',
  'webhookCalls',
] as const;
export type UsageSortKey = (typeof USAGE_SORT_KEYS)[number];

const PERIOD_MESSAGE = 'The period must be 7, 30 or 90 days';

export const usagePeriodField = z.coerce
  .number({ error: PERIOD_MESSAGE })
  .refine((value): value is UsagePeriodDays => (USAGE_PERIODS_DAYS as readonly number[]).includes(value), { error: PERIOD_MESSAGE })
  .default(DEFAULT_USAGE_PERIOD_DAYS);

/** An organization id in the query: any text (a malformed or unknown one answers 404, not 400). */
const orgIdParam = z.string().max(100).optional();

export const usageCsvQuerySchema = z.object({ days: usagePeriodField, orgId: orgIdParam });

export const usageQuerySchema = z.object({
  days: usagePeriodField,
  orgId: orgIdParam,
  q: z
    .string()
    .trim()
    .max(100, { error: 'Search must be at most 100 characters' })
    .refine(...singleLine('Search'))
    .optional()
    .transform((value) => value || undefined),
  sort: z.enum(USAGE_SORT_KEYS, { error: 'Unknown sort column' }).default('bookingsCreated'),
  order: z.enum(['asc', 'desc'], { error: 'Order must be asc or desc' }).default('desc'),
  page: z.coerce.number({ error: 'Page must be a whole number' }).int({ error: 'Page must be a whole number' }).min(1, { error: 'Page must be 1 or more' }).max(100_000).default(1),
  pageSize: z.coerce
    .number({ error: 'Page size must be a whole number' })
    .int({ error: 'Page size must be a whole number' })
    .min(1, { error: 'Page size must be between 1 and 100' })
    .max(100, { error: 'Page size must be between 1 and 100' })
    .default(USAGE_PAGE_SIZE),
});
export type UsageQuery = z.input<typeof usageQuerySchema>;

// --- Answers ------------------------------------------------------------------------------------

const bySourceSchema = z.object(Object.fromEntries(USAGE_SOURCES.map((s) => [s, z.number()])) as Record<UsageSource, z.ZodNumber>);

export const usageFiguresSchema = z.object({
  bookingsCreated: z.number(),
  bookingsBySource: bySourceSchema,
  activeUsers: z.number(),
  signIns: z.number(),
  /** Booking documents kept now. */
  documentsStored: z.number(),
  documentBytesStored: z.number(),
  /** Booking documents stored in the window. */
  documentsAdded: z.number(),
  documentBytesAdded: z.number(),
  apiCalls: z.number(),
  webhookCalls: z.number(),
});
export type UsageFigures = z.infer<typeof usageFiguresSchema>;

export const emptyFigures = (): UsageFigures => ({
  bookingsCreated: 0,
  bookingsBySource: emptyBySource(),
  activeUsers: 0,
  signIns: 0,
  documentsStored: 0,
  documentBytesStored: 0,
  documentsAdded: 0,
  documentBytesAdded: 0,
  apiCalls: 0,
  webhookCalls: 0,
});

export const usageOrganizationSchema = usageFiguresSchema.extend({
  orgId: z.string(),
  name: z.string(),
  slug: z.string(),
  status: z.string(),
  planName: z.string().nullable(),
});
export type UsageOrganization = z.infer<typeof usageOrganizationSchema>;

export const usageDaySchema = z.object({
  date: z.string(),
  bookingsCreated: z.number(),
  bookingsBySource: bySourceSchema,
  signIns: z.number(),
  apiCalls: z.number(),
  webhookCalls: z.number(),
});
export type UsageDay = z.infer<typeof usageDaySchema>;

export const planLimitSchema = z.object({
  kind: z.enum(LIMIT_KINDS),
  used: z.number(),
  /** null: the plan sets no limit. */
  limit: z.number().nullable(),
  percent: z.number().nullable(),
});
export type PlanLimit = z.infer<typeof planLimitSchema>;

export const limitStandingSchema = z.object({
  orgId: z.string(),
  name: z.string(),
  status: z.string(),
  planName: z.string(),
  /** The highest of its limits' percentages. */
  highestPercent: z.number(),
  limits: z.array(planLimitSchema),
});
export type LimitStanding = z.infer<typeof limitStandingSchema>;

export const usageReportSchema = z.object({
  days: z.number(),
  from: z.string(),
  to: z.string(),
  /** Every organization's figures together (or the one asked for). */
  totals: usageFiguresSchema,
  daily: z.array(usageDaySchema),
  organizations: z.object({ total: z.number(), items: z.array(usageOrganizationSchema) }),
  /** Organizations with a plan limit, the nearest to one first (at most NEAREST_LIMITS_SHOWN). */
  nearestLimits: z.array(limitStandingSchema),
  generatedAt: z.string(),
});
export type UsageReport = z.infer<typeof usageReportSchema>;

// --- CSV ----------------------------------------------------------------------------------------

export const USAGE_CSV_COLUMNS: ReadonlyArray<ReportColumn<UsageOrganization>> = [
  { header: 'Organization', value: (r) => r.name },
  { header: 'Slug', value: (r) => r.slug },
  { header: 'Status', value: (r) => r.status },
  { header: 'Plan', value: (r) => r.planName },
  { header: 'Bookings created', value: (r) => r.bookingsCreated },
  ...USAGE_SOURCES.map((source) => ({ header: `Bookings: ${USAGE_SOURCE_LABELS[source]}`, value: (r: UsageOrganization) => r.bookingsBySource[source] })),
  { header: 'Active users', value: (r) => r.activeUsers },
  { header: 'Sign-ins', value: (r) => r.signIns },
  { header: 'Documents stored', value: (r) => r.documentsStored },
  { header: 'Document bytes stored', value: (r) => r.documentBytesStored },
  { header: 'Documents added', value: (r) => r.documentsAdded },
  { header: 'Document bytes added', value: (r) => r.documentBytesAdded },
  { header: 'API calls', value: (r) => r.apiCalls },
  { header: 'Webhook calls', value: (r) => r.webhookCalls },
];

/** 'baywise-usage-30-days-2026-11-23.csv'. */
export function usageCsvFileName(days: number, now: Date): string {
  return `baywise-usage-${days}-days-${utcDay(now)}.csv`;
}
