import { z } from 'zod';

/**
 * Platform configuration (/superadmin/settings), kept as one row of platform_settings. Every field
 * has a default, so a fresh install and a partly written row both parse to a whole configuration.
 */
export const PLATFORM_CONFIG_KEY = 'platform.config';

export const DEFAULT_PLATFORM_NAME = 'Baywise';

export const platformConfigSchema = z.object({
  platformName: z.string().trim().min(1, 'Platform name is required').max(80).default(DEFAULT_PLATFORM_NAME),
  supportEmail: z.email('Enter a valid e-mail address').max(254).nullable().default(null),
  supportPhone: z.string().trim().max(40).nullable().default(null),
  /** The plan a new organization gets when none is chosen (null: no plan). */
  defaultPlanId: z.uuid().nullable().default(null),
  /** Whether anyone may create an account at /signup. */
  selfSignUpOpen: z.boolean().default(true),
  /** Shown at the top of every screen while set. */
  maintenanceBanner: z.string().trim().max(500).nullable().default(null),
  /** Platform roles must enrol in two-factor sign-in before they can use the platform screens. */
  mfaRequired: z.boolean().default(false),
});

export type PlatformConfig = z.infer<typeof platformConfigSchema>;

/** What every visitor may read (the maintenance banner, the name, the support contact). */
export type PublicPlatformConfig = Pick<PlatformConfig, 'platformName' | 'supportEmail' | 'supportPhone' | 'maintenanceBanner' | 'selfSignUpOpen'>;
