import { z } from 'zod';
import { bookingListItemSchema } from './org-bookings';
import { multiLine, singleLine } from './text-rules';

// Tenants: the companies that book an organization's bays, with their contacts and booking policy.
// The API (server/modules/tenants), the tenant form and the CSV import validate with these schemas,
// so the messages are the same wherever validation runs. How portal requests link to a tenant:
// docs/tenant-linking.md.

export const TENANT_STATUSES = ['active', 'blocked'] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];
export const TENANT_STATUS_LABELS: Record<TenantStatus, string> = { active: 'Active', blocked: 'Blocked' };

export const TENANT_PAGE_SIZE = 25;
export const TENANT_BOOKINGS_PAGE_SIZE = 10;
export const TENANT_NAME_MAX = 120;
export const TENANT_LIST_MAX = 20;
export const MAX_BOOKINGS_PER_DAY_LIMIT = 1000;
/** The import takes at most this many rows (and a body of at most 1 MB). */
export const TENANT_IMPORT_MAX_ROWS = 2000;

/**
 * Public mail providers: a domain shared by everyone cannot identify one company, so it cannot be a
 * tenant's e-mail domain (list the tenant's addresses as contact e-mails instead).
 */
export const PUBLIC_MAIL_DOMAINS = [
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'mail.com',
  'bigpond.com',
] as const;

const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** 'Example.COM', '@example.com' → 'example.com' (how domains are stored and compared). */
export function normalizeDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/^@+/, '');
}

/** The keys a portal request links by: its e-mail, that e-mail's domain, and the company name, each case-blind. */
export function linkKeysOf(email: string, companyName: string): { email: string; domain: string; name: string } {
  const address = email.trim().toLowerCase();
  return { email: address, domain: address.slice(address.lastIndexOf('@') + 1), name: companyName.trim() };
}

const unique = <T>(list: T[]) => [...new Set(list)];

const nameField = z
  .string({ error: 'Company name is required' })
  .trim()
  .refine(...singleLine('Company name'))
  .min(1, { error: 'Company name is required', abort: true })
  .max(TENANT_NAME_MAX, { error: `Company name must be at most ${TENANT_NAME_MAX} characters` });

const emailItem = z
  .string({ error: 'Enter a valid e-mail address' })
  .trim()
  .toLowerCase()
  .refine(...singleLine('E-mail address'))
  .max(254, { error: 'E-mail address is too long', abort: true })
  .refine((value) => EMAIL_PATTERN.test(value), { error: (issue) => `${String(issue.input).trim() || 'An empty value'} is not a valid e-mail address` });

const domainItem = z
  .string({ error: 'Enter a domain like example.com' })
  .transform(normalizeDomain)
  .refine((value) => DOMAIN_PATTERN.test(value), { error: (issue) => `${String(issue.input).trim() || 'An empty value'} is not a domain like example.com`, abort: true })
  .refine((value) => !(PUBLIC_MAIL_DOMAINS as readonly string[]).includes(value), {
    error: (issue) => `${String(issue.input).trim()} is a public mail provider: list the tenant's addresses under contact e-mails instead`,
  });

/** A one-line optional text: trimmed; blank becomes null (undefined stays undefined: "not sent"). */
function optionalText(label: string, max: number, isMultiLine = false) {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .refine(...(isMultiLine ? multiLine(label) : singleLine(label)))
    .max(max, { error: `${label} must be at most ${max} characters` })
    .nullish()
    .transform((value) => (value === undefined ? undefined : value || null));
}

const tenantFields = {
  name: nameField,
  contactEmails: z
    .array(emailItem, { error: 'Contact e-mails must be a list' })
    .max(TENANT_LIST_MAX, { error: `At most ${TENANT_LIST_MAX} contact e-mails` })
    .transform(unique),
  phone: optionalText('Phone', 50),
  emailDomains: z
    .array(domainItem, { error: 'E-mail domains must be a list' })
    .max(TENANT_LIST_MAX, { error: `At most ${TENANT_LIST_MAX} e-mail domains` })
    .transform(unique),
  notes: optionalText('Notes', 2000, true),
  status: z.enum(TENANT_STATUSES, { error: 'Status must be active or blocked' }),
  /** Why the tenant is blocked (kept for the team; cleared when the tenant is active again). */
  blockedReason: optionalText('Reason', 500, true),
  autoApprove: z.boolean({ error: 'Auto-approve must be yes or no' }),
  /** A signed-in haulier of this tenant may request a standing booking for approval (decision 045). */
  standingRequestsAllowed: z.boolean({ error: 'Standing requests must be yes or no' }),
  /** null: every site of the organization. */
  allowedSiteIds: z
    .array(z.uuid({ error: 'Choose sites of this organization' }), { error: 'Allowed sites must be a list' })
    .min(1, { error: 'Choose at least one site, or allow every site' })
    .max(100)
    .transform(unique)
    .nullable(),
  /** null: no limit. */
  maxBookingsPerDay: z
    .number({ error: 'Enter a whole number of bookings' })
    .int({ error: 'Enter a whole number of bookings' })
    .min(1, { error: 'At least 1 booking a day (or no limit)' })
    .max(MAX_BOOKINGS_PER_DAY_LIMIT, { error: `At most ${MAX_BOOKINGS_PER_DAY_LIMIT} bookings a day` })
    .nullable(),
};

/** POST /tenants (and each row of the CSV import): the name is required, everything else has a default. */
export const tenantInputSchema = z.object({
  name: tenantFields.name,
  contactEmails: tenantFields.contactEmails.optional(),
  phone: tenantFields.phone,
  emailDomains: tenantFields.emailDomains.optional(),
  notes: tenantFields.notes,
  status: tenantFields.status.optional(),
  blockedReason: tenantFields.blockedReason,
  autoApprove: tenantFields.autoApprove.optional(),
  standingRequestsAllowed: tenantFields.standingRequestsAllowed.optional(),
  allowedSiteIds: tenantFields.allowedSiteIds.optional(),
  maxBookingsPerDay: tenantFields.maxBookingsPerDay.optional(),
});
export type TenantInput = z.input<typeof tenantInputSchema>;
export type TenantValues = z.output<typeof tenantInputSchema>;

/** PATCH /tenants/:id: only the fields sent change. */
export const tenantPatchSchema = tenantInputSchema.partial();
export type TenantPatch = z.input<typeof tenantPatchSchema>;

export const tenantListQuerySchema = z.object({
  /** Name, contact e-mail or domain (case-blind, part of the text). */
  q: z.string().trim().max(100).optional(),
  status: z.enum(TENANT_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type TenantListQuery = z.input<typeof tenantListQuerySchema>;

export const tenantSchema = z.object({
  id: z.string(),
  name: z.string(),
  contactEmails: z.array(z.string()),
  phone: z.string().nullable(),
  emailDomains: z.array(z.string()),
  notes: z.string().nullable(),
  status: z.enum(TENANT_STATUSES),
  blockedReason: z.string().nullable(),
  autoApprove: z.boolean(),
  standingRequestsAllowed: z.boolean(),
  allowedSiteIds: z.array(z.string()).nullable(),
  maxBookingsPerDay: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Tenant = z.infer<typeof tenantSchema>;

export const tenantListItemSchema = tenantSchema.extend({ bookingCount: z.number() });
export type TenantListItem = z.infer<typeof tenantListItemSchema>;

export const tenantListSchema = z.object({
  items: z.array(tenantListItemSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type TenantList = z.infer<typeof tenantListSchema>;

export const tenantFiguresSchema = z.object({
  /** Every booking linked to the tenant, whatever its status. */
  bookings: z.number(),
  /** Bookings that arrived (checked in at the gate). */
  arrivals: z.number(),
  /** Arrivals checked in within the booking window (± BOOKING_WINDOW_MIN) of their start. */
  onTimeArrivals: z.number(),
  /** onTimeArrivals / arrivals, 0–1; null before the first arrival. */
  onTimeRate: z.number().nullable(),
  noShows: z.number(),
  cancellations: z.number(),
  /** Live bookings from now on. */
  upcoming: z.number(),
});
export type TenantFigures = z.infer<typeof tenantFiguresSchema>;

export const tenantDetailSchema = tenantSchema.extend({
  /** The allowed sites by name (null: every site). */
  allowedSites: z.array(z.object({ id: z.string(), name: z.string() })).nullable(),
  figures: tenantFiguresSchema,
});
export type TenantDetail = z.infer<typeof tenantDetailSchema>;

export const tenantBookingsQuerySchema = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });

export const tenantBookingsSchema = z.object({
  items: z.array(bookingListItemSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type TenantBookings = z.infer<typeof tenantBookingsSchema>;

/** The CSV header, in this order (the import accepts the columns in any order; only name is required). */
export const TENANT_CSV_COLUMNS = ['name', 'contact_emails', 'phone', 'email_domains', 'status', 'auto_approve', 'max_bookings_per_day'] as const;
export type TenantCsvColumn = (typeof TENANT_CSV_COLUMNS)[number];

/** One problem of an import: the file's line (the header is line 1), the column when known, what is wrong. */
export const tenantImportErrorSchema = z.object({ row: z.number(), column: z.string().nullable(), message: z.string() });
export type TenantImportError = z.infer<typeof tenantImportErrorSchema>;

export const tenantImportResultSchema = z.object({ imported: z.number() });
export type TenantImportResult = z.infer<typeof tenantImportResultSchema>;
