import { eq } from 'drizzle-orm';
import { PLATFORM_CONFIG_KEY, platformConfigSchema, type PlatformConfig } from '../domain/platform-settings';
import type { Db, Tx } from './db/client';
import { platformSettings } from './db/schema';

/**
 * A stored configuration with its defaults. A stored value that no longer parses (a field
 * removed or renamed) falls back field by field rather than failing every request.
 */
export function parsePlatformConfig(stored: unknown): PlatformConfig {
  const value = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  const whole = platformConfigSchema.safeParse(value);
  if (whole.success) return whole.data;
  const defaults = platformConfigSchema.parse({});
  const merged: Record<string, unknown> = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof PlatformConfig)[]) {
    const one = platformConfigSchema.shape[key].safeParse(value[key]);
    if (one.success) merged[key] = one.data;
  }
  return merged as PlatformConfig;
}

/** The platform configuration with its defaults (read by sign-up, organization creation, two-factor…). */
export async function getPlatformConfig(db: Db | Tx): Promise<PlatformConfig> {
  const [row] = await db
    .select({ value: platformSettings.value })
    .from(platformSettings)
    .where(eq(platformSettings.key, PLATFORM_CONFIG_KEY));
  return parsePlatformConfig(row?.value);
}
