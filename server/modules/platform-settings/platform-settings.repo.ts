import { asc, eq, or } from 'drizzle-orm';
import { PLATFORM_CONFIG_KEY } from '../../../domain/platform-settings';
import type { Db, Tx } from '../../db/client';
import { plans, platformSettings, users } from '../../db/schema';

type Conn = Db | Tx;

/** The stored configuration row as it is (unparsed), with who last changed it. */
export async function findConfigRow(db: Conn) {
  const [row] = await db
    .select({ value: platformSettings.value, updatedAt: platformSettings.updatedAt, updatedBy: platformSettings.updatedBy, updatedByEmail: users.email })
    .from(platformSettings)
    .leftJoin(users, eq(users.id, platformSettings.updatedBy))
    .where(eq(platformSettings.key, PLATFORM_CONFIG_KEY));
  return row;
}

/** The configuration row locked for the rest of the transaction (created empty when there is none). */
export async function lockConfigRow(tx: Tx, now: Date): Promise<Record<string, unknown>> {
  await tx.insert(platformSettings).values({ key: PLATFORM_CONFIG_KEY, value: {}, updatedAt: now }).onConflictDoNothing();
  const [row] = await tx.select({ value: platformSettings.value }).from(platformSettings).where(eq(platformSettings.key, PLATFORM_CONFIG_KEY)).for('update');
  return (row?.value ?? {}) as Record<string, unknown>;
}

export async function saveConfigRow(tx: Tx, value: Record<string, unknown>, updatedBy: string, now: Date) {
  await tx.update(platformSettings).set({ value, updatedAt: now, updatedBy }).where(eq(platformSettings.key, PLATFORM_CONFIG_KEY));
}

/** The plans to choose the default from: every active plan, and `currentId` even when it is not. */
export function listPlanOptions(db: Conn, currentId: string | null) {
  return db
    .select({ id: plans.id, name: plans.name, priceCents: plans.priceCents, currency: plans.currency, interval: plans.interval, active: plans.active })
    .from(plans)
    .where(currentId ? or(eq(plans.active, true), eq(plans.id, currentId)) : eq(plans.active, true))
    .orderBy(asc(plans.priceCents), asc(plans.name));
}

export async function findPlan(db: Conn, planId: string) {
  const [row] = await db.select({ id: plans.id, name: plans.name, active: plans.active }).from(plans).where(eq(plans.id, planId));
  return row;
}
