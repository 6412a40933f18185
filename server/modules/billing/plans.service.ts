import type { z } from 'zod';
import { INVOICE_CURRENCY, PLAN_NAME_TAKEN, canManageBilling, type Plan, type PlanList, type planInputSchema, type planUpdateSchema } from '../../../domain/billing';
import { writeAudit } from '../../audit/write-audit';
import type { AppContext } from '../../context';
import type { plans } from '../../db/schema';
import type { AuthContext } from '../../plugins/auth';
import { badRequest, notFound } from '../../plugins/errors';
import { actorOf, requireId, requireManager } from './billing-access';
import * as repo from './billing.repo';

// The platform's plans: price and limits (sites, bays, members, bookings a month), with the
// organizations on each and those over a limit. Names are unique; a plan is retired, never deleted.

const nameTaken = () => badRequest(PLAN_NAME_TAKEN, [{ path: 'name', message: PLAN_NAME_TAKEN }]);

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

function toPlan(row: repo.PlanRow, organizations: number, overLimit: repo.OverLimitRow[]): Plan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    priceUsd: row.priceCents / 100,
    currency: row.currency,
    interval: row.interval,
    limits: { sites: row.maxSites, bays: row.maxBays, members: row.maxUsers, bookings: row.maxBookingsPerMonth },
    features: row.features ?? [],
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    organizations,
    overLimit: overLimit
      .filter((o) => o.planId === row.id)
      .map(({ orgId, orgName, kind, used, allowed }) => ({ orgId, orgName, kind, used, allowed })),
  };
}

export async function listPlans(ctx: AppContext, auth: AuthContext): Promise<PlanList> {
  const { db } = ctx.database;
  const [rows, overLimit] = await Promise.all([repo.listPlans(db), repo.overLimitOrganizations(db, ctx.clock.now())]);
  return { items: rows.map((r) => toPlan(r.plan, r.organizations, overLimit)), canManage: canManageBilling(auth.user.platformRole) };
}

async function planView(ctx: AppContext, planId: string): Promise<Plan> {
  const { db } = ctx.database;
  const [rows, overLimit] = await Promise.all([repo.listPlans(db), repo.overLimitOrganizations(db, ctx.clock.now(), planId)]);
  const row = rows.find((r) => r.plan.id === planId);
  if (!row) throw notFound('Plan');
  return toPlan(row.plan, row.organizations, overLimit);
}

type PlanColumns = Partial<typeof plans.$inferInsert>;

/** The plan columns of the fields sent. */
function planColumns(input: Partial<z.output<typeof planInputSchema>>): PlanColumns {
  const columns: PlanColumns = {};
  if (input.name !== undefined) columns.name = input.name;
  if (input.description !== undefined) columns.description = input.description;
  if (input.priceUsd !== undefined) columns.priceCents = Math.round(input.priceUsd * 100);
  if (input.maxSites !== undefined) columns.maxSites = input.maxSites;
  if (input.maxBays !== undefined) columns.maxBays = input.maxBays;
  if (input.maxMembers !== undefined) columns.maxUsers = input.maxMembers;
  if (input.maxBookingsPerMonth !== undefined) columns.maxBookingsPerMonth = input.maxBookingsPerMonth;
  if (input.features !== undefined) columns.features = input.features;
  if (input.active !== undefined) columns.active = input.active;
  return columns;
}

async function withNameCheck<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export async function createPlan(ctx: AppContext, auth: AuthContext, input: z.output<typeof planInputSchema>, ip: string | null): Promise<Plan> {
  requireManager(auth);
  const now = ctx.clock.now();
  const id = await withNameCheck(() =>
    ctx.database.db.transaction(async (tx) => {
      if (await repo.findPlanNamed(tx, input.name)) throw nameTaken();
      const row = await repo.insertPlan(tx, { ...planColumns(input), name: input.name, currency: INVOICE_CURRENCY, interval: 'month', createdAt: now });
      await writeAudit(tx, {
        actor: actorOf(auth),
        action: 'plan.created',
        resourceType: 'plan',
        resourceId: row.id,
        details: {
          name: row.name,
          priceUsd: row.priceCents / 100,
          limits: { sites: row.maxSites, bays: row.maxBays, members: row.maxUsers, bookings: row.maxBookingsPerMonth },
          active: row.active,
        },
        ip,
      });
      return row.id;
    }),
  );
  return planView(ctx, id);
}

/** Changes the fields sent; a limit below some organization's use is allowed (they are flagged in the answer). */
export async function updatePlan(
  ctx: AppContext,
  auth: AuthContext,
  planId: string,
  input: z.output<typeof planUpdateSchema>,
  ip: string | null,
): Promise<Plan> {
  requireManager(auth);
  requireId(planId, 'Plan');
  await withNameCheck(() =>
    ctx.database.db.transaction(async (tx) => {
      const current = await repo.findPlan(tx, planId, true);
      if (!current) throw notFound('Plan');
      if (input.name !== undefined && (await repo.findPlanNamed(tx, input.name, planId))) throw nameTaken();
      const next = planColumns(input);
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      for (const [key, value] of Object.entries(next) as [keyof PlanColumns, unknown][]) {
        const before = current[key as keyof repo.PlanRow];
        if (JSON.stringify(before ?? null) !== JSON.stringify(value ?? null)) changes[key] = { from: before ?? null, to: value ?? null };
      }
      if (Object.keys(changes).length === 0) return;
      await repo.updatePlan(tx, planId, next);
      await writeAudit(tx, {
        actor: actorOf(auth),
        action: 'plan.updated',
        resourceType: 'plan',
        resourceId: planId,
        details: { name: next.name ?? current.name, changes },
        ip,
      });
    }),
  );
  return planView(ctx, planId);
}
