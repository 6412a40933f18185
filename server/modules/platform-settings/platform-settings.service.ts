import {
  PLAN_NOT_ACTIVE,
  PLAN_NOT_FOUND,
  PUBLIC_CONFIG_CACHE_SECONDS,
  SUPPORT_CANNOT_EDIT_SETTINGS,
  canEditPlatformSettings,
  toPublicPlatformConfig,
  type PlatformConfig,
  type PlatformSettingsView,
  type PublicPlatformConfig,
} from '../../../domain/platform-settings';
import type { AppContext } from '../../context';
import type { AuthContext } from '../../plugins/auth';
import { AppError, forbidden } from '../../plugins/errors';
import { writeAudit } from '../../audit/write-audit';
import { getPlatformConfig, parsePlatformConfig } from '../../platform-config';
import * as repo from './platform-settings.repo';

// Platform configuration (issue 12, /superadmin/settings): read by every platform role, changed by
// super admins and platform owners, audited field by field. The public part (name, support contact,
// maintenance banner, whether sign-up is open) is served to everyone, cached briefly.

async function view(ctx: AppContext, auth: AuthContext): Promise<PlatformSettingsView> {
  const { db } = ctx.database;
  const row = await repo.findConfigRow(db);
  const config = parsePlatformConfig(row?.value);
  const plans = await repo.listPlanOptions(db, config.defaultPlanId);
  return {
    config,
    plans,
    // A row no one has saved yet (created empty by a save that changed nothing) has no author.
    updatedAt: row?.updatedBy ? row.updatedAt.toISOString() : null,
    updatedByEmail: row?.updatedByEmail ?? null,
    canEdit: canEditPlatformSettings(auth.user.platformRole),
  };
}

export const getSettings = view;

const invalidPlan = (message: string) => new AppError(422, 'invalid_plan', message, [{ path: 'defaultPlanId', message }]);

/**
 * Replaces the configuration. A new default plan must be an existing, active plan (422 otherwise);
 * one already chosen stays valid even after its plan is retired. Nothing changed writes nothing;
 * a change writes one 'platform.settings_updated' entry with the changed fields before and after.
 */
export async function updateSettings(
  ctx: AppContext,
  auth: AuthContext,
  input: PlatformConfig,
  ip: string | null,
  onChange: () => void,
): Promise<PlatformSettingsView> {
  if (!canEditPlatformSettings(auth.user.platformRole)) throw forbidden(SUPPORT_CANNOT_EDIT_SETTINGS);
  const now = ctx.clock.now();
  const changed = await ctx.database.db.transaction(async (tx) => {
    const stored = await repo.lockConfigRow(tx, now);
    const before = parsePlatformConfig(stored);
    if (input.defaultPlanId && input.defaultPlanId !== before.defaultPlanId) {
      const plan = await repo.findPlan(tx, input.defaultPlanId);
      if (!plan) throw invalidPlan(PLAN_NOT_FOUND);
      if (!plan.active) throw invalidPlan(PLAN_NOT_ACTIVE);
    }
    const keys = (Object.keys(before) as (keyof PlatformConfig)[]).filter((key) => before[key] !== input[key]);
    if (keys.length === 0) return false;
    // Keys this version does not know about are kept as they are.
    await repo.saveConfigRow(tx, { ...stored, ...input }, auth.user.id, now);
    await writeAudit(tx, {
      actor: { id: auth.user.id, email: auth.user.email, role: auth.user.platformRole },
      action: 'platform.settings_updated',
      resourceType: 'platform_settings',
      resourceId: 'platform.config',
      details: {
        fields: keys,
        before: Object.fromEntries(keys.map((key) => [key, before[key]])),
        after: Object.fromEntries(keys.map((key) => [key, input[key]])),
      },
      ip,
    });
    return true;
  });
  if (changed) onChange();
  return view(ctx, auth);
}

/**
 * The public configuration, kept in memory for PUBLIC_CONFIG_CACHE_SECONDS (every screen asks for
 * it). A change on this server shows at once; other servers catch up within the same time.
 */
export function createPublicConfigCache(ctx: AppContext) {
  let cached: { value: PublicPlatformConfig; expiresAt: number } | null = null;
  return {
    async get(): Promise<PublicPlatformConfig> {
      const now = ctx.clock.now().getTime();
      if (cached && cached.expiresAt > now) return cached.value;
      const value = toPublicPlatformConfig(await getPlatformConfig(ctx.database.db));
      cached = { value, expiresAt: now + PUBLIC_CONFIG_CACHE_SECONDS * 1000 };
      return value;
    },
    invalidate() {
      cached = null;
    },
  };
}
