import { z } from 'zod';
import { languageSchema } from './language-schema';
import { DEFAULT_LANGUAGE } from './languages';
import { singleLine } from './text-rules';

// An organization's settings (organizations.settings, jsonb). Every field has a default, so a new
// organization, or one saved before a field existed, reads complete settings. The settings
// screen writes them with the same schema (server and web share the messages).

export const DEFAULT_CANCELLATION_CUTOFF_HOURS = 2;
export const DEFAULT_PLATE_MATCH_THRESHOLD = 0.8;
export const MAX_CUSTOM_RECIPIENTS = 20;

// Each field once, without its default: the stored settings add the defaults, a partial update
// (PATCH /settings) must not — a missing field there means "leave it as it is".
const autoApproveField = z.boolean({ error: 'Choose on or off' });
const cancellationCutoffField = z
  .number({ error: 'Enter a number of hours' })
  .int('Enter whole hours')
  .min(0, 'Cannot be negative')
  .max(168, 'At most 168 hours (a week)');
const recipientsField = z.enum(['org_admins', 'custom'], { error: 'Choose all organization admins or these addresses' });
const recipientEmailsField = z
  .array(
    z.email({ error: (issue) => `Enter a valid e-mail address${typeof issue.input === 'string' && issue.input ? ` (${issue.input.slice(0, 60)})` : ''}` }).max(254, 'At most 254 characters'),
    { error: 'Enter a list of e-mail addresses' },
  )
  .max(MAX_CUSTOM_RECIPIENTS, `At most ${MAX_CUSTOM_RECIPIENTS} addresses`);
const matchThresholdField = z.number({ error: 'Enter a number between 0.5 and 1' }).min(0.5, 'At least 0.5').max(1, 'At most 1');
const autoCheckInField = z.boolean({ error: 'Choose on or off' });
const hauliersChooseSiteField = z.boolean({ error: 'Choose on or off' });

/** E-mail (and text) reminders before a booking's slot: up to three, hours before its start. */
export const DEFAULT_REMINDER_HOURS: readonly number[] = [24, 2];
export const MAX_REMINDERS = 3;
export const MAX_REMINDER_HOURS = 168;
const reminderHoursField = z
  .array(
    z
      .number({ error: 'Enter a number of hours' })
      .int('Enter whole hours')
      .min(1, 'At least 1 hour')
      .max(MAX_REMINDER_HOURS, `At most ${MAX_REMINDER_HOURS} hours (a week)`),
    { error: 'Enter a list of hours' },
  )
  .max(MAX_REMINDERS, `At most ${MAX_REMINDERS} reminders`)
  .refine((hours) => new Set(hours).size === hours.length, 'Each reminder needs a different number of hours')
  // Earliest reminder first.
  .transform((hours) => [...hours].sort((a, b) => b - a));

export const bookingPolicySchema = z.object({
  /** Portal requests skip pending (a tenant's own policy can also turn this on for them). */
  autoApprove: autoApproveField.default(false),
  /** Hauliers cannot cancel or change their booking through the manage link later than this before its start. */
  cancellationCutoffHours: cancellationCutoffField.default(DEFAULT_CANCELLATION_CUTOFF_HOURS),
  /**
   * Hauliers may choose the site in the portal (availability and booking at that site only); off
   * (the default, the spec's behaviour): the best-fit bay over all the organization's sites.
   */
  hauliersChooseSite: hauliersChooseSiteField.default(false),
});
export type BookingPolicy = z.infer<typeof bookingPolicySchema>;

export const notificationSettingsSchema = z.object({
  /** Who receives the new-request e-mail: every active org admin, or the listed addresses. */
  newRequestRecipients: recipientsField.default('org_admins'),
  newRequestEmails: recipientEmailsField.default([]),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const numberPlateSettingsSchema = z.object({
  /** A read matches a plate at or above this similarity (0.5–1). */
  matchThreshold: matchThresholdField.default(DEFAULT_PLATE_MATCH_THRESHOLD),
  /** A confident unique match checks the vehicle in automatically (audited). */
  autoCheckIn: autoCheckInField.default(false),
});
export type NumberPlateSettings = z.infer<typeof numberPlateSettingsSchema>;

export const reminderSettingsSchema = z.object({
  /** Hours before the start of an approved booking at which the haulier is reminded (none: no reminders). */
  hoursBefore: reminderHoursField.default(() => [...DEFAULT_REMINDER_HOURS]),
});
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;

export const portalSettingsSchema = z.object({
  /**
   * The language the public portal opens in and a booking takes when its request names none (an
   * admin's or a channel's booking too): the haulier's e-mails are in it.
   */
  defaultLanguage: languageSchema.default(DEFAULT_LANGUAGE),
});
export type PortalSettings = z.infer<typeof portalSettingsSchema>;

export const orgSettingsSchema = z.object({
  booking: bookingPolicySchema.default(() => bookingPolicySchema.parse({})),
  notifications: notificationSettingsSchema.default(() => notificationSettingsSchema.parse({})),
  numberPlates: numberPlateSettingsSchema.default(() => numberPlateSettingsSchema.parse({})),
  reminders: reminderSettingsSchema.default(() => reminderSettingsSchema.parse({})),
  portal: portalSettingsSchema.default(() => portalSettingsSchema.parse({})),
});
export type OrgSettings = z.infer<typeof orgSettingsSchema>;

/** The stored settings with every default filled in; anything unreadable falls back to the default. */
export function readOrgSettings(stored: unknown): OrgSettings {
  const parsed = orgSettingsSchema.safeParse(stored ?? {});
  if (parsed.success) return parsed.data;
  const raw = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  return {
    booking: bookingPolicySchema.safeParse(raw.booking ?? {}).data ?? bookingPolicySchema.parse({}),
    notifications: notificationSettingsSchema.safeParse(raw.notifications ?? {}).data ?? notificationSettingsSchema.parse({}),
    numberPlates: numberPlateSettingsSchema.safeParse(raw.numberPlates ?? {}).data ?? numberPlateSettingsSchema.parse({}),
    reminders: reminderSettingsSchema.safeParse(raw.reminders ?? {}).data ?? reminderSettingsSchema.parse({}),
    portal: readPortalSettings(raw.portal),
  };
}

/**
 * The portal section alone (stored settings -> 'portal'), read as readOrgSettings reads it: for a
 * caller that needs nothing else, such as a kiosk's every request (the whole settings not parsed).
 */
export function readPortalSettings(storedPortal: unknown): PortalSettings {
  return portalSettingsSchema.safeParse(storedPortal ?? {}).data ?? portalSettingsSchema.parse({});
}

// ---- Writing the settings ----------------------------------------------------------------------

export const CUSTOM_RECIPIENTS_REQUIRED = 'Add at least one e-mail address, or send to all organization admins';

/** 'custom' needs at least one address (checked on the settings as they will be after a change). */
export function checkRecipients(value: { newRequestRecipients: string; newRequestEmails: string[] }, ctx: z.RefinementCtx, path: PropertyKey[] = []) {
  if (value.newRequestRecipients === 'custom' && value.newRequestEmails.length === 0) {
    ctx.addIssue({ code: 'custom', path: [...path, 'newRequestEmails'], message: CUSTOM_RECIPIENTS_REQUIRED });
  }
}

/** The same address twice (any case) counts once; addresses are kept as typed, trimmed. */
export function uniqueEmails(emails: string[]): string[] {
  const seen = new Set<string>();
  return emails.filter((e) => {
    const key = e.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const trimmedEmails = z
  .array(z.unknown(), { error: 'Enter a list of e-mail addresses' })
  .transform((list) => list.map((e) => (typeof e === 'string' ? e.trim() : e)))
  .pipe(recipientEmailsField)
  .transform(uniqueEmails);

/** PATCH /settings: any part of any section; what is left out stays as it is. */
export const orgSettingsPatchSchema = z
  .object({
    booking: z.object({ autoApprove: autoApproveField, cancellationCutoffHours: cancellationCutoffField, hauliersChooseSite: hauliersChooseSiteField }).partial().strict(),
    notifications: z.object({ newRequestRecipients: recipientsField, newRequestEmails: trimmedEmails }).partial().strict(),
    numberPlates: z.object({ matchThreshold: matchThresholdField, autoCheckIn: autoCheckInField }).partial().strict(),
    reminders: z.object({ hoursBefore: reminderHoursField }).partial().strict(),
    portal: z.object({ defaultLanguage: languageSchema }).partial().strict(),
  })
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'Nothing to change' });
export type OrgSettingsPatch = z.infer<typeof orgSettingsPatchSchema>;

/** The policy tab's form: booking policy and notifications together, as they will be saved. */
export const policyFormSchema = z
  .object({
    booking: z.object({ autoApprove: autoApproveField, cancellationCutoffHours: cancellationCutoffField, hauliersChooseSite: hauliersChooseSiteField }),
    notifications: z.object({ newRequestRecipients: recipientsField, newRequestEmails: trimmedEmails }),
  })
  .superRefine((value, ctx) => checkRecipients(value.notifications, ctx, ['notifications']));
export type PolicyFormInput = z.input<typeof policyFormSchema>;

/** The reminders card's form. */
export const reminderFormSchema = z.object({ hoursBefore: reminderHoursField });

/** The portal language card's form. */
export const portalFormSchema = z.object({ defaultLanguage: languageSchema });

/** The number-plate page's form. */
export const numberPlateFormSchema = z.object({ matchThreshold: matchThresholdField, autoCheckIn: autoCheckInField });

// ---- The organization's profile ----------------------------------------------------------------

const PROFILE_LIMITS = { name: 120, contactEmail: 254, contactPhone: 50, address: 300 } as const;

const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(...singleLine(label))
    .nullish()
    .transform((value) => (value ? value : null));

/** PATCH /settings/profile and the profile form: the organization's name and how to reach it. */
export const orgProfileSchema = z.object({
  name: z
    .string({ error: 'Organization name is required' })
    .trim()
    .min(1, 'Organization name is required')
    .max(PROFILE_LIMITS.name, `Organization name must be at most ${PROFILE_LIMITS.name} characters`)
    .refine(...singleLine('Organization name')),
  contactEmail: optionalText('Contact email', PROFILE_LIMITS.contactEmail).refine((value) => value === null || z.email().safeParse(value).success, {
    message: 'Enter a valid e-mail address',
  }),
  contactPhone: optionalText('Contact phone', PROFILE_LIMITS.contactPhone).refine((value) => value === null || /^[0-9+()\-.\s]{3,}$/.test(value), {
    message: 'Enter a phone number (digits, spaces, + ( ) - .)',
  }),
  address: optionalText('Address', PROFILE_LIMITS.address),
});
export type OrgProfileInput = z.input<typeof orgProfileSchema>;
export const orgProfilePatchSchema = orgProfileSchema.partial().refine((patch) => Object.keys(patch).length > 0, { message: 'Nothing to change' });

export const orgProfileDtoSchema = z.object({
  name: z.string(),
  contactEmail: z.string().nullable(),
  contactPhone: z.string().nullable(),
  address: z.string().nullable(),
  hasLogo: z.boolean(),
  /** Changes whenever the logo does (a cache key for the image). */
  logoVersion: z.string().nullable(),
});
export type OrgProfileDto = z.infer<typeof orgProfileDtoSchema>;

export const orgSettingsViewSchema = z.object({ profile: orgProfileDtoSchema, settings: orgSettingsSchema });
export type OrgSettingsView = z.infer<typeof orgSettingsViewSchema>;

// ---- Logo --------------------------------------------------------------------------------------

export const MAX_LOGO_BYTES = 1024 * 1024;
/** What a logo may really be, by its content. */
export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const LOGO_TYPE_MESSAGE = 'The logo must be a PNG, JPEG or WebP image';
export const LOGO_SIZE_MESSAGE = 'The logo must be 1 MB or smaller';

// ---- Camera webhook tokens ---------------------------------------------------------------------

export const MAX_ACTIVE_CAMERA_TOKENS_PER_SITE = 20;

export const cameraTokenCreateSchema = z.object({
  siteId: z.string({ error: 'Choose a site' }).min(1, 'Choose a site').max(100, 'Choose a site'),
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(80, 'Name must be at most 80 characters')
    .refine(...singleLine('Name')),
});
export type CameraTokenCreateInput = z.input<typeof cameraTokenCreateSchema>;

export const cameraTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  siteId: z.string(),
  siteName: z.string(),
  /** The secret's last four characters. */
  hint: z.string(),
  createdAt: z.string(),
  createdByEmail: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type CameraToken = z.infer<typeof cameraTokenSchema>;

/** The answer to creating a token: the only time its secret is shown. */
export const createdCameraTokenSchema = cameraTokenSchema.extend({ secret: z.string() });
export type CreatedCameraToken = z.infer<typeof createdCameraTokenSchema>;
