import {
  ALERTS_WINDOW_HOURS,
  ALREADY_SUSPENDED,
  NOT_SUSPENDED,
  ORGANIZATION_INVOICES_SHOWN,
  PLAN_UNAVAILABLE,
  SLUG_TAKEN,
  SLUG_UNDERIVABLE,
  SUPPORT_CANNOT_CREATE,
  SUPPORT_CANNOT_MANAGE,
  canManageOrganizations,
  organizationActions,
  slugify,
  type AuditEntry,
  type CreatedOrganization,
  type createOrganizationSchema,
  type OrganizationFormOptions,
  type OrganizationChange,
  type OrganizationDetail,
  type OrganizationList,
  type PlatformStats,
  type StatsPeriodDays,
} from '../../../domain/platform-admin';
import type { z } from 'zod';
import { startOfUtcMonth } from '../../../domain/usage';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import type { AuthContext } from '../../plugins/auth';
import { AppError, conflict, forbidden, notFound } from '../../plugins/errors';
import { writeAudit } from '../../audit/write-audit';
import { randomToken } from '../../auth/tokens';
import { getPlatformConfig } from '../../platform-config';
import { createInvitation } from '../team/team.service';
import * as repo from './platform-admin.repo';

// The platform's figures and its organizations (issue 12). Every function here runs for a platform
// administrator only: the routes check the role before calling.

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isoOrNull = (at: Date | null) => (at ? at.toISOString() : null);

/** Spec §7 "Platform statistics": the period's revenue window ends now; alerts cover the last 24 hours. */
export async function platformStats(ctx: AppContext, days: StatsPeriodDays): Promise<PlatformStats> {
  const { db } = ctx.database;
  const now = ctx.clock.now();
  const [activeOrganizations, activeMemberships, revenueUsd, alertCounts] = await Promise.all([
    repo.countActiveOrganizations(db),
    repo.countActiveMembershipsAnyOrg(db),
    repo.sumPaidRevenueAnyOrg(db, new Date(now.getTime() - days * DAY_MS), now),
    repo.countAlertsAnyOrg(db, new Date(now.getTime() - ALERTS_WINDOW_HOURS * HOUR_MS), now),
  ]);
  const alerts = alertCounts.openErrorGroups + alertCounts.emergencyStops + alertCounts.suspensions;
  return { days, activeOrganizations, activeMemberships, revenueUsd, alerts, alertCounts, generatedAt: now.toISOString() };
}

export async function listOrganizations(
  ctx: AppContext,
  query: { q?: string; status?: 'active' | 'suspended'; page: number; pageSize: number },
): Promise<OrganizationList> {
  const { rows, total } = await repo.listOrganizations(ctx.database.db, query);
  return {
    total,
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      slug: r.slug,
      status: r.status,
      active: r.active,
      createdAt: r.createdAt.toISOString(),
      plan: r.planId && r.planName ? { id: r.planId, name: r.planName } : null,
      activeSites: r.activeSites,
      activeBays: r.activeBays,
      activeMembers: r.activeMembers,
    })),
  };
}

type AuditRow = Awaited<ReturnType<typeof repo.listRecentAuditAnyOrg>>[number];
const toAuditEntry = (r: AuditRow): AuditEntry => ({
  id: r.id,
  action: r.action,
  resourceType: r.resourceType,
  resourceId: r.resourceId,
  actorEmail: r.actorEmail,
  actorRole: r.actorRole,
  impersonatorEmail: r.impersonatorEmail,
  orgId: r.orgId,
  orgName: r.orgName,
  siteId: r.siteId,
  details: r.details ?? {},
  createdAt: r.createdAt.toISOString(),
});

/** The latest audit entries across the platform, newest first, with their organization's name. */
export async function recentActivity(ctx: AppContext, limit: number) {
  return { items: (await repo.listRecentAuditAnyOrg(ctx.database.db, limit)).map(toAuditEntry) };
}

async function existingOrganization(ctx: AppContext, orgId: string) {
  if (!UUID.test(orgId)) throw notFound('Organization');
  const org = await repo.findOrganization(ctx.database.db, orgId);
  if (!org) throw notFound('Organization');
  return org;
}

/** One organization's audit trail, newest first, a page at a time. */
export async function organizationAudit(ctx: AppContext, orgId: string, query: { page: number; pageSize: number }) {
  await existingOrganization(ctx, orgId);
  const { rows, total } = await repo.listOrganizationAudit(ctx.database.db, orgId, query.page, query.pageSize);
  return { total, items: rows.map(toAuditEntry) };
}

/** Everything the organization page shows: members, sites and bays, plan and invoices, usage; and what the caller may do. */
export async function getOrganization(ctx: AppContext, auth: AuthContext, orgId: string): Promise<OrganizationDetail> {
  const org = await existingOrganization(ctx, orgId);
  const { db } = ctx.database;
  const now = ctx.clock.now();
  const [plan, members, siteRows, bayRows, invoiceRows, bookingsThisMonth, suspension] = await Promise.all([
    repo.findPlan(db, orgId),
    repo.listMembers(db, orgId),
    repo.listSites(db, orgId),
    repo.listBays(db, orgId),
    repo.listInvoices(db, orgId, ORGANIZATION_INVOICES_SHOWN),
    repo.countBookingsCreated(db, orgId, startOfUtcMonth(now), now),
    org.status === 'suspended' ? repo.findLatestSuspension(db, orgId) : Promise.resolve(undefined),
  ]);
  const activeSiteIds = new Set(siteRows.filter((s) => s.active).map((s) => s.id));
  return {
    id: org.id,
    name: org.name,
    slug: org.slug,
    status: org.status,
    active: org.active,
    contactEmail: org.contactEmail,
    contactPhone: org.contactPhone,
    address: org.address,
    createdAt: org.createdAt.toISOString(),
    updatedAt: org.updatedAt.toISOString(),
    suspension:
      org.status === 'suspended'
        ? {
            at: (suspension?.at ?? org.updatedAt).toISOString(),
            byEmail: suspension?.byEmail ?? null,
            reason: typeof suspension?.details?.reason === 'string' ? suspension.details.reason : 'No reason recorded',
          }
        : null,
    plan: plan
      ? {
          id: plan.plan.id,
          name: plan.plan.name,
          priceCents: plan.plan.priceCents,
          currency: plan.plan.currency,
          interval: plan.plan.interval,
          maxSites: plan.plan.maxSites,
          maxBays: plan.plan.maxBays,
          maxUsers: plan.plan.maxUsers,
          maxBookingsPerMonth: plan.plan.maxBookingsPerMonth,
          billingStatus: plan.billingStatus,
          currentPeriodEnd: isoOrNull(plan.currentPeriodEnd),
        }
      : null,
    usage: {
      activeSites: activeSiteIds.size,
      activeBays: bayRows.filter((b) => b.active && activeSiteIds.has(b.siteId)).length,
      activeMembers: members.filter((m) => m.active).length,
      bookingsThisMonth,
    },
    members: members.map((m) => ({
      ...m,
      lastSignInAt: isoOrNull(m.lastSignInAt),
      createdAt: m.createdAt.toISOString(),
    })),
    sites: siteRows.map((s) => ({
      ...s,
      bays: bayRows
        .filter((b) => b.siteId === s.id)
        .map((b) => ({ id: b.id, name: b.name, heightClearanceM: b.heightClearanceM, capacity: b.capacity, features: b.features, active: b.active })),
    })),
    invoices: invoiceRows.map((i) => ({
      ...i,
      amountDue: Number(i.amountDue),
      amountPaid: Number(i.amountPaid),
      issuedAt: i.issuedAt.toISOString(),
      paidAt: isoOrNull(i.paidAt),
    })),
    actions: organizationActions(auth.user.platformRole, org.status),
  };
}

function requireManager(auth: AuthContext) {
  if (!canManageOrganizations(auth.user.platformRole)) throw forbidden(SUPPORT_CANNOT_MANAGE);
}

/**
 * Suspends an organization (a reason is required): its members can no longer sign in to it, its
 * portal refuses bookings, and its members' live sessions end now. Audited with the reason.
 */
export async function suspendOrganization(
  ctx: AppContext,
  auth: AuthContext,
  orgId: string,
  reason: string,
  ip: string | null,
): Promise<OrganizationChange> {
  requireManager(auth);
  await existingOrganization(ctx, orgId);
  const now = ctx.clock.now();
  const sessionsEnded = await ctx.database.db.transaction(async (tx) => {
    const org = await repo.findOrganization(tx, orgId, true);
    if (!org) throw notFound('Organization');
    if (org.status === 'suspended') throw conflict('already_suspended', ALREADY_SUSPENDED);
    await repo.setStatus(tx, orgId, 'suspended', now);
    const ended = await repo.revokeMemberSessions(tx, orgId, now);
    await writeAudit(tx, {
      actor: { id: auth.user.id, email: auth.user.email, role: auth.user.platformRole },
      action: 'organization.suspended',
      resourceType: 'organization',
      resourceId: orgId,
      orgId,
      details: { name: org.name, reason, previousStatus: org.status, sessionsEnded: ended },
      ip,
    });
    return ended;
  });
  return { organization: await getOrganization(ctx, auth, orgId), sessionsEnded };
}

/** Lifts a suspension: the organization is active again (sign-in and the portal work); audited. */
export async function reactivateOrganization(ctx: AppContext, auth: AuthContext, orgId: string, ip: string | null): Promise<OrganizationChange> {
  requireManager(auth);
  await existingOrganization(ctx, orgId);
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    const org = await repo.findOrganization(tx, orgId, true);
    if (!org) throw notFound('Organization');
    if (org.status !== 'suspended') throw conflict('not_suspended', NOT_SUSPENDED);
    await repo.setStatus(tx, orgId, 'active', now);
    await writeAudit(tx, {
      actor: { id: auth.user.id, email: auth.user.email, role: auth.user.platformRole },
      action: 'organization.reactivated',
      resourceType: 'organization',
      resourceId: orgId,
      orgId,
      details: { name: org.name, previousStatus: org.status },
      ip,
    });
  });
  return { organization: await getOrganization(ctx, auth, orgId), sessionsEnded: 0 };
}

// --- Creating an organization -------------------------------------------------------------------

/** The create form's choices: the active plans and the platform's default plan (if it is still offered). */
export async function organizationFormOptions(ctx: AppContext): Promise<OrganizationFormOptions> {
  const { db } = ctx.database;
  const [plans, config] = await Promise.all([repo.listOfferedPlans(db), getPlatformConfig(db)]);
  const defaultPlanId = config.defaultPlanId && plans.some((p) => p.id === config.defaultPlanId) ? config.defaultPlanId : null;
  return { plans, defaultPlanId };
}

/** 400 or 409 with the message under one field of the form ({ details: [{ path, message }] }). */
const fieldRefusal = (status: number, code: string, path: string, message: string) => new AppError(status, code, message, [{ path, message }]);

function pgField(error: unknown, field: 'code' | 'constraint'): string | undefined {
  const e = error as Record<string, unknown> & { cause?: Record<string, unknown> };
  const value = e?.[field] ?? e?.cause?.[field];
  return typeof value === 'string' ? value : undefined;
}

export type CreateOrganizationOptions = {
  /** Runs in the same transaction once the organization exists (converting a quote request marks it). */
  alsoInTransaction?: (tx: Tx, created: { orgId: string; name: string }) => Promise<void>;
  /** Written into the organization.created entry. */
  auditDetails?: Record<string, unknown>;
};

/**
 * Creates an organization (super admins and platform owners) in one transaction: the organization
 * (active), its billing row with the chosen plan (absent: the platform's default plan; null: none),
 * the first admin's invitation with its e-mail queued, and the audit entry organization.created.
 * The slug is made from the name when left blank; a slug in use answers 409 under the field.
 */
export async function createOrganization(
  ctx: AppContext,
  auth: AuthContext,
  input: z.output<typeof createOrganizationSchema>,
  ip: string | null,
  options: CreateOrganizationOptions = {},
): Promise<CreatedOrganization> {
  if (!canManageOrganizations(auth.user.platformRole)) throw forbidden(SUPPORT_CANNOT_CREATE);
  const { db } = ctx.database;
  const slug = input.slug ?? slugify(input.name);
  if (!slug) throw fieldRefusal(400, 'validation_error', 'slug', SLUG_UNDERIVABLE);
  let planId: string | null;
  if (input.planId === undefined) {
    planId = (await organizationFormOptions(ctx)).defaultPlanId;
  } else if (input.planId === null) {
    planId = null;
  } else {
    if (!(await repo.findOfferedPlan(db, input.planId))) throw fieldRefusal(404, 'not_found', 'planId', PLAN_UNAVAILABLE);
    planId = input.planId;
  }
  const now = ctx.clock.now();
  const token = randomToken();
  let created: { orgId: string; invitation: CreatedOrganization['invitation'] };
  try {
    created = await db.transaction(async (tx) => {
      if (await repo.isSlugTaken(tx, slug)) throw fieldRefusal(409, 'slug_taken', 'slug', SLUG_TAKEN);
      const org = await repo.insertOrganization(tx, {
        name: input.name,
        slug,
        status: 'active',
        contactEmail: input.contactEmail ?? null,
        contactPhone: input.contactPhone ?? null,
        createdAt: now,
        updatedAt: now,
      });
      await repo.insertBilling(tx, { orgId: org.id, planId, status: 'active', updatedAt: now });
      // The team's invitation, as an org admin's invite makes it (same row, same e-mail, same link).
      const invitation = await createInvitation(
        tx,
        now,
        { orgId: org.id, email: input.adminEmail, fullName: input.adminName, role: 'org_admin', employeeId: null, invitedBy: auth.user.id },
        token,
      );
      await writeAudit(tx, {
        actor: { id: auth.user.id, email: auth.user.email, role: auth.user.platformRole },
        action: 'organization.created',
        resourceType: 'organization',
        resourceId: org.id,
        orgId: org.id,
        details: {
          name: org.name,
          slug,
          plan_id: planId,
          plan_chosen: input.planId === undefined ? 'default' : 'explicit',
          admin_email: input.adminEmail,
          invitation_id: invitation.id,
          ...options.auditDetails,
        },
        ip,
      });
      await options.alsoInTransaction?.(tx, { orgId: org.id, name: org.name });
      return {
        orgId: org.id,
        invitation: { id: invitation.id, email: invitation.email, fullName: invitation.fullName, expiresAt: invitation.expiresAt.toISOString() },
      };
    });
  } catch (error) {
    // Two creations raced past the check: the unique index answers for the slug.
    if (!(error instanceof AppError) && pgField(error, 'code') === '23505' && pgField(error, 'constraint') === 'organizations_slug_unique') {
      throw fieldRefusal(409, 'slug_taken', 'slug', SLUG_TAKEN);
    }
    throw error;
  }
  ctx.mailWorker?.kick();
  return { organization: await getOrganization(ctx, auth, created.orgId), invitation: created.invitation };
}
