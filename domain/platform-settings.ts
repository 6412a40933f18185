import { z } from 'zod';
import { isPlatformRole, type PlatformRole } from './enums';
import { multiLine, singleLine } from './text-rules';

/**
 * Platform configuration (/superadmin/settings), kept as one row of platform_settings. Every field
 * has a default, so a fresh install and a partly written row both parse to a whole configuration.
 * The settings form and PUT /api/platform/settings validate with `platformConfigInputSchema` (the
 * same fields, every one required, with the messages people see).
 */
export const PLATFORM_CONFIG_KEY = 'platform.config';

export const DEFAULT_PLATFORM_NAME = 'Baywise';

export const PLATFORM_CONFIG_LIMITS = { platformName: 80, supportEmail: 254, supportPhone: 40, maintenanceBanner: 500, sellerName: 120, sellerAddress: 300, sellerTaxNumber: 40, paymentInstructions: 500 } as const;

/** A text field of several lines that may be left empty ('' and whitespace are stored as null). */
const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(...multiLine(label))
    .nullable()
    .transform((value) => (value ? value : null));

/** A text field that may be left empty: '' and whitespace are stored as null. */
const optionalLine = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(...singleLine(label))
    .nullable()
    .transform((value) => (value ? value : null));

const fields = {
  platformName: z
    .string({ error: 'Platform name is required' })
    .trim()
    .min(1, 'Platform name is required')
    .max(PLATFORM_CONFIG_LIMITS.platformName, `Platform name must be at most ${PLATFORM_CONFIG_LIMITS.platformName} characters`)
    .refine(...singleLine('Platform name')),
  supportEmail: optionalLine('Support e-mail', PLATFORM_CONFIG_LIMITS.supportEmail).refine(
    (value) => value === null || z.email().safeParse(value).success,
    { message: 'Enter a valid e-mail address' },
  ),
  supportPhone: optionalLine('Support phone', PLATFORM_CONFIG_LIMITS.supportPhone).refine(
    (value) => value === null || /^[0-9+()\-.\s]{3,}$/.test(value),
    { message: 'Enter a phone number (digits, spaces, + ( ) - .)' },
  ),
  /** The plan a new organization gets when none is chosen (null: no plan). */
  defaultPlanId: z.uuid({ error: 'Choose a plan from the list' }).nullable(),
  /** Whether anyone may create an account at /signup. */
  selfSignUpOpen: z.boolean({ error: 'Self sign-up must be on or off' }),
  /** Shown at the top of every screen while set. */
  maintenanceBanner: z
    .string({ error: 'Maintenance banner must be text' })
    .trim()
    .max(PLATFORM_CONFIG_LIMITS.maintenanceBanner, `Maintenance banner must be at most ${PLATFORM_CONFIG_LIMITS.maintenanceBanner} characters`)
    .refine(...multiLine('Maintenance banner'))
    .nullable()
    .transform((value) => (value ? value : null)),
  /** The seller on invoices (issue 22 item 15): legal name (empty: the platform name), address, tax number. */
  sellerName: optionalLine('Seller name', 120),
  sellerAddress: optionalText('Seller address', 300),
  sellerTaxNumber: optionalLine('Tax number', 40),
  /** How to pay an invoice (bank details, reference to quote), printed on every invoice PDF. */
  paymentInstructions: optionalText('Payment instructions', 500),
  /** Platform roles must enrol in two-factor sign-in before they can use the platform screens. */
  mfaRequired: z.boolean({ error: 'Two-factor requirement must be on or off' }),
  /** Webhook, SSC and TSR targets may be on loopback, private and link-local networks (off: SSRF guard; tests turn it on). */
  allowPrivateWebhookTargets: z.boolean({ error: 'Private webhook targets must be allowed or not' }),
};

/** The stored configuration: every field defaulted (a fresh install has no row). */
export const platformConfigSchema = z.object({
  platformName: fields.platformName.default(DEFAULT_PLATFORM_NAME),
  supportEmail: fields.supportEmail.default(null),
  supportPhone: fields.supportPhone.default(null),
  defaultPlanId: fields.defaultPlanId.default(null),
  selfSignUpOpen: fields.selfSignUpOpen.default(true),
  maintenanceBanner: fields.maintenanceBanner.default(null),
  mfaRequired: fields.mfaRequired.default(false),
  allowPrivateWebhookTargets: fields.allowPrivateWebhookTargets.default(false),
  sellerName: fields.sellerName.default(null),
  sellerAddress: fields.sellerAddress.default(null),
  sellerTaxNumber: fields.sellerTaxNumber.default(null),
  paymentInstructions: fields.paymentInstructions.default(null),
});

export type PlatformConfig = z.infer<typeof platformConfigSchema>;

/** PUT /api/platform/settings and the settings form: the whole configuration, every field named. */
// (allowPrivateWebhookTargets may be left out by the settings form, which has no switch for it yet: false.)
export const platformConfigInputSchema = z
  .object({
    ...fields,
    allowPrivateWebhookTargets: fields.allowPrivateWebhookTargets.default(false),
    // The invoice seller's fields came later: a client that does not send them clears them.
    sellerName: fields.sellerName.default(null),
    sellerAddress: fields.sellerAddress.default(null),
    sellerTaxNumber: fields.sellerTaxNumber.default(null),
    paymentInstructions: fields.paymentInstructions.default(null),
  })
  .strict();
export type PlatformConfigInput = z.input<typeof platformConfigInputSchema>;

/** What every visitor may read (the maintenance banner, the name, the support contact). */
export type PublicPlatformConfig = Pick<PlatformConfig, 'platformName' | 'supportEmail' | 'supportPhone' | 'maintenanceBanner' | 'selfSignUpOpen'>;

export const publicPlatformConfigSchema = z.object({
  platformName: z.string(),
  supportEmail: z.string().nullable(),
  supportPhone: z.string().nullable(),
  maintenanceBanner: z.string().nullable(),
  selfSignUpOpen: z.boolean(),
});

export function toPublicPlatformConfig(config: Pick<PlatformConfig, keyof PublicPlatformConfig>): PublicPlatformConfig {
  return {
    platformName: config.platformName,
    supportEmail: config.supportEmail,
    supportPhone: config.supportPhone,
    maintenanceBanner: config.maintenanceBanner,
    selfSignUpOpen: config.selfSignUpOpen,
  };
}

/** How long the public configuration may be cached (server memory and the browser's HTTP cache). */
export const PUBLIC_CONFIG_CACHE_SECONDS = 15;

// --- The settings screen --------------------------------------------------------------------------

export const planOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  priceCents: z.number().int(),
  currency: z.string(),
  interval: z.string(),
  active: z.boolean(),
});
export type PlanOption = z.infer<typeof planOptionSchema>;

export const platformConfigDtoSchema = z.object({
  platformName: z.string(),
  supportEmail: z.string().nullable(),
  supportPhone: z.string().nullable(),
  defaultPlanId: z.string().nullable(),
  selfSignUpOpen: z.boolean(),
  maintenanceBanner: z.string().nullable(),
  mfaRequired: z.boolean(),
  allowPrivateWebhookTargets: z.boolean(),
  sellerName: z.string().nullable(),
  sellerAddress: z.string().nullable(),
  sellerTaxNumber: z.string().nullable(),
  paymentInstructions: z.string().nullable(),
});

/** The seller as an invoice prints it: the legal name (the platform's name when none is set) and what is set of the rest. */
export type InvoiceSeller = { name: string; address: string | null; taxNumber: string | null; paymentInstructions: string | null };
export function invoiceSellerOf(config: Pick<PlatformConfig, 'platformName' | 'sellerName' | 'sellerAddress' | 'sellerTaxNumber' | 'paymentInstructions'>): InvoiceSeller {
  return { name: config.sellerName ?? config.platformName, address: config.sellerAddress, taxNumber: config.sellerTaxNumber, paymentInstructions: config.paymentInstructions };
}

/** GET/PUT /api/platform/settings: the configuration, the plans to choose from, and who may change it. */
export const platformSettingsViewSchema = z.object({
  config: platformConfigDtoSchema,
  /** Active plans by price, and the current default plan if it is no longer active. */
  plans: z.array(planOptionSchema),
  updatedAt: z.string().nullable(),
  updatedByEmail: z.string().nullable(),
  canEdit: z.boolean(),
});
export type PlatformSettingsView = z.infer<typeof platformSettingsViewSchema>;

/**
 * Who may change the platform configuration and triage errors: super admins and platform owners.
 * Platform support reads both (docs/decisions/019-error-monitoring.md, as 014 for organizations).
 */
export const PLATFORM_SETTINGS_EDITORS: readonly PlatformRole[] = ['super_admin', 'platform_owner'];
export function canEditPlatformSettings(role: string | null | undefined): boolean {
  return isPlatformRole(role) && PLATFORM_SETTINGS_EDITORS.includes(role);
}

export const PLAN_NOT_FOUND = 'That plan does not exist: choose a plan from the list';
export const PLAN_NOT_ACTIVE = 'That plan is no longer offered: choose an active plan';
export const SUPPORT_CANNOT_EDIT_SETTINGS = 'Platform support can view the platform settings but cannot change them';
export const SETTINGS_SAVED_TEXT = 'Settings saved';
