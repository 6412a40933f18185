import {
  PLAN_CHANGE_OVER_LIMITS,
  PLAN_LIMIT_KINDS,
  PLAN_RETIRED,
  canManageBilling,
  planChangeOverLimitsMessage,
  planChangeViolations,
  type OrganizationBilling,
} from '../../../domain/billing';
import { writeAudit } from '../../audit/write-audit';
import type { AppContext } from '../../context';
import type { AuthContext } from '../../plugins/auth';
import { AppError, conflict, notFound } from '../../plugins/errors';
import { actorOf, existingOrganization, requireId, requireManager } from './billing-access';
import * as repo from './billing.repo';
import { queueBookingCapAlerts } from './plan-limits';

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
 * cannot be chosen. A plan the organization would be over (sites, bays or members above its
 * limits, this month's bookings at or above its cap) answers 409 plan_change_over_limits with the
 * list of what breaks, and changes nothing, unless `confirm` (issue 22 item 13); confirmed, the
 * answer flags the limits and the admins hear of a booking cap already at 80 % or 100 %.
 */
export async function assignPlan(
  ctx: AppContext,
  auth: AuthContext,
  orgId: string,
  planId: string | null,
  ip: string | null,
  options: { confirm?: boolean } = {},
): Promise<OrganizationBilling> {
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
    const usage = next ? await repo.organizationUsage(tx, orgId, now) : null;
    const limits = next ? { sites: next.maxSites, bays: next.maxBays, members: next.maxUsers, bookings: next.maxBookingsPerMonth } : null;
    const violations = next && limits && usage ? planChangeViolations(next.name, limits, usage) : [];
    if (violations.length > 0 && !options.confirm) {
      throw new AppError(409, PLAN_CHANGE_OVER_LIMITS, planChangeOverLimitsMessage(org.name, next!.name), { plan: next!.name, violations });
    }
    await repo.setOrganizationPlan(tx, orgId, planId, now);
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
        confirmedViolations: violations.map((v) => v.kind),
      },
      ip,
    });
    if (next && limits?.bookings != null && usage) {
      await queueBookingCapAlerts(tx, orgId, { planName: next.name, allowed: limits.bookings }, usage.bookings, now);
    }
  });
  return getOrganizationBilling(ctx, auth, orgId);
}
