import { z } from 'zod';
import { isPlatformRole, type PlatformRole } from './enums';
import { multiLine, singleLine } from './text-rules';

// Platform administration (issue 12): the super-admin dashboard's figures (spec §2 "Super admin
// dashboard", §7 "Platform statistics", "Organization list") and the organizations' read side with
// suspension. The API (server/modules/platform-admin) and the screens (web/features/superadmin)
// share these schemas, constants and rules. Who may do what: docs/decisions/014-platform-roles.md.

// --- Constants (spec §9) -----------------------------------------------------------------------

/** Statistics period in days: 7 or 30, default 30. */
export const STATS_PERIODS_DAYS = [7, 30] as const;
export type StatsPeriodDays = (typeof STATS_PERIODS_DAYS)[number];
export const DEFAULT_STATS_PERIOD_DAYS: StatsPeriodDays = 30;
/**
 * "Alerts (24 h)" on the platform dashboard: over this many hours, the open error groups seen, the
 * emergency stops of sites and the organizations suspended.
 */
export const ALERTS_WINDOW_HOURS = 24;
/** The audit actions that are alerts: a site's emergency stop, an organization's suspension. */
export const ALERT_AUDIT_ACTIONS = { emergencyStop: 'site.emergency_stopped', suspension: 'organization.suspended' } as const;
export const alertCountsSchema = z.object({
  /** Error groups with an event in the window that are open (never resolved, or seen again since). */
  openErrorGroups: z.number(),
  emergencyStops: z.number(),
  suspensions: z.number(),
});
export type AlertCounts = z.infer<typeof alertCountsSchema>;
export const ALERT_ACTION_WORDS = ['error', 'warning', 'alert'] as const;
/** The dashboard lists the first 3 organizations and the 5 latest audit entries. */
export const DASHBOARD_ORGANIZATIONS = 3;
export const DASHBOARD_AUDIT_ENTRIES = 5;
/** The audit list's default length (spec §9). */
export const AUDIT_LIST_DEFAULT_LIMIT = 20;
export const ORGANIZATIONS_PAGE_SIZE = 20;
export const ORGANIZATION_SEARCH_MAX = 100;
export const SUSPEND_REASON_MAX = 500;
/** Invoices shown on an organization's page (latest first). */
export const ORGANIZATION_INVOICES_SHOWN = 12;

/** What the dashboard shows when there is nothing (spec §8). */
export const NO_PLAN_LABEL = 'No Plan';
export const NO_ORGANIZATIONS_TEXT = 'No organizations found';
export const NO_RECENT_ACTIVITY_TEXT = 'No recent activity';
export const STATS_FAILED_TEXT = 'Failed to fetch platform statistics';
export const ORGANIZATIONS_FAILED_TEXT = 'Failed to fetch organizations';
export const AUDIT_FAILED_TEXT = 'Failed to fetch audit log';
export const DATA_REFRESHED_TEXT = 'Data refreshed';

// --- Rules ------------------------------------------------------------------------------------

/** True when an audit action counts as an alert: it contains error, warning or alert (any case). */
export function isAlertAction(action: string): boolean {
  const lower = action.toLowerCase();
  return ALERT_ACTION_WORDS.some((word) => lower.includes(word));
}

/** Organization status display (spec §4): active green, suspended warning, anything else muted. */
export type StatusTone = 'success' | 'warning' | 'muted';
export function organizationStatusTone(status: string): StatusTone {
  if (status === 'active') return 'success';
  if (status === 'suspended') return 'warning';
  return 'muted';
}

/** 'active' → 'Active'; unknown statuses are shown as they are stored, capitalised. */
export function organizationStatusLabel(status: string): string {
  return status ? status.charAt(0).toUpperCase() + status.slice(1).replace(/_/g, ' ') : 'Unknown';
}

export function planLabel(plan: { name: string } | null | undefined): string {
  return plan?.name ?? NO_PLAN_LABEL;
}

/**
 * A recent-activity age (spec §9: minutes, hours or days ago): under an hour in minutes, under a
 * day in hours, else in days; under a minute 'just now'. A time in the future (clock skew) is 'just now'.
 */
export function activityAge(createdAt: Date | string, now: Date): string {
  const ms = now.getTime() - new Date(createdAt).getTime();
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

/** Every platform role reads; super admins and platform owners also suspend and reactivate (decision 014). */
const ORGANIZATION_MANAGERS: readonly PlatformRole[] = ['super_admin', 'platform_owner'];

export function canReadPlatform(role: string | null | undefined): boolean {
  return isPlatformRole(role);
}

export function canManageOrganizations(role: string | null | undefined): boolean {
  return isPlatformRole(role) && ORGANIZATION_MANAGERS.includes(role);
}

export const SUPPORT_CANNOT_MANAGE = 'Platform support can view organizations but cannot suspend or reactivate them';
export const SUPPORT_CANNOT_CREATE = 'Platform support can view organizations and quote requests but cannot create organizations or change quote requests';
export const ALREADY_SUSPENDED = 'This organization is already suspended';
export const NOT_SUSPENDED = 'This organization is not suspended';
export const SUSPEND_REASON_REQUIRED = 'A reason is required to suspend an organization';

export type OrganizationActions = { canSuspend: boolean; canReactivate: boolean };

/** What the caller may do to an organization now: suspend one that is not suspended, reactivate a suspended one. */
export function organizationActions(role: string | null | undefined, status: string): OrganizationActions {
  const canManage = canManageOrganizations(role);
  return { canSuspend: canManage && status !== 'suspended', canReactivate: canManage && status === 'suspended' };
}

// --- Schemas -----------------------------------------------------------------------------------

export const platformStatsQuerySchema = z.object({
  days: z.coerce
    .number({ error: 'The period must be 7 or 30 days' })
    .refine((value): value is StatsPeriodDays => (STATS_PERIODS_DAYS as readonly number[]).includes(value), { error: 'The period must be 7 or 30 days' })
    .default(DEFAULT_STATS_PERIOD_DAYS),
});

export const platformStatsSchema = z.object({
  days: z.number(),
  /** Organizations whose status is active. */
  activeOrganizations: z.number(),
  /** Active organization memberships. */
  activeMemberships: z.number(),
  /** Sum of amount_paid of paid invoices paid within the period, USD; null when there is none (shown as a dash). */
  revenueUsd: z.number().nullable(),
  /** The alerts of the last 24 hours: open error groups + emergency stops + suspensions (alertCounts). */
  alerts: z.number(),
  alertCounts: alertCountsSchema,
  generatedAt: z.string(),
});
export type PlatformStats = z.infer<typeof platformStatsSchema>;

const searchText = z
  .string()
  .trim()
  .max(ORGANIZATION_SEARCH_MAX, { error: `Search must be at most ${ORGANIZATION_SEARCH_MAX} characters` })
  .refine(...singleLine('Search'))
  .optional()
  .transform((value) => value || undefined);

export const organizationListQuerySchema = z.object({
  q: searchText,
  status: z.enum(['active', 'suspended'], { error: 'Status must be active or suspended' }).optional(),
  page: z.coerce.number({ error: 'Page must be a whole number' }).int({ error: 'Page must be a whole number' }).min(1, { error: 'Page must be 1 or more' }).max(100_000).default(1),
  pageSize: z.coerce
    .number({ error: 'Page size must be a whole number' })
    .int({ error: 'Page size must be a whole number' })
    .min(1, { error: 'Page size must be between 1 and 100' })
    .max(100, { error: 'Page size must be between 1 and 100' })
    .default(ORGANIZATIONS_PAGE_SIZE),
});
export type OrganizationListQuery = z.input<typeof organizationListQuerySchema>;

const planRefSchema = z.object({ id: z.string(), name: z.string() });

export const organizationListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  status: z.string(),
  active: z.boolean(),
  createdAt: z.string(),
  plan: planRefSchema.nullable(),
  activeSites: z.number(),
  /** Active bays at the organization's active sites. */
  activeBays: z.number(),
  activeMembers: z.number(),
});
export type OrganizationListItem = z.infer<typeof organizationListItemSchema>;

export const organizationListSchema = z.object({ total: z.number(), items: z.array(organizationListItemSchema) });
export type OrganizationList = z.infer<typeof organizationListSchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  action: z.string(),
  resourceType: z.string(),
  resourceId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  actorRole: z.string().nullable(),
  /** The platform user who really acted, when the actor was being impersonated (decision 017). */
  impersonatorEmail: z.string().nullable(),
  orgId: z.string().nullable(),
  orgName: z.string().nullable(),
  siteId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const recentActivityQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'Limit must be a whole number' })
    .int({ error: 'Limit must be a whole number' })
    .min(1, { error: 'Limit must be between 1 and 20' })
    .max(AUDIT_LIST_DEFAULT_LIMIT, { error: 'Limit must be between 1 and 20' })
    .default(DASHBOARD_AUDIT_ENTRIES),
});
export const recentActivitySchema = z.object({ items: z.array(auditEntrySchema) });
export type RecentActivity = z.infer<typeof recentActivitySchema>;

export const organizationAuditQuerySchema = z.object({
  page: z.coerce.number({ error: 'Page must be a whole number' }).int({ error: 'Page must be a whole number' }).min(1, { error: 'Page must be 1 or more' }).max(100_000).default(1),
  pageSize: z.coerce
    .number({ error: 'Page size must be a whole number' })
    .int({ error: 'Page size must be a whole number' })
    .min(1, { error: 'Page size must be between 1 and 100' })
    .max(100, { error: 'Page size must be between 1 and 100' })
    .default(AUDIT_LIST_DEFAULT_LIMIT),
});
export const organizationAuditSchema = z.object({ total: z.number(), items: z.array(auditEntrySchema) });
export type OrganizationAudit = z.infer<typeof organizationAuditSchema>;

export const organizationMemberSchema = z.object({
  id: z.string(),
  userId: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  role: z.string(),
  employeeId: z.string().nullable(),
  active: z.boolean(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
});

export const organizationBaySchema = z.object({
  id: z.string(),
  name: z.string(),
  heightClearanceM: z.number(),
  capacity: z.number(),
  features: z.array(z.string()),
  active: z.boolean(),
});

export const organizationSiteSchema = z.object({
  id: z.string(),
  name: z.string(),
  timeZone: z.string(),
  active: z.boolean(),
  bays: z.array(organizationBaySchema),
});

export const organizationInvoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  status: z.string(),
  currency: z.string(),
  amountDue: z.number(),
  amountPaid: z.number(),
  issuedAt: z.string(),
  paidAt: z.string().nullable(),
});

export const organizationPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  priceCents: z.number(),
  currency: z.string(),
  interval: z.string(),
  maxSites: z.number().nullable(),
  maxBays: z.number().nullable(),
  maxUsers: z.number().nullable(),
  maxBookingsPerMonth: z.number().nullable(),
  billingStatus: z.string(),
  currentPeriodEnd: z.string().nullable(),
});

/** What counts against the plan now (the window figures come from GET /api/platform/usage?orgId=…). */
export const organizationUsageSchema = z.object({
  activeSites: z.number(),
  /** Active bays at active sites. */
  activeBays: z.number(),
  activeMembers: z.number(),
  /** Bookings created this calendar month (UTC), against the plan's monthly limit. */
  bookingsThisMonth: z.number(),
});

export const organizationDetailSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  status: z.string(),
  active: z.boolean(),
  contactEmail: z.string().nullable(),
  contactPhone: z.string().nullable(),
  address: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When suspended: when, by whom and why (from the audit entry that suspended it). */
  suspension: z.object({ at: z.string(), byEmail: z.string().nullable(), reason: z.string() }).nullable(),
  plan: organizationPlanSchema.nullable(),
  usage: organizationUsageSchema,
  members: z.array(organizationMemberSchema),
  sites: z.array(organizationSiteSchema),
  invoices: z.array(organizationInvoiceSchema),
  actions: z.object({ canSuspend: z.boolean(), canReactivate: z.boolean() }),
});
export type OrganizationDetail = z.infer<typeof organizationDetailSchema>;

export const suspendOrganizationSchema = z.object({
  reason: z
    .string({ error: SUSPEND_REASON_REQUIRED })
    .trim()
    .min(1, { error: SUSPEND_REASON_REQUIRED })
    .max(SUSPEND_REASON_MAX, { error: `Reason must be at most ${SUSPEND_REASON_MAX} characters` })
    .refine(...multiLine('Reason')),
});
export type SuspendOrganizationInput = z.infer<typeof suspendOrganizationSchema>;

/** What suspending or reactivating answers: the organization as it is now, and how many sessions ended. */
export const organizationChangeSchema = z.object({ organization: organizationDetailSchema, sessionsEnded: z.number() });
export type OrganizationChange = z.infer<typeof organizationChangeSchema>;

// --- Creating an organization (super admins and platform owners) --------------------------------

export const SLUG_MIN = 2;
export const SLUG_MAX = 60;
export const ORGANIZATION_NAME_MAX = 200;
export const SLUG_TAKEN = 'This slug is already used by another organization';
export const SLUG_RULE = `Slug must be ${SLUG_MIN}–${SLUG_MAX} lower-case letters, digits and single hyphens, starting and ending with a letter or digit`;
export const SLUG_UNDERIVABLE = 'Enter a slug: the name has no letters or digits to make one from';
export const PLAN_UNAVAILABLE = 'This plan does not exist or is no longer offered';
const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The slug a name suggests: accents dropped, lower case, anything but letters and digits becomes
 * one hyphen, at most SLUG_MAX characters (cut at a hyphen when one is near). '' when nothing is left.
 */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (base.length <= SLUG_MAX) return base;
  const cut = base.slice(0, SLUG_MAX);
  const lastHyphen = cut.lastIndexOf('-');
  return (lastHyphen >= SLUG_MAX - 15 ? cut.slice(0, lastHyphen) : cut).replace(/-+$/, '');
}

const optionalLine = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters` })
    .refine(...singleLine(label))
    .optional()
    .transform((value) => value || undefined);

const requiredEmail = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .refine(...singleLine('Email'))
    .min(1, { error: required })
    .max(254, { error: 'Email is too long' })
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: 'Please enter a valid email address' })
    .transform((value) => value.toLowerCase());

export const createOrganizationSchema = z.object({
  name: z
    .string({ error: 'Organization name is required' })
    .trim()
    .refine(...singleLine('Organization name'))
    .min(1, { error: 'Organization name is required' })
    .max(ORGANIZATION_NAME_MAX, { error: `Organization name must be at most ${ORGANIZATION_NAME_MAX} characters` }),
  /** Blank: made from the name (slugify). */
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .refine((value) => value === '' || (value.length >= SLUG_MIN && value.length <= SLUG_MAX && SLUG_PATTERN.test(value)), { error: SLUG_RULE })
    .optional()
    .transform((value) => value || undefined),
  contactEmail: z
    .string()
    .trim()
    .refine(...singleLine('Contact email'))
    .max(254, { error: 'Contact email is too long' })
    .refine((value) => value === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value), { error: 'Please enter a valid contact email address' })
    .optional()
    .transform((value) => value || undefined),
  contactPhone: optionalLine('Contact phone', 50),
  /** Absent: the platform's default plan; null: no plan. */
  planId: z.uuid({ error: 'Choose a plan' }).nullable().optional(),
  adminEmail: requiredEmail('First admin email is required'),
  adminName: z
    .string({ error: 'First admin name is required' })
    .trim()
    .refine(...singleLine('First admin name'))
    .min(1, { error: 'First admin name is required' })
    .max(200, { error: 'First admin name must be at most 200 characters' }),
});
export type CreateOrganizationInput = z.input<typeof createOrganizationSchema>;

export const offeredPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  priceCents: z.number(),
  currency: z.string(),
  interval: z.string(),
  maxSites: z.number().nullable(),
  maxBays: z.number().nullable(),
  maxUsers: z.number().nullable(),
  maxBookingsPerMonth: z.number().nullable(),
});
export type OfferedPlan = z.infer<typeof offeredPlanSchema>;

/** What the create form offers: the active plans, and the platform's default one (null: none). */
export const organizationFormOptionsSchema = z.object({ plans: z.array(offeredPlanSchema), defaultPlanId: z.string().nullable() });
export type OrganizationFormOptions = z.infer<typeof organizationFormOptionsSchema>;

export const createdOrganizationSchema = z.object({
  organization: organizationDetailSchema,
  /** The first admin's invitation (its e-mail is on its way). */
  invitation: z.object({ id: z.string(), email: z.string(), fullName: z.string().nullable(), expiresAt: z.string() }),
});
export type CreatedOrganization = z.infer<typeof createdOrganizationSchema>;

// --- Quote requests (the landing page's 'Request a Quote') ---------------------------------------

export const QUOTE_STATUSES = ['new', 'contacted', 'converted'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];
export const QUOTE_STATUS_LABELS: Record<QuoteStatus, string> = { new: 'New', contacted: 'Contacted', converted: 'Converted' };
export const QUOTES_PAGE_SIZE = 20;
export const QUOTE_ALREADY_CONTACTED = 'This quote request is already marked as contacted';
export const QUOTE_ALREADY_CONVERTED = 'This quote request has already been converted into an organization';

export const quoteListQuerySchema = z.object({
  status: z.enum(QUOTE_STATUSES, { error: 'Status must be new, contacted or converted' }).optional(),
  page: z.coerce.number({ error: 'Page must be a whole number' }).int({ error: 'Page must be a whole number' }).min(1, { error: 'Page must be 1 or more' }).max(100_000).default(1),
  pageSize: z.coerce
    .number({ error: 'Page size must be a whole number' })
    .int({ error: 'Page size must be a whole number' })
    .min(1, { error: 'Page size must be between 1 and 100' })
    .max(100, { error: 'Page size must be between 1 and 100' })
    .default(QUOTES_PAGE_SIZE),
});
export type QuoteListQuery = z.input<typeof quoteListQuerySchema>;

export const quoteRequestItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  company: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  sites: z.number().nullable(),
  message: z.string().nullable(),
  status: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  contactedAt: z.string().nullable(),
  convertedOrg: z.object({ id: z.string(), name: z.string() }).nullable(),
  handledByEmail: z.string().nullable(),
});
export type QuoteRequestItem = z.infer<typeof quoteRequestItemSchema>;

export const quoteListSchema = z.object({
  total: z.number(),
  /** How many of each status there are (the inbox's badges). */
  counts: z.object({ new: z.number(), contacted: z.number(), converted: z.number() }),
  items: z.array(quoteRequestItemSchema),
});
export type QuoteList = z.infer<typeof quoteListSchema>;

export const convertedQuoteSchema = createdOrganizationSchema.extend({ quote: quoteRequestItemSchema });
export type ConvertedQuote = z.infer<typeof convertedQuoteSchema>;

/** The create form's answers a quote request suggests (the person who asked becomes the first admin). */
export function organizationFromQuote(quote: Pick<QuoteRequestItem, 'company' | 'email' | 'phone' | 'name'>) {
  return {
    name: quote.company,
    slug: slugify(quote.company),
    contactEmail: quote.email,
    contactPhone: quote.phone ?? '',
    adminEmail: quote.email,
    adminName: quote.name,
  };
}
