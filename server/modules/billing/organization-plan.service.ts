import { PLAN_LIMIT_KINDS, PLAN_RETIRED, canManageBilling, type OrganizationBilling } from '../../../domain/billing';
import { writeAudit } from '../../audit/write-audit';
import type { AppContext } from '../../context';
import type { AuthContext } from '../../plugins/auth';
import { conflict, notFound } from '../../plugins/errors';
import { actorOf, existingOrganization, requireId, requireManager } from './billing-access';
import * as repo from './billing.repo';

// An organization's plan: what it is on, its use against the plan's limits, and changing it.

export async function getOrganizationBilling(ctx: AppContext, auth: AuthContext, orgId: string): Promise<OrganizationBilling> {
  const org = await existingOrganization(ctx, orgId);
  const { db } = ctx.database;
  const now = ctx.clock.now();
  const [current, usage] = await Promise.all([repo.findBilling(db, orgId), repo.organizationUsage(db, orgId, now)]);
  const plan = current?.plan ?? null;
  const options = await repo.assignablePlans(db, plan?.id ?? null);
  const limits = plan ? { sites: plan.maxSites, bays: plan.maxBays, members: plan.maxUsers, bookings: plan.maxBookingsPerMonth } : null;
  return {
    orgId: org.id,
    orgName: org.name,
    plan: plan ? { id: plan.id, name: plan.name, priceUsd: plan.priceCents / 100, active: plan.active, limits: limits! } : null,
    billingStatus: current?.billing.status ?? null,
    usage: PLAN_LIMIT_KINDS.map((kind) => {
      const allowed = limits ? limits[kind] : null;
      return { kind, used: usage[kind], allowed, isOver: allowed !== null && usage[kind] > allowed };
    }),
    plans: options.map((p) => ({ id: p.id, name: p.name, priceUsd: p.priceCents / 100, active: p.active })),
    canManage: canManageBilling(auth.user.platformRole),
  };
}

/**
 * Puts the organization on `planId` (or on no plan: unlimited, not invoiced). A retired plan
 * cannot be chosen; a plan whose limits are below the organization's use can (the answer flags it).
 */
export async function assignPlan(ctx: AppContext, auth: AuthContext, orgId: string, planId: string | null, ip: string | null): Promise<OrganizationBilling> {
  requireManager(auth);
  const org = await existingOrganization(ctx, orgId);
  if (planId !== null) requireId(planId, 'Plan');
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    const current = await repo.findBilling(tx, orgId, true);
    const previous = current?.plan ?? null;
    if ((previous?.id ?? null) === planId) return;
    const next = planId ? await repo.findPlan(tx, planId) : null;
    if (planId && !next) throw notFound('Plan');
    if (next && !next.active) throw conflict('plan_retired', PLAN_RETIRED);
    await repo.setOrganizationPlan(tx, orgId, planId, now);
    const usage = next ? await repo.organizationUsage(tx, orgId, now) : null;
    const limits = next ? { sites: next.maxSites, bays: next.maxBays, members: next.maxUsers, bookings: next.maxBookingsPerMonth } : null;
    const overLimit = limits && usage ? PLAN_LIMIT_KINDS.filter((kind) => limits[kind] !== null && usage[kind] > limits[kind]!) : [];
    await writeAudit(tx, {
      actor: actorOf(auth),
      action: 'organization.plan_changed',
      resourceType: 'organization',
      resourceId: orgId,
      orgId,
      details: {
        name: org.name,
        from: previous ? { id: previous.id, name: previous.name } : null,
        to: next ? { id: next.id, name: next.name } : null,
        overLimit,
      },
      ip,
    });
  });
  return getOrganizationBilling(ctx, auth, orgId);
}
