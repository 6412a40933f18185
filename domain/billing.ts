import { z } from 'zod';
import { isPlatformRole, type PlatformRole } from './enums';
import { multiLine, singleLine } from './text-rules';

// Plans and billing (issue 12): plans with a monthly price in USD and limits, an organization's
// plan, the monthly invoices, their payment (by hand or by the payment provider's webhook) and
// the revenue by month. The API (server/modules/billing) and the screens
// (web/features/superadmin-billing) share these schemas, constants and rules.
// How it works and why: docs/decisions/022-billing.md.

// --- Constants ---------------------------------------------------------------------------------

export const PLAN_NAME_MAX = 60;
export const PLAN_DESCRIPTION_MAX = 500;
export const PLAN_FEATURES_MAX = 20;
export const PLAN_FEATURE_MAX = 80;
/** The highest monthly price a plan may have, USD. */
export const PLAN_PRICE_MAX_USD = 100_000;
/** The highest number a limit may hold (null is unlimited). */
export const PLAN_LIMIT_MAX = 1_000_000;
/** An invoice is due this many days after it is issued. */
export const INVOICE_DUE_DAYS = 14;
export const INVOICES_PAGE_SIZE = 20;
/** The revenue chart covers this many calendar months, the current one included. */
export const REVENUE_MONTHS = 12;
export const PAYMENT_REFERENCE_MAX = 200;
export const VOID_REASON_MAX = 500;
export const INVOICE_CURRENCY = 'USD';
/** The metadata key that carries our invoice id on the payment provider's objects. */
export const PROVIDER_INVOICE_METADATA_KEY = 'baywise_invoice_id';

export const INVOICE_STATUSES = ['open', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const PLAN_LIMIT_KINDS = ['sites', 'bays', 'members', 'bookings'] as const;
export type PlanLimitKind = (typeof PLAN_LIMIT_KINDS)[number];

/** How each limit reads: 'site'/'sites'; bookings are counted per calendar month (UTC). */
export const PLAN_LIMIT_LABELS: Record<PlanLimitKind, { one: string; many: string; title: string }> = {
  sites: { one: 'site', many: 'sites', title: 'Sites' },
  bays: { one: 'bay', many: 'bays', title: 'Bays' },
  members: { one: 'member', many: 'members', title: 'Members' },
  bookings: { one: 'booking a month', many: 'bookings a month', title: 'Bookings / month' },
};

// --- Messages ----------------------------------------------------------------------------------

export const PLAN_NAME_REQUIRED = 'Plan name is required';
export const PLAN_NAME_TAKEN = 'A plan with this name already exists';
export const PLAN_RETIRED = 'This plan is no longer offered: reactivate it before assigning it to an organization';
export const BILLING_SUPPORT_READ_ONLY = 'Platform support can view plans and invoices but cannot change them';
export const PAYMENT_REFERENCE_REQUIRED = 'A payment reference is required (e.g. the bank transfer reference)';
export const VOID_REASON_REQUIRED = 'A reason is required to void an invoice';
export const PERIOD_NOT_ENDED = 'Only a month that has ended can be invoiced';
export const PERIOD_INVALID = 'The month must be written YYYY-MM';
export const WEBHOOKS_NOT_CONFIGURED = 'Payment webhooks are not configured';
export const WEBHOOK_SIGNATURE_INVALID = 'The webhook signature could not be verified: nothing was changed';

export const invoiceAlreadyPaid = (number: string) => `Invoice ${number} is already paid`;
export const invoiceIsVoid = (number: string) => `Invoice ${number} is void and cannot be paid`;
export const invoicePaidCannotVoid = (number: string) => `Invoice ${number} is paid and cannot be voided`;
export const invoiceAlreadyVoid = (number: string) => `Invoice ${number} is already void`;

function plural(n: number, kind: PlanLimitKind): string {
  const label = PLAN_LIMIT_LABELS[kind];
  return `${n.toLocaleString('en-US')} ${n === 1 ? label.one : label.many}`;
}

/**
 * The refusal when a creation would pass the organization's plan limit: names the plan, the limit
 * and what to do.
 */
export function planLimitMessage(kind: PlanLimitKind, planName: string, allowed: number): string {
  const allows = `The ${planName} plan allows ${plural(allowed, kind)}`;
  switch (kind) {
    case 'sites':
      return `${allows}. Deactivate a site or ask for a larger plan.`;
    case 'bays':
      return `${allows} (active bays at active sites). Deactivate a bay or ask for a larger plan.`;
    case 'members':
      return `${allows}, pending invitations included. Deactivate a member, revoke an invitation or ask for a larger plan.`;
    case 'bookings':
      return `${allows} (calendar month, UTC), and this month's have all been made. Please contact the site, or ask for a larger plan.`;
  }
}

// --- Plan changes and the monthly booking cap (issue 22 item 13) ------------------------------

export const PLAN_CHANGE_OVER_LIMITS = 'plan_change_over_limits';

/** The 409 asking to confirm a plan change that breaks limits; the violations come with it. */
export const planChangeOverLimitsMessage = (orgName: string, planName: string) =>
  `${orgName} would be over the ${planName} plan’s limits. Confirm to change the plan anyway.`;

/** Why one limit breaks under the new plan, and what that means for the organization. */
export function planChangeViolationMessage(kind: PlanLimitKind, planName: string, used: number, allowed: number): string {
  const uses = used.toLocaleString('en-US');
  const allows = `the ${planName} plan allows ${plural(allowed, kind)}`;
  switch (kind) {
    case 'sites':
      return `Sites: ${uses} active, ${allows}. No site can be added or reactivated until enough are deactivated.`;
    case 'bays':
      return `Bays: ${uses} active at active sites, ${allows}. No bay can be added or reactivated until enough are deactivated.`;
    case 'members':
      return `Members: ${uses}, pending invitations included, ${allows}. Nobody can be invited or reactivated until enough are removed.`;
    case 'bookings':
      return `Bookings: ${uses} made this month, ${allows}. The booking portal stops offering slots for the rest of the month and every new booking is refused.`;
  }
}

/**
 * The limits an organization would break on a plan with `limits`: sites, bays and members above
 * the limit; bookings at or above it (the portal closes for the rest of the month).
 */
export function planChangeViolations(
  planName: string,
  limits: Record<PlanLimitKind, number | null>,
  usage: Record<PlanLimitKind, number>,
): PlanChangeViolation[] {
  return PLAN_LIMIT_KINDS.flatMap((kind) => {
    const allowed = limits[kind];
    if (allowed === null) return [];
    const used = usage[kind];
    const breaks = kind === 'bookings' ? used >= allowed : used > allowed;
    return breaks ? [{ kind, used, allowed, message: planChangeViolationMessage(kind, planName, used, allowed) }] : [];
  });
}

/** The shares of the monthly booking cap at which the organization's admins are e-mailed, once each a month. */
export const BOOKING_CAP_ALERT_PERCENTS = [80, 100] as const;
export type BookingCapAlertPercent = (typeof BOOKING_CAP_ALERT_PERCENTS)[number];

/** The number of bookings that reaches `percent` of a cap of `allowed` (80 % of 10 is 8; of 3 is 3). */
export function bookingCapThreshold(allowed: number, percent: number): number {
  return Math.ceil((allowed * percent) / 100);
}

/** The thresholds `used` bookings have reached under a cap of `allowed` (none when the cap is 0). */
export function reachedBookingCapPercents(allowed: number, used: number): BookingCapAlertPercent[] {
  if (allowed <= 0) return [];
  return BOOKING_CAP_ALERT_PERCENTS.filter((percent) => used >= bookingCapThreshold(allowed, percent));
}

/** 'unlimited' or '10 sites'. */
export function limitLabel(kind: PlanLimitKind, allowed: number | null): string {
  return allowed === null ? `unlimited ${PLAN_LIMIT_LABELS[kind].many}` : plural(allowed, kind);
}

// --- Rules -------------------------------------------------------------------------------------

/** Super admins and platform owners change plans and invoices; platform support reads (decision 014, 016). */
const BILLING_MANAGERS: readonly PlatformRole[] = ['super_admin', 'platform_owner'];

export function canManageBilling(role: string | null | undefined): boolean {
  return isPlatformRole(role) && BILLING_MANAGERS.includes(role);
}

const PERIOD_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** 'YYYY-MM' of an instant, in UTC. */
export function periodKeyOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** The calendar month (UTC) before the one `now` falls in: what the monthly job invoices. */
export function previousPeriodKey(now: Date): string {
  return periodKeyOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)));
}

export function isPeriodKey(value: string): boolean {
  return PERIOD_PATTERN.test(value);
}

/** [start, end) of a 'YYYY-MM' month in UTC. */
export function periodBounds(key: string): { start: Date; end: Date } {
  const match = PERIOD_PATTERN.exec(key);
  if (!match) throw new Error(`Not a period key: ${key}`);
  const year = Number(match[1]);
  const month = Number(match[2]) - 1;
  return { start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
}

/** 'October 2026'. */
export function periodLabel(key: string): string {
  const { start } = periodBounds(key);
  return start.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The first instant of the calendar month (UTC) of `at`: bookings per month count from here. */
export function monthStartOf(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/** The last `count` months (UTC), oldest first, ending with the month of `now`. */
export function lastMonths(now: Date, count: number): string[] {
  const months: string[] = [];
  for (let i = count - 1; i >= 0; i--) months.push(periodKeyOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1))));
  return months;
}

/** Cents → '299.00' (the numeric columns' text). */
export function centsToAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** '299.00' or 299 → 29900. */
export function amountToCents(amount: string | number): number {
  return Math.round(Number(amount) * 100);
}

const DAY_MS = 86_400_000;

/** An invoice line as stored (amounts as the numeric columns' text, e.g. '299.00'). */
export type SubscriptionLine = { description: string; quantity: number; unitAmount: string; amount: string };

/**
 * The plan's line for the month: the monthly price, prorated by days (UTC) when the organization
 * joined during the month ('… from 24 October: 8 of 31 days').
 */
export function subscriptionLine(planName: string, priceCents: number, period: string, joinedAt: Date): SubscriptionLine {
  const { start, end } = periodBounds(period);
  const daysInMonth = Math.round((end.getTime() - start.getTime()) / DAY_MS);
  const firstDay = joinedAt.getTime() > start.getTime() ? Date.UTC(joinedAt.getUTCFullYear(), joinedAt.getUTCMonth(), joinedAt.getUTCDate()) : start.getTime();
  const days = Math.round((end.getTime() - firstDay) / DAY_MS);
  const label = periodLabel(period);
  if (days >= daysInMonth) {
    const amount = centsToAmount(priceCents);
    return { description: `${planName} plan — ${label}`, quantity: 1, unitAmount: amount, amount };
  }
  const amount = centsToAmount(Math.round((priceCents * days) / daysInMonth));
  const from = new Date(firstDay).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' });
  return { description: `${planName} plan — ${label}, from ${from}: ${days} of ${daysInMonth} days`, quantity: 1, unitAmount: amount, amount };
}

/** Open and past its due date. */
export function isOverdue(invoice: { status: string; dueAt: string | null }, now: Date): boolean {
  return invoice.status === 'open' && invoice.dueAt !== null && new Date(invoice.dueAt).getTime() < now.getTime();
}

// --- Schemas: plans ----------------------------------------------------------------------------

const uuidLike = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const limitField = (label: string) =>
  z
    .number({ error: `${label} must be a whole number, or empty for unlimited` })
    .int({ error: `${label} must be a whole number, or empty for unlimited` })
    .min(0, { error: `${label} cannot be negative` })
    .max(PLAN_LIMIT_MAX, { error: `${label} must be at most ${PLAN_LIMIT_MAX.toLocaleString('en-US')}` })
    .nullable();

const planFields = {
  name: z
    .string({ error: PLAN_NAME_REQUIRED })
    .trim()
    .min(1, { error: PLAN_NAME_REQUIRED })
    .max(PLAN_NAME_MAX, { error: `Plan name must be at most ${PLAN_NAME_MAX} characters` })
    .refine(...singleLine('Plan name')),
  description: z
    .string()
    .trim()
    .max(PLAN_DESCRIPTION_MAX, { error: `Description must be at most ${PLAN_DESCRIPTION_MAX} characters` })
    .refine(...multiLine('Description'))
    .nullable()
    .transform((value) => value || null),
  priceUsd: z
    .number({ error: 'Monthly price must be a number of US dollars' })
    .min(0, { error: 'Monthly price cannot be negative' })
    .max(PLAN_PRICE_MAX_USD, { error: `Monthly price must be at most $${PLAN_PRICE_MAX_USD.toLocaleString('en-US')}` })
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, { error: 'Monthly price must be in whole cents' }),
  maxSites: limitField('Sites limit'),
  maxBays: limitField('Bays limit'),
  maxMembers: limitField('Members limit'),
  maxBookingsPerMonth: limitField('Bookings per month limit'),
  features: z
    .array(
      z
        .string()
        .trim()
        .min(1, { error: 'A feature cannot be empty' })
        .max(PLAN_FEATURE_MAX, { error: `A feature must be at most ${PLAN_FEATURE_MAX} characters` })
        .refine(...singleLine('Feature')),
      { error: 'Features must be a list of texts' },
    )
    .max(PLAN_FEATURES_MAX, { error: `At most ${PLAN_FEATURES_MAX} features` }),
  active: z.boolean({ error: 'Active must be true or false' }),
};

/** POST /api/platform/plans, and the plan form. */
export const planInputSchema = z.object({
  ...planFields,
  description: planFields.description.optional().transform((value) => value ?? null),
  features: planFields.features.default([]),
  active: planFields.active.default(true),
});
export type PlanInput = z.input<typeof planInputSchema>;

/** PATCH /api/platform/plans/{planId}: the fields sent change, the others stay. */
export const planUpdateSchema = z
  .object({
    name: planFields.name.optional(),
    description: planFields.description.optional(),
    priceUsd: planFields.priceUsd.optional(),
    maxSites: planFields.maxSites.optional(),
    maxBays: planFields.maxBays.optional(),
    maxMembers: planFields.maxMembers.optional(),
    maxBookingsPerMonth: planFields.maxBookingsPerMonth.optional(),
    features: planFields.features.optional(),
    active: planFields.active.optional(),
  })
  .refine((value) => Object.values(value).some((v) => v !== undefined), { error: 'Nothing to change' });
export type PlanUpdate = z.input<typeof planUpdateSchema>;

export const planLimitsSchema = z.object({
  sites: z.number().nullable(),
  bays: z.number().nullable(),
  members: z.number().nullable(),
  bookings: z.number().nullable(),
});
export type PlanLimits = z.infer<typeof planLimitsSchema>;

/** An organization whose current use is above one of its plan's limits (allowed, flagged). */
export const overLimitSchema = z.object({
  orgId: z.string(),
  orgName: z.string(),
  kind: z.enum(PLAN_LIMIT_KINDS),
  used: z.number(),
  allowed: z.number(),
});
export type OverLimit = z.infer<typeof overLimitSchema>;

export const planSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  priceUsd: z.number(),
  currency: z.string(),
  interval: z.string(),
  limits: planLimitsSchema,
  features: z.array(z.string()),
  active: z.boolean(),
  createdAt: z.string(),
  /** Organizations on the plan. */
  organizations: z.number(),
  /** Organizations using more than a limit allows (the limit was lowered below their use). */
  overLimit: z.array(overLimitSchema),
});
export type Plan = z.infer<typeof planSchema>;

export const planListSchema = z.object({ items: z.array(planSchema), canManage: z.boolean() });
export type PlanList = z.infer<typeof planListSchema>;

// --- Schemas: an organization's plan -----------------------------------------------------------

export const assignPlanSchema = z.object({
  planId: z
    .string({ error: 'Choose a plan' })
    .regex(uuidLike, { error: 'Choose a plan' })
    .nullable(),
  /** A plan the organization would be over: 409 plan_change_over_limits listing what breaks, unless true. */
  confirm: z.boolean().optional(),
});
export type AssignPlanInput = z.infer<typeof assignPlanSchema>;

/** One limit a plan change would break: the organization's use against the new plan's limit, in words. */
export const planChangeViolationSchema = z.object({
  kind: z.enum(PLAN_LIMIT_KINDS),
  used: z.number(),
  allowed: z.number(),
  message: z.string(),
});
export type PlanChangeViolation = z.infer<typeof planChangeViolationSchema>;

export const limitUsageSchema = z.object({
  kind: z.enum(PLAN_LIMIT_KINDS),
  used: z.number(),
  allowed: z.number().nullable(),
  isOver: z.boolean(),
});
export type LimitUsage = z.infer<typeof limitUsageSchema>;

export const organizationBillingSchema = z.object({
  orgId: z.string(),
  orgName: z.string(),
  plan: z
    .object({ id: z.string(), name: z.string(), priceUsd: z.number(), active: z.boolean(), limits: planLimitsSchema })
    .nullable(),
  billingStatus: z.string().nullable(),
  /** Use against each limit now; members count pending invitations, bookings this calendar month (UTC). */
  usage: z.array(limitUsageSchema),
  /** Plans that may be assigned (the offered ones, and the current one). */
  plans: z.array(z.object({ id: z.string(), name: z.string(), priceUsd: z.number(), active: z.boolean() })),
  canManage: z.boolean(),
});
export type OrganizationBilling = z.infer<typeof organizationBillingSchema>;

// --- Schemas: invoices -------------------------------------------------------------------------

export const invoiceLineItemSchema = z.object({
  description: z.string(),
  quantity: z.number(),
  unitAmount: z.number(),
  amount: z.number(),
});

export const invoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  planName: z.string().nullable(),
  status: z.string(),
  currency: z.string(),
  amountDue: z.number(),
  amountPaid: z.number(),
  periodKey: z.string().nullable(),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  issuedAt: z.string(),
  dueAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  paymentMethod: z.string().nullable(),
  paymentRef: z.string().nullable(),
  lineItems: z.array(invoiceLineItemSchema),
  isOverdue: z.boolean(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

const pageField = z.coerce
  .number({ error: 'Page must be a whole number' })
  .int({ error: 'Page must be a whole number' })
  .min(1, { error: 'Page must be 1 or more' })
  .max(100_000, { error: 'Page must be at most 100000' })
  .default(1);

export const invoiceListQuerySchema = z.object({
  status: z.enum(INVOICE_STATUSES, { error: 'Status must be open, paid or void' }).optional(),
  orgId: z.string().max(100).optional(),
  page: pageField,
  pageSize: z.coerce
    .number({ error: 'Page size must be a whole number' })
    .int({ error: 'Page size must be a whole number' })
    .min(1, { error: 'Page size must be between 1 and 100' })
    .max(100, { error: 'Page size must be between 1 and 100' })
    .default(INVOICES_PAGE_SIZE),
});
export type InvoiceListQuery = z.input<typeof invoiceListQuerySchema>;

export const invoiceListSchema = z.object({ total: z.number(), items: z.array(invoiceSchema), canManage: z.boolean() });
export type InvoiceList = z.infer<typeof invoiceListSchema>;

export const markInvoicePaidSchema = z.object({
  reference: z
    .string({ error: PAYMENT_REFERENCE_REQUIRED })
    .trim()
    .min(1, { error: PAYMENT_REFERENCE_REQUIRED })
    .max(PAYMENT_REFERENCE_MAX, { error: `Reference must be at most ${PAYMENT_REFERENCE_MAX} characters` })
    .refine(...singleLine('Reference')),
});
export type MarkInvoicePaidInput = z.infer<typeof markInvoicePaidSchema>;

export const voidInvoiceSchema = z.object({
  reason: z
    .string({ error: VOID_REASON_REQUIRED })
    .trim()
    .min(1, { error: VOID_REASON_REQUIRED })
    .max(VOID_REASON_MAX, { error: `Reason must be at most ${VOID_REASON_MAX} characters` })
    .refine(...multiLine('Reason')),
});
export type VoidInvoiceInput = z.infer<typeof voidInvoiceSchema>;

export const issueInvoicesSchema = z.object({
  period: z.string({ error: PERIOD_INVALID }).trim().regex(PERIOD_PATTERN, { error: PERIOD_INVALID }),
});
export type IssueInvoicesInput = z.infer<typeof issueInvoicesSchema>;

export const issueInvoicesResultSchema = z.object({
  period: z.string(),
  /** Invoices written by this run. */
  issued: z.number(),
  /** Organizations that already had this month's invoice (an earlier run, or another node). */
  alreadyIssued: z.number(),
  /** Organizations on a paid plan that were not invoiced, with the reason. */
  skipped: z.array(z.object({ orgId: z.string(), orgName: z.string(), reason: z.string() })),
});
export type IssueInvoicesResult = z.infer<typeof issueInvoicesResultSchema>;

// --- Schemas: revenue --------------------------------------------------------------------------

export const revenueSchema = z.object({
  /** The last REVENUE_MONTHS calendar months (UTC), oldest first, each with the paid invoices paid in it. */
  months: z.array(z.object({ month: z.string(), label: z.string(), revenueUsd: z.number(), invoicesPaid: z.number() })),
  totalUsd: z.number(),
  /** Open invoices and what they are owed, now. */
  outstandingUsd: z.number(),
  openInvoices: z.number(),
});
export type Revenue = z.infer<typeof revenueSchema>;
