import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { DEFAULT_OPERATING_HOURS, type OperatingHours } from '../../domain/constants';

// Every tenant-owned table carries org_id (shaped for Citus: distribute by org_id).
// Plans, platform settings and users are reference data.

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true });

export const plans = pgTable('plans', {
  id: id(),
  name: text('name').notNull().unique(),
  description: text('description'),
  priceCents: integer('price_cents').notNull().default(0),
  currency: text('currency').notNull().default('USD'),
  interval: text('interval').notNull().default('month'),
  maxSites: integer('max_sites'),
  maxBays: integer('max_bays'),
  maxUsers: integer('max_users'),
  /** Bookings created per calendar month (UTC); null is unlimited, like the other limits. */
  maxBookingsPerMonth: integer('max_bookings_per_month'),
  features: jsonb('features').$type<string[]>().notNull().default([]),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
});

export const organizations = pgTable('organizations', {
  id: id(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  status: text('status').notNull().default('active'),
  active: boolean('active').notNull().default(true),
  contactEmail: text('contact_email'),
  contactPhone: text('contact_phone'),
  address: text('address'),
  /** Parsed with its defaults by domain/org-settings.ts. */
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  /** The logo in the object store (content-checked image), if any. */
  logoKey: text('logo_key'),
  logoContentType: text('logo_content_type'),
  /** Moved by a trigger on every change to the organization's sites (booking-path rule cache). */
  configVersion: bigint('config_version', { mode: 'number' }).notNull().default(1),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const billing = pgTable('billing', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  planId: uuid('plan_id').references(() => plans.id),
  status: text('status').notNull().default('active'),
  currentPeriodEnd: ts('current_period_end'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * The monthly booking cap's e-mails to the organization's admins (issue 22 item 13): one row per
 * organization, calendar month (UTC, 'YYYY-MM') and threshold (80, 100) once that e-mail is queued,
 * so each goes out once a month whatever the concurrency (docs/decisions/035-plan-limits-never-ambush.md).
 */
export const bookingCapAlerts = pgTable(
  'booking_cap_alerts',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    periodKey: text('period_key').notNull(),
    percent: integer('percent').notNull(),
    allowed: integer('allowed').notNull(),
    used: integer('used').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'booking_cap_alerts_pk', columns: [t.orgId, t.periodKey, t.percent] })],
);

export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id').references(() => plans.id),
    number: text('number').notNull().unique(),
    status: text('status').notNull().default('open'),
    currency: text('currency').notNull().default('USD'),
    amountDue: numeric('amount_due', { precision: 12, scale: 2 }).notNull(),
    amountPaid: numeric('amount_paid', { precision: 12, scale: 2 }).notNull().default('0'),
    periodStart: ts('period_start'),
    periodEnd: ts('period_end'),
    issuedAt: ts('issued_at').notNull().defaultNow(),
    paidAt: ts('paid_at'),
    /** 'YYYY-MM' of the billed month: one invoice per organization and month (the job is idempotent). */
    periodKey: text('period_key'),
    lineItems: jsonb('line_items').$type<InvoiceLineItem[]>().notNull().default([]),
    dueAt: ts('due_at'),
    /** 'manual' or the provider ('stripe'); paymentRef is the provider's event or the admin's note. */
    paymentMethod: text('payment_method'),
    paymentRef: text('payment_ref'),
    createdAt: createdAt(),
  },
  (t) => [
    index('invoices_org_idx').on(t.orgId),
    index('invoices_paid_idx').on(t.status, t.paidAt),
    uniqueIndex('invoices_org_period_idx').on(t.orgId, t.periodKey),
  ],
);

export type InvoiceLineItem = { description: string; quantity: number; unitAmount: string; amount: string };

/** A payment provider's webhook event, kept so a replayed delivery is applied once. */
export const paymentWebhookEvents = pgTable('payment_webhook_events', {
  eventId: text('event_id').primaryKey(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  invoiceId: uuid('invoice_id'),
  receivedAt: ts('received_at').notNull().defaultNow(),
});

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    fullName: text('full_name'),
    phone: text('phone'),
    platformRole: text('platform_role'),
    active: boolean('active').notNull().default(true),
    emailConfirmedAt: ts('email_confirmed_at'),
    lastSignInAt: ts('last_sign_in_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`)],
);

export const authSessions = pgTable(
  'auth_sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Organization chosen at sign-in (org admin and dockmaster logins), if any. */
    orgId: uuid('org_id').references(() => organizations.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id'),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
    refreshedAt: ts('refreshed_at'),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
    /** Set when a platform user acts as userId (impersonation): who, and the reason they gave. */
    impersonatorId: uuid('impersonator_id').references(() => users.id, { onDelete: 'cascade' }),
    impersonationReason: text('impersonation_reason'),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId), index('auth_sessions_created_idx').on(t.createdAt)],
);

/** Rotating refresh tokens: each use issues a new one; reuse of a spent one revokes the session. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    usedAt: ts('used_at'),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

/** One-time e-mail tokens: sign-up confirmation and password recovery. */
export const authTokens = pgTable('auth_tokens', {
  id: id(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  createdAt: createdAt(),
});

export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('login_failures_email_idx').on(t.email, t.createdAt), index('login_failures_ip_idx').on(t.ip, t.createdAt)],
);

export const orgMemberships = pgTable(
  'org_memberships',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    active: boolean('active').notNull().default(true),
    employeeId: text('employee_id'),
    deactivatedAt: ts('deactivated_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('org_memberships_org_user_idx').on(t.orgId, t.userId),
    uniqueIndex('org_memberships_employee_idx').on(t.orgId, sql`lower(${t.employeeId})`),
    index('org_memberships_user_idx').on(t.userId),
  ],
);

export type EmergencyContact = { label: string; extension: string };

export const sites = pgTable(
  'sites',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    address: text('address'),
    timeZone: text('time_zone').notNull().default('UTC'),
    operatingHours: jsonb('operating_hours').$type<OperatingHours>().notNull().default(DEFAULT_OPERATING_HOURS),
    slotIntervalMin: integer('slot_interval_min').notNull().default(30),
    minAdvanceMin: integer('min_advance_min').notNull().default(120),
    /** How far ahead the portal offers slots (days from the site's today). */
    bookingHorizonDays: integer('booking_horizon_days').notNull().default(60),
    contactPhone: text('contact_phone'),
    contactEmail: text('contact_email'),
    emergencyContacts: jsonb('emergency_contacts').$type<EmergencyContact[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    /** Emergency stop: set while the site is stopped (no slots offered, every dock screen warned). */
    emergencyAt: ts('emergency_at'),
    emergencyReason: text('emergency_reason'),
    emergencyBy: uuid('emergency_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sites_org_name_idx').on(t.orgId, sql`lower(${t.name})`), index('sites_org_idx').on(t.orgId)],
);

/** Text compared by code point on every server, whatever the database's collation. */
const textCollateC = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

export const bays = pgTable(
  'bays',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    heightClearanceM: numeric('height_clearance_m', { precision: 4, scale: 2, mode: 'number' }).notNull(),
    lengthM: numeric('length_m', { precision: 5, scale: 2, mode: 'number' }),
    capacity: integer('capacity').notNull().default(1),
    features: text('features').array().notNull().default(sql`'{}'::text[]`),
    active: boolean('active').notNull().default(true),
    /**
     * natural_sort_key(name), collated "C" (migration 0018): the key of domain/bay-order.ts, so
     * `order by sort_key` is the natural order ('B-2' before 'B-10') of best fit and bay lists.
     */
    sortKey: textCollateC('sort_key').generatedAlwaysAs(sql`natural_sort_key(name)`),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bays_site_name_idx').on(t.siteId, sql`lower(${t.name})`),
    index('bays_org_idx').on(t.orgId),
    index('bays_best_fit_idx').on(t.siteId, t.heightClearanceM, t.sortKey, t.id).where(sql`${t.active}`),
  ],
);

/**
 * When a bay was in service (migration 0016): one row per period, open-ended while it is active.
 * Written by a trigger on `bays` (insert, and each change of `active`); the utilisation report
 * counts a bay's open hours only inside these periods.
 */
export const bayActivePeriods = pgTable(
  'bay_active_periods',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    bayId: uuid('bay_id')
      .notNull()
      .references(() => bays.id, { onDelete: 'cascade' }),
    activeFrom: ts('active_from').notNull(),
    activeUntil: ts('active_until'),
  },
  (t) => [
    index('bay_active_periods_org_site_idx').on(t.orgId, t.siteId, t.bayId),
    uniqueIndex('bay_active_periods_open_idx').on(t.bayId).where(sql`${t.activeUntil} is null`),
  ],
);

/**
 * A recurring blackout: an RFC 5545 RRULE (without DTSTART) from `startsOn` at `startLocal` in the
 * site's time zone, each occurrence `durationMin` long; expanded into `blackouts` rows.
 */
export const blackoutSeries = pgTable(
  'blackout_series',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    bayId: uuid('bay_id').references(() => bays.id, { onDelete: 'cascade' }),
    rrule: text('rrule').notNull(),
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    startLocal: text('start_local').notNull(),
    durationMin: integer('duration_min').notNull(),
    until: date('until', { mode: 'string' }),
    reason: text('reason'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /** The last local date occurrences have been written for. */
    expandedUntil: date('expanded_until', { mode: 'string' }),
  },
  (t) => [index('blackout_series_site_idx').on(t.siteId)],
);

export const blackouts = pgTable(
  'blackouts',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** null: the whole site is blacked out. */
    bayId: uuid('bay_id').references(() => bays.id, { onDelete: 'cascade' }),
    startTime: ts('start_time').notNull(),
    endTime: ts('end_time').notNull(),
    reason: text('reason'),
    /** The recurring series this occurrence was expanded from; null for a one-off. */
    seriesId: uuid('series_id').references(() => blackoutSeries.id, { onDelete: 'cascade' }),
    /** 'blackout', or 'holiday' (a dated site-wide closure entered with the site's hours). */
    kind: text('kind').notNull().default('blackout'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('blackouts_site_time_idx').on(t.siteId, t.startTime),
    check('blackouts_time_order', sql`${t.endTime} > ${t.startTime}`),
  ],
);

export const tenants = pgTable(
  'tenants',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contactName: text('contact_name'),
    email: text('email'),
    phone: text('phone'),
    notes: text('notes'),
    active: boolean('active').notNull().default(true),
    contactEmails: text('contact_emails').array().notNull().default(sql`'{}'::text[]`),
    /** Portal requests from these e-mail domains link to the tenant (docs/tenant-linking.md). */
    emailDomains: text('email_domains').array().notNull().default(sql`'{}'::text[]`),
    /** 'active' or 'blocked' (a blocked tenant's portal requests are refused). */
    status: text('status').notNull().default('active'),
    blockedReason: text('blocked_reason'),
    /** Their portal requests skip pending. */
    autoApprove: boolean('auto_approve').notNull().default(false),
    /** null: every site of the organization. */
    allowedSiteIds: uuid('allowed_site_ids').array(),
    maxBookingsPerDay: integer('max_bookings_per_day'),
    /** A signed-in haulier of this tenant may request a standing booking for approval. */
    standingRequestsAllowed: boolean('standing_requests_allowed').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tenants_org_name_idx').on(t.orgId, sql`lower(${t.name})`)],
);

export const bookings = pgTable(
  'bookings',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id),
    bayId: uuid('bay_id')
      .notNull()
      .references(() => bays.id),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'set null' }),
    tsrNumber: text('tsr_number').notNull(),
    tsrSystemType: text('tsr_system_type'),
    tsrUrl: text('tsr_url'),
    tenantName: text('tenant_name').notNull(),
    contactName: text('contact_name'),
    tenantEmail: text('tenant_email').notNull(),
    tenantPhone: text('tenant_phone'),
    bookingType: text('booking_type').notNull().default('delivery'),
    startTime: ts('start_time').notNull(),
    endTime: ts('end_time').notNull(),
    windowStart: ts('window_start').notNull(),
    windowEnd: ts('window_end').notNull(),
    vehicleType: text('vehicle_type').notNull(),
    vehicleRegistration: text('vehicle_registration').notNull(),
    vehicleHeightMm: integer('vehicle_height_mm').notNull(),
    vehicleLengthMm: integer('vehicle_length_mm'),
    vehicleHeightM: numeric('vehicle_height_m', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    vehicleLengthM: numeric('vehicle_length_m', { precision: 5, scale: 2, mode: 'number' }),
    specialAccessNeeds: text('special_access_needs').array(),
    goodsDescription: text('goods_description'),
    expectedDurationMin: integer('expected_duration_min').notNull().default(30),
    driverInductionCompleted: boolean('driver_induction_completed').notNull().default(false),
    notes: text('notes'),
    status: text('status').notNull().default('pending'),
    source: text('source').notNull().default('portal'),
    idempotencyKey: text('idempotency_key'),
    /** SHA-256 of the first request sent with this key: the same key with another body is refused. */
    idempotencyFingerprint: text('idempotency_fingerprint'),
    manageTokenHash: text('manage_token_hash').unique(),
    statusReason: text('status_reason'),
    /** Bumped by every write; a write that carries an older one is refused (409). */
    version: integer('version').notNull().default(1),
    approvedAt: ts('approved_at'),
    declinedAt: ts('declined_at'),
    cancelledAt: ts('cancelled_at'),
    checkedInAt: ts('checked_in_at'),
    startedAt: ts('started_at'),
    completedAt: ts('completed_at'),
    noShowAt: ts('no_show_at'),
    /** The haulier's latest running-late report: when the truck now expects to arrive, and when it said so. */
    lateEta: ts('late_eta'),
    lateReportedAt: ts('late_reported_at'),
    /** The language the booking was made in (domain/languages.ts): the haulier's e-mails use it. */
    language: text('language').notNull().default('en'),
    /** The standing booking this occurrence was created from, if any (migration 0021). */
    standingBookingId: uuid('standing_booking_id').references((): AnyPgColumn => standingBookings.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('bookings_org_start_idx').on(t.orgId, t.startTime),
    index('bookings_site_start_idx').on(t.siteId, t.startTime),
    index('bookings_bay_start_idx').on(t.bayId, t.startTime),
    index('bookings_org_status_start_idx').on(t.orgId, t.status, t.startTime),
    // Plan limits count the bookings created per calendar month (migration 0009).
    index('bookings_org_created_idx').on(t.orgId, t.createdAt),
    // The carrier API finds a tenant's load by its reference, and refuses booking one twice (migration 0012).
    index('bookings_tenant_reference_idx').on(t.orgId, t.tenantId, t.tsrNumber),
    uniqueIndex('bookings_idempotency_idx').on(t.orgId, t.idempotencyKey),
    // A signed-in haulier's bookings across organizations, and a standing booking's occurrences (migration 0021).
    index('bookings_email_lower_idx').on(sql`lower(${t.tenantEmail})`, t.startTime),
    index('bookings_standing_idx').on(t.standingBookingId).where(sql`${t.standingBookingId} IS NOT NULL`),
    check('bookings_time_order', sql`${t.endTime} > ${t.startTime}`),
    // The status list is domain/enums.ts BOOKING_STATUSES (migration 0003 writes it out).
    check('bookings_status_known', sql`${t.status} in ('pending', 'approved', 'declined', 'cancelled', 'checked_in', 'in_progress', 'completed', 'overstay', 'no_show')`),
    // The no-overlap exclusion constraint lives in a custom migration (drizzle cannot express it).
  ],
);

export const bookingDocuments = pgTable(
  'booking_documents',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    bucket: text('bucket').notNull().default('booking-documents'),
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('booking_documents_booking_idx').on(t.bookingId)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    actorRole: text('actor_role'),
    action: text('action').notNull(),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id'),
    // No foreign key: the log is append-only (0007), and a deleted organization's entries keep its id.
    orgId: uuid('org_id'),
    siteId: uuid('site_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
    /** The platform user behind an impersonated actor, if any. */
    impersonatorId: uuid('impersonator_id'),
    impersonatorEmail: text('impersonator_email'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_org_idx').on(t.orgId, t.createdAt),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    index('audit_log_action_idx').on(t.action, t.createdAt),
  ],
);

export const platformSettings = pgTable('platform_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  updatedBy: uuid('updated_by'),
});

export const quoteRequests = pgTable('quote_requests', {
  id: id(),
  name: text('name').notNull(),
  company: text('company').notNull(),
  email: text('email').notNull(),
  phone: text('phone'),
  sites: integer('sites'),
  message: text('message'),
  status: text('status').notNull().default('new'),
  contactedAt: ts('contacted_at'),
  convertedOrgId: uuid('converted_org_id').references(() => organizations.id, { onDelete: 'set null' }),
  handledBy: uuid('handled_by'),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Server-side failures captured for the error-monitoring screen. */
export const errorEvents = pgTable(
  'error_events',
  {
    id: id(),
    requestId: text('request_id'),
    method: text('method'),
    url: text('url'),
    statusCode: integer('status_code'),
    code: text('code'),
    message: text('message').notNull(),
    stack: text('stack'),
    userId: uuid('user_id'),
    /** 'server' or 'browser' (reported by the web app). */
    source: text('source').notNull().default('server'),
    /** Groups repeats of one error (source, name/code and the top stack frames). */
    fingerprint: text('fingerprint'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('error_events_created_idx').on(t.createdAt), index('error_events_fingerprint_idx').on(t.fingerprint, t.createdAt)],
);

/** The triage state of one error fingerprint (no row: open). */
export const errorGroups = pgTable(
  'error_groups',
  {
    fingerprint: text('fingerprint').primaryKey(),
    status: text('status').notNull().default('open'),
    resolvedAt: ts('resolved_at'),
    resolvedBy: uuid('resolved_by'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [check('error_groups_status_check', sql`${t.status} IN ('open', 'resolved')`)],
);

/** API and webhook calls per organization and UTC day (the usage screen). */
export const usageCounters = pgTable(
  'usage_counters',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    kind: text('kind').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'usage_counters_pk', columns: [t.orgId, t.day, t.kind] })],
);

/** TOTP two-factor sign-in: the secret (confirmed once a code from it was entered) and the last step used. */
export const userMfa = pgTable('user_mfa', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  confirmedAt: ts('confirmed_at'),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('mfa_recovery_codes_user_idx').on(t.userId)],
);

/**
 * E-mail written in the same transaction as the change that causes it (`kind` names the template,
 * `payload` its facts); the outbox worker renders and delivers it with retries.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    orgId: uuid('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    /** Addresses known when queued; a renderer may add those it reads at delivery (e.g. the org's admins). */
    recipients: text('recipients').array().notNull().default(sql`'{}'::text[]`),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    messageId: text('message_id'),
    createdAt: createdAt(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    check('mail_outbox_status_check', sql`${t.status} IN ('pending', 'sent', 'failed')`),
  ],
);

/** One row per minute the server was up (the measured uptime on the platform sign-in page). */
export const uptimeChecks = pgTable('uptime_checks', {
  minute: ts('minute').primaryKey(),
  ok: boolean('ok').notNull().default(true),
});

export const orgInvitations = pgTable('org_invitations', {
  id: id(),
  orgId: uuid('org_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  fullName: text('full_name'),
  role: text('role').notNull(),
  employeeId: text('employee_id'),
  tokenHash: text('token_hash').notNull().unique(),
  invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  lastSentAt: ts('last_sent_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  acceptedAt: ts('accepted_at'),
  revokedAt: ts('revoked_at'),
  /** The account that accepted it. */
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
});

export const siteCameraTokens = pgTable('site_camera_tokens', {
  id: id(),
  orgId: uuid('org_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  siteId: uuid('site_id')
    .notNull()
    .references(() => sites.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  /** The last four characters, to tell tokens apart after the secret has been shown. */
  tokenHint: text('token_hint').notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  lastUsedAt: ts('last_used_at'),
  revokedAt: ts('revoked_at'),
});

/** A gate kiosk (a tablet at the gate house) registered for one site: a device token like the camera tokens (migration 0020). */
export const siteKioskDevices = pgTable(
  'site_kiosk_devices',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The last four characters, to tell devices apart after the secret has been shown. */
    tokenHint: text('token_hint').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('site_kiosk_devices_site_idx').on(t.siteId)],
);

/** A truck without a booking that registered at a kiosk: the dockmaster accepts it (a walk-in booking) or declines it. */
export const kioskWalkInRequests = pgTable(
  'kiosk_walk_in_requests',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id').references(() => siteKioskDevices.id, { onDelete: 'set null' }),
    vehicleRegistration: text('vehicle_registration').notNull(),
    companyName: text('company_name').notNull(),
    driverName: text('driver_name'),
    driverPhone: text('driver_phone'),
    bookingType: text('booking_type').notNull().default('delivery'),
    notes: text('notes'),
    status: text('status').notNull().default('pending'),
    bookingId: uuid('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: ts('decided_at'),
    decisionReason: text('decision_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('kiosk_walk_in_requests_site_idx').on(t.siteId, t.createdAt).where(sql`${t.status} = 'pending'`),
    check('kiosk_walk_in_requests_status_check', sql`${t.status} IN ('pending', 'accepted', 'declined')`),
  ],
);

/** One row per reminder sent (booking, minutes before the slot, channel): the job writes it with the message, so each goes once. */
export const bookingReminders = pgTable(
  'booking_reminders',
  {
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    offsetMinutes: integer('offset_minutes').notNull(),
    channel: text('channel').notNull(),
    sentAt: ts('sent_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'booking_reminders_pk', columns: [t.bookingId, t.offsetMinutes, t.channel] }),
    check('booking_reminders_channel_check', sql`${t.channel} IN ('email', 'sms')`),
  ],
);

/** Text messages written with the change that causes them and sent by a worker through the SMS provider (off by default). */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: id(),
    orgId: uuid('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    toPhone: text('to_phone').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    providerMessageId: text('provider_message_id'),
    createdAt: createdAt(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    index('sms_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    check('sms_outbox_status_check', sql`${t.status} IN ('pending', 'sent', 'failed')`),
  ],
);

/** Every number-plate read at a site (typed, photo, device camera, site camera webhook), matched or not. */
export const plateReads = pgTable(
  'plate_reads',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    plate: text('plate').notNull(),
    raw: text('raw'),
    confidence: numeric('confidence', { precision: 5, scale: 4, mode: 'number' }),
    camera: text('camera'),
    source: text('source').notNull(),
    capturedAt: ts('captured_at').notNull(),
    status: text('status').notNull(),
    bookingId: uuid('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    action: text('action'),
    cameraTokenId: uuid('camera_token_id').references(() => siteCameraTokens.id, { onDelete: 'set null' }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('plate_reads_site_time_idx').on(t.siteId, t.capturedAt)],
);

// ---- Issue 13: API keys and the SSC appointment API (migration 0010_api_keys) ----

/** A tenant's API key: acts for that tenant with its scopes; only the secret's SHA-256 is stored. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull().unique(),
    /** The last four characters, to tell keys apart after the secret has been shown. */
    secretHint: text('secret_hint').notNull(),
    scopes: text('scopes').array().notNull(),
    rateLimitPerMinute: integer('rate_limit_per_minute').notNull().default(600),
    expiresAt: ts('expires_at'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('api_keys_org_idx').on(t.orgId, t.createdAt), check('api_keys_rate_limit_positive', sql`${t.rateLimitPerMinute} > 0`)],
);

/** What the SSC standard knows of a booking made through it (docs/ssc-mapping.md). */
export const sscAppointments = pgTable(
  'ssc_appointments',
  {
    bookingId: uuid('booking_id')
      .primaryKey()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    primaryReferenceNumber: text('primary_reference_number').notNull(),
    poNumber: text('po_number'),
    bolNumber: text('bol_number'),
    stopSequenceNumber: integer('stop_sequence_number'),
    loadingType: text('loading_type').notNull(),
    equipmentType: text('equipment_type').notNull(),
    lastReasonCode: text('last_reason_code'),
    lastComment: text('last_comment'),
    // A reschedule of a confirmed appointment awaiting the site (null when none): the requested
    // start, duration and loading type, and when the carrier asked. The booking keeps its slot meanwhile.
    requestedStartTime: ts('requested_start_time'),
    requestedDurationMin: integer('requested_duration_min'),
    requestedLoadingType: text('requested_loading_type'),
    requestedAt: ts('requested_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('ssc_appointments_reference_idx').on(t.orgId, t.tenantId, t.primaryReferenceNumber)],
);

/** SSC webhook subscriptions of a tenant; deliveries are the outbound webhook engine's. */
export const sscWebhookSubscriptions = pgTable(
  'ssc_webhook_subscriptions',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    eventTypes: text('event_types').array().notNull(),
    callbackUrl: text('callback_url'),
    /** The key its appointment-changed deliveries are signed with, encrypted (secret-box); shown once, at creation (migration 0012). */
    signingSecretEnc: text('signing_secret_enc'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('ssc_webhook_subscriptions_tenant_idx').on(t.orgId, t.tenantId, t.createdAt)],
);
// ---- end of issue 13 ----

// --- Outbound webhooks (issue 13; migration 0011_webhooks, decision 021) ---------------------------

/** An organization's webhook endpoint (Integrations → Webhooks): where its events are posted, signed. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events').array().notNull(),
    /** The signing secret, AES-256-GCM encrypted (server/modules/webhooks/secret-box.ts). */
    secretEnc: text('secret_enc').notNull(),
    /** The secret's last four characters, to tell secrets apart on screen. */
    secretHint: text('secret_hint').notNull(),
    status: text('status').notNull().default('active'),
    disabledReason: text('disabled_reason'),
    disabledAt: ts('disabled_at'),
    /** Failed attempts in a row (any delivery); a success sets it back to 0. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_endpoints_org_idx').on(t.orgId),
    check('webhook_endpoints_status_check', sql`${t.status} IN ('active', 'disabled')`),
  ],
);

/** An organization's connection to its TSR system (ServiceNow, FMClarity): status changes are posted back as work notes. */
export const tsrConnections = pgTable(
  'tsr_connections',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    system: text('system').notNull(),
    baseUrl: text('base_url').notNull(),
    /** The credentials as JSON, AES-256-GCM encrypted (secret-box.ts). */
    credentialsEnc: text('credentials_enc').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tsr_connections_org_system_idx').on(t.orgId, t.system),
    check('tsr_connections_system_check', sql`${t.system} IN ('servicenow', 'fmclarity')`),
  ],
);

/**
 * The webhook outbox: one row per event and target, written in the transaction of the change and
 * delivered by the job runner with back-off. Generic on purpose: an endpoint's events (kind
 * 'webhook'), SSC `appointment-changed` callbacks (kind 'ssc', the URL, headers and secret on the
 * row) and TSR work notes (kind 'tsr') go through the same engine.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('webhook'),
    endpointId: uuid('endpoint_id').references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** Kind 'tsr': the connection whose credentials sign in at delivery. */
    connectionId: uuid('connection_id').references(() => tsrConnections.id, { onDelete: 'cascade' }),
    /** Kind 'ssc': the carrier's subscription it was for (migration 0012). */
    subscriptionId: uuid('subscription_id').references(() => sscWebhookSubscriptions.id, { onDelete: 'cascade' }),
    /** The booking the delivery reports, when its sender knows it (TSR work notes, SSC events; migration 0012). */
    bookingId: uuid('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    eventType: text('event_type').notNull(),
    /** The event's identity: the same for every delivery of one event (a redelivery keeps it). */
    eventId: uuid('event_id').notNull(),
    url: text('url').notNull(),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    /** The exact bytes posted (and signed). */
    body: text('body').notNull(),
    /** For rows without an endpoint (SSC): the signing secret, encrypted; null sends unsigned. */
    signingSecretEnc: text('signing_secret_enc'),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    lastStatusCode: integer('last_status_code'),
    lastDurationMs: integer('last_duration_ms'),
    lastError: text('last_error'),
    lastAttemptAt: ts('last_attempt_at'),
    deliveredAt: ts('delivered_at'),
    redeliveryOf: uuid('redelivery_of'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_subscription_idx').on(t.subscriptionId, t.createdAt),
    index('webhook_deliveries_connection_idx').on(t.connectionId, t.createdAt),
    check('webhook_deliveries_status_check', sql`${t.status} IN ('pending', 'delivered', 'failed')`),
    check('webhook_deliveries_kind_check', sql`${t.kind} IN ('webhook', 'ssc', 'tsr')`),
  ],
);
// --- end of outbound webhooks ---------------------------------------------------------------------

// --- cluster (issue 23) ----------------------------------------------------------------------------

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Stored files (booking documents, logos) on a PostgreSQL server when no S3 store is configured:
 * every node reads what any node wrote (server/storage/database-storage.ts).
 */
export const storedObjects = pgTable(
  'stored_objects',
  {
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    content: bytea('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key] })],
);

/**
 * Per-IP request counts shared by every node (server/plugins/rate-limit-store.ts): one row per
 * route and address, reset when its window has passed. Unlogged: a crash may forget counts, which
 * only lets a few requests more through.
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetAt: ts('reset_at').notNull(),
});

/** A haulier's password-less account: the e-mail address they book with, on every organization. */
export const haulierAccounts = pgTable(
  'haulier_accounts',
  {
    id: id(),
    email: text('email').notNull(),
    language: text('language').notNull().default('en'),
    createdAt: createdAt(),
    lastSignInAt: ts('last_sign_in_at'),
  },
  (t) => [uniqueIndex('haulier_accounts_email_idx').on(sql`lower(${t.email})`)],
);

/** One-time e-mailed sign-in links (hash only): short-lived, single use. */
export const haulierSignInLinks = pgTable(
  'haulier_sign_in_links',
  {
    id: id(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('haulier_sign_in_links_email_idx').on(sql`lower(${t.email})`, t.createdAt)],
);

export const haulierSessions = pgTable(
  'haulier_sessions',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => haulierAccounts.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('haulier_sessions_account_idx').on(t.accountId)],
);

export const haulierSavedVehicles = pgTable(
  'haulier_saved_vehicles',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => haulierAccounts.id, { onDelete: 'cascade' }),
    label: text('label'),
    vehicleType: text('vehicle_type').notNull(),
    vehicleRegistration: text('vehicle_registration').notNull(),
    vehicleHeightM: numeric('vehicle_height_m', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    vehicleLengthM: numeric('vehicle_length_m', { precision: 5, scale: 2, mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('haulier_saved_vehicles_reg_idx').on(t.accountId, sql`upper(${t.vehicleRegistration})`)],
);

export const haulierSavedContacts = pgTable(
  'haulier_saved_contacts',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => haulierAccounts.id, { onDelete: 'cascade' }),
    companyName: text('company_name').notNull(),
    contactName: text('contact_name'),
    phone: text('phone'),
    createdAt: createdAt(),
  },
  (t) => [index('haulier_saved_contacts_account_idx').on(t.accountId)],
);

/**
 * A standing (recurring) booking: on each of `weekdays` (ISO 1 = Monday … 7 = Sunday) at `startLocal`
 * (HH:MM, the site's time) for `durationMin`, from `startsOn` until `endsOn` (or open-ended). The job
 * runner creates each occurrence `weeksAhead` weeks ahead through the normal booking path.
 */
export const standingBookings = pgTable(
  'standing_bookings',
  {
    id: id(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'set null' }),
    /** requested (by a haulier, awaiting approval), active, declined, cancelled, ended. */
    status: text('status').notNull().default('active'),
    weekdays: integer('weekdays').array().notNull(),
    startLocal: text('start_local').notNull(),
    durationMin: integer('duration_min').notNull(),
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    endsOn: date('ends_on', { mode: 'string' }),
    weeksAhead: integer('weeks_ahead').notNull().default(4),
    /** The last date the job runner has considered (every occurrence up to it has a row). */
    expandedThrough: date('expanded_through', { mode: 'string' }),
    bookingType: text('booking_type').notNull().default('delivery'),
    tsrNumber: text('tsr_number').notNull(),
    tenantName: text('tenant_name').notNull(),
    contactName: text('contact_name'),
    tenantEmail: text('tenant_email').notNull(),
    tenantPhone: text('tenant_phone'),
    vehicleType: text('vehicle_type').notNull(),
    vehicleRegistration: text('vehicle_registration').notNull(),
    vehicleHeightM: numeric('vehicle_height_m', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    vehicleLengthM: numeric('vehicle_length_m', { precision: 5, scale: 2, mode: 'number' }),
    goodsDescription: text('goods_description'),
    notes: text('notes'),
    language: text('language').notNull().default('en'),
    requestedByAccountId: uuid('requested_by_account_id').references(() => haulierAccounts.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: ts('decided_at'),
    decisionReason: text('decision_reason'),
    cancelledAt: ts('cancelled_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('standing_bookings_org_idx').on(t.orgId, t.status),
    // A haulier's own standing bookings, across organizations, by their sign-in e-mail (newest first).
    index('standing_bookings_email_lower_idx').on(sql`lower(${t.tenantEmail})`, t.createdAt),
    check('standing_bookings_status_check', sql`${t.status} IN ('requested', 'active', 'declined', 'cancelled', 'ended')`),
    check('standing_bookings_duration_check', sql`${t.durationMin} > 0 AND ${t.durationMin} <= 1440`),
    check('standing_bookings_weeks_ahead_check', sql`${t.weeksAhead} BETWEEN 1 AND 26`),
    check('standing_bookings_dates_check', sql`${t.endsOn} IS NULL OR ${t.endsOn} >= ${t.startsOn}`),
  ],
);

/** One row per standing booking and date, written once (primary key): booked, conflict, skipped or cancelled. */
export const standingBookingOccurrences = pgTable(
  'standing_booking_occurrences',
  {
    standingBookingId: uuid('standing_booking_id')
      .notNull()
      .references(() => standingBookings.id, { onDelete: 'cascade' }),
    occurrenceDate: date('occurrence_date', { mode: 'string' }).notNull(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    bookingId: uuid('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    conflictCode: text('conflict_code'),
    conflictMessage: text('conflict_message'),
    resolvedAt: ts('resolved_at'),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'standing_booking_occurrences_pk', columns: [t.standingBookingId, t.occurrenceDate] }),
    index('standing_booking_occurrences_conflicts_idx').on(t.orgId, t.occurrenceDate).where(sql`${t.status} = 'conflict'`),
    check('standing_booking_occurrences_status_check', sql`${t.status} IN ('booked', 'conflict', 'skipped', 'cancelled')`),
  ],
);
