import { z } from 'zod';
import { isCalendarDate } from './booking-request';
import { addDays } from './day-notice';
import { isIanaTimeZone } from './org-sites';
import { zonedTimeToUtc } from './slot-grid';
import { singleLine } from './text-rules';

// The audit log as people read it (issue 12, spec §7 "Audit list"): the platform's list at
// /superadmin/audit (GET /api/platform/audit…) and an organization's own trail in Settings ›
// Activity (GET /api/orgs/:orgId/audit…). Newest first, 20 a page by default (spec §9), filtered
// by organization (platform only), actor, action, resource type and a range of days; both
// download as CSV with the same filters. The web derives its types from these schemas.

export const DEFAULT_AUDIT_PAGE_SIZE = 20;
export const AUDIT_PAGE_SIZES = [20, 50, 100] as const;
/** The CSV holds at most this many entries, the newest that match. */
export const AUDIT_CSV_MAX_ROWS = 10_000;

/** Spec §8: what the audit screens say when the list cannot be read. */
export const AUDIT_FETCH_FAILED = 'Failed to fetch audit log';

const uuid = z.string().uuid('Use an organization id');
const day = z.string().refine(isCalendarDate, 'Use a calendar date as YYYY-MM-DD');
const word = (what: string) =>
  z
    .string()
    .trim()
    .refine(...singleLine(what))
    .max(100, `${what} is at most 100 characters`)
    .optional();

const filterFields = {
  /** An actor's user id, or part of their e-mail (any case). */
  actor: z
    .string()
    .trim()
    .refine(...singleLine('Actor'))
    .max(254, 'Actor is at most 254 characters')
    .optional(),
  /** One action, exactly ('booking.approved'). */
  action: word('Action'),
  /** One resource type, exactly ('booking'). */
  resourceType: word('Resource type'),
  /** Calendar days in `tz`, both included. */
  from: day.optional(),
  to: day.optional(),
  /** The time zone the days are read in (the browser's); UTC when omitted. */
  tz: z.string().refine(isIanaTimeZone, 'Use an IANA time zone such as Australia/Sydney').default('UTC'),
};

const pageFields = {
  page: z.coerce.number().int().min(1, 'Page starts at 1').max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (AUDIT_PAGE_SIZES as readonly number[]).includes(n), `Page size must be ${AUDIT_PAGE_SIZES.join(', ')}`)
    .default(DEFAULT_AUDIT_PAGE_SIZE),
};

const rangeInOrder = <T extends { from?: string; to?: string }>(q: T) => !q.from || !q.to || q.from <= q.to;
const rangeMessage = { message: 'The start date must be on or before the end date', path: ['from'] };

/** An organization's trail: every filter but the organization. */
export const orgAuditFilterSchema = z.object(filterFields).refine(rangeInOrder, rangeMessage);
export const orgAuditListQuerySchema = z.object({ ...filterFields, ...pageFields }).refine(rangeInOrder, rangeMessage);

/** The platform's list: every organization's entries (and those of none), or one organization's. */
export const platformAuditFilterSchema = z.object({ ...filterFields, orgId: uuid.optional() }).refine(rangeInOrder, rangeMessage);
export const platformAuditListQuerySchema = z
  .object({ ...filterFields, orgId: uuid.optional(), ...pageFields })
  .refine(rangeInOrder, rangeMessage);

export type AuditFilter = z.output<typeof platformAuditFilterSchema>;
export type OrgAuditListQuery = z.input<typeof orgAuditListQuerySchema>;
export type PlatformAuditListQuery = z.input<typeof platformAuditListQuerySchema>;
/** The list's query as a screen sends it (the organization on the platform only). */
export type AuditQuery = {
  orgId?: string;
  actor?: string;
  action?: string;
  resourceType?: string;
  from?: string;
  to?: string;
  tz?: string;
  page: number;
  pageSize: number;
};

export const auditEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  orgId: z.string().nullable(),
  /** Null when the entry concerns no organization, or the organization no longer exists. */
  orgName: z.string().nullable(),
  siteId: z.string().nullable(),
  siteName: z.string().nullable(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  /** The role the actor acted as; 'public' for the booking portal, 'system' for background jobs. */
  actorRole: z.string().nullable(),
  /**
   * The platform user who really acted, when the actor was being impersonated (decision 017):
   * the lists show it beside the actor, not only in the entry's details.
   */
  impersonatorId: z.string().nullable(),
  impersonatorEmail: z.string().nullable(),
  action: z.string(),
  resourceType: z.string(),
  resourceId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditListSchema = z.object({
  items: z.array(auditEntrySchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type AuditList = z.infer<typeof auditListSchema>;

/** The choices of the filters: actions and resource types that occur (and, for the platform, every organization). */
export const auditFilterOptionsSchema = z.object({
  organizations: z.array(z.object({ id: z.string(), name: z.string() })),
  actions: z.array(z.string()),
  resourceTypes: z.array(z.string()),
});
export type AuditFilterOptions = z.infer<typeof auditFilterOptionsSchema>;

/** The last calendar day a YYYY-MM-DD date can name: a range to it has no end. */
const LAST_DAY = '9999-12-31';

/**
 * The instants a range of days covers in `tz`: from the first day's midnight to the midnight after
 * the last (none after 9999-12-31, whose next day has no YYYY-MM-DD name).
 */
export function auditRangeInstants(filter: Pick<AuditFilter, 'from' | 'to' | 'tz'>): { since: Date | null; before: Date | null } {
  return {
    since: filter.from ? zonedTimeToUtc(filter.from, 0, filter.tz) : null,
    before: filter.to && filter.to < LAST_DAY ? zonedTimeToUtc(addDays(filter.to, 1), 0, filter.tz) : null,
  };
}

/** True when the text is a user id rather than part of an e-mail. */
export function isActorId(actor: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(actor);
}

/** 'booking.checked_in' → 'Booking checked in'; what the list shows beside the raw action. */
export function describeAuditAction(action: string): string {
  const text = action.replace(/[._]+/g, ' ').trim();
  return text ? text[0]!.toUpperCase() + text.slice(1) : action;
}

// ── CSV ─────────────────────────────────────────────────────────────────────────────────────────

export const AUDIT_CSV_COLUMNS = [
  'created_at',
  'organization',
  'organization_id',
  'actor_email',
  'actor_role',
  'actor_id',
  'action',
  'resource_type',
  'resource_id',
  'site',
  'site_id',
  'details',
] as const;

/**
 * Escapes a text cell a spreadsheet would otherwise run as a formula: one starting with =, +, -, @,
 * a tab or a carriage return gets a leading apostrophe (OWASP, "CSV injection").
 */
export function neutralizeFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One CSV field (RFC 4180): neutralized, then quoted when it holds a comma, a quote or a line break. */
export function csvField(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const text = neutralizeFormula(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of the CSV (CRLF-terminated, as RFC 4180 has it). */
export function csvLine(cells: ReadonlyArray<string | null | undefined>): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/** An entry as a CSV line, in the order of AUDIT_CSV_COLUMNS. */
export function auditCsvLine(entry: AuditEntry): string {
  return csvLine([
    entry.createdAt,
    entry.orgName,
    entry.orgId,
    entry.actorEmail,
    entry.actorRole,
    entry.actorId,
    entry.action,
    entry.resourceType,
    entry.resourceId,
    entry.siteName,
    entry.siteId,
    Object.keys(entry.details).length > 0 ? JSON.stringify(entry.details) : '',
  ]);
}

// ── Shown on screen ─────────────────────────────────────────────────────────────────────────────

const LIST_PARAMS = ['actor', 'action', 'resourceType', 'from', 'to'] as const;

/**
 * The list's query from a screen's address (?actor=…&action=…&page=2): the same names as the API's.
 * Values the API would refuse are dropped rather than sent (a hand-edited address still shows a list).
 */
export function auditQueryFromParams(params: URLSearchParams, options: { withOrganization: boolean; timeZone?: string }): AuditQuery {
  const query: Record<string, string | number> = {};
  for (const key of LIST_PARAMS) {
    const value = params.get(key)?.trim();
    if (value) query[key] = value;
  }
  for (const key of ['from', 'to'] as const) if (query[key] && !isCalendarDate(String(query[key]))) delete query[key];
  if (query.from && query.to && query.from > query.to) delete query.to;
  const orgId = params.get('orgId');
  if (options.withOrganization && orgId && z.string().uuid().safeParse(orgId).success) query.orgId = orgId;
  if ((query.from || query.to) && options.timeZone && isIanaTimeZone(options.timeZone)) query.tz = options.timeZone;
  const page = Number(params.get('page'));
  query.page = Number.isInteger(page) && page >= 1 ? page : 1;
  const pageSize = Number(params.get('pageSize'));
  query.pageSize = (AUDIT_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_AUDIT_PAGE_SIZE;
  return query as AuditQuery;
}

/** True when any filter (not the page) is set. */
export function isAuditFiltered(query: Omit<AuditQuery, 'page' | 'pageSize'>): boolean {
  return [query.orgId, ...LIST_PARAMS.map((key) => query[key])].some(Boolean);
}

/** What the entry was about, in a word or two, when its details name it ('TSR-1042', 'North Terminal'). */
export function auditResourceLabel(entry: Pick<AuditEntry, 'details'>): string | null {
  for (const key of ['tsr_number', 'name', 'email', 'plate', 'title']) {
    const value = entry.details[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return null;
}

/** A detail's value as text: strings as they are, anything else as JSON. */
export function formatAuditDetail(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '—';
  return JSON.stringify(value);
}

const ROLE_LABELS: Record<string, string> = {
  super_admin: 'Super admin',
  platform_owner: 'Platform owner',
  platform_support: 'Platform support',
  org_admin: 'Organization admin',
  dockmaster: 'Dockmaster',
  security: 'Security',
  public: 'Booking portal',
  system: 'System',
  unknown: 'Unknown role',
};

/** The role an entry was made as, in words ('org_admin' → 'Organization admin'). */
export function auditRoleLabel(role: string | null): string {
  return role ? (ROLE_LABELS[role] ?? role) : '—';
}

/** Who made the entry: their e-mail, or 'Anonymous' (the booking portal) or 'Baywise' (a background job). */
/** 'Impersonated by sophie@baywise.test' for an entry a platform user wrote as the actor, else null. */
export function auditImpersonationNote(entry: Pick<AuditEntry, 'impersonatorEmail' | 'impersonatorId'>): string | null {
  if (entry.impersonatorEmail) return `Impersonated by ${entry.impersonatorEmail}`;
  return entry.impersonatorId ? 'Impersonated by a platform user' : null;
}

export function auditActorName(entry: Pick<AuditEntry, 'actorEmail' | 'actorRole'>): string {
  if (entry.actorEmail) return entry.actorEmail;
  if (entry.actorRole === 'public') return 'Anonymous';
  if (entry.actorRole === 'system') return 'Baywise';
  return '—';
}
