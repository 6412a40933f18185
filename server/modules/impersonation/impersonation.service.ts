import {
  IMPERSONATION_MAX_MINUTES,
  IMPERSONATOR_ROLES,
  type ImpersonationEnd,
  type ImpersonationStart,
} from '../../../domain/auth-schemas';
import { isPlatformRole } from '../../../domain/enums';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import type { AuthContext } from '../../plugins/auth';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../plugins/errors';
import type { RequestMeta } from '../../auth/attempts';
import { findUserById, openSession, sessionAnswer } from '../../auth/sessions';
import { randomToken } from '../../auth/tokens';
import { writeImpersonationEnd, writeImpersonationStart } from './impersonation-audit';
import * as repo from './impersonation.repo';

// Impersonation (decision 017): a super admin or platform support acts as one member of one
// organization — never as a platform administrator — with a reason, for at most 30 minutes. The
// member's session carries the platform user (auth_sessions.impersonator_id); the auth plugin keeps
// it away from the platform routes and puts the platform user on every audit entry it writes.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const ONLY_IMPERSONATORS = 'Only super admins and platform support can act as a member.';
export const CANNOT_IMPERSONATE_SELF = 'You cannot act as yourself.';
export const CANNOT_IMPERSONATE_PLATFORM_ADMIN = 'Platform administrators cannot be impersonated.';

type Open = Awaited<ReturnType<typeof repo.listOpenStartedByAnyOrg>>[number];

/** Ends one impersonation of `impersonator` and records it: expired ones at their end, others now. */
async function closeImpersonation(tx: Tx, open: Open, impersonator: { id: string; email: string }, now: Date, outcome: 'ended' | 'replaced', ip: string | null) {
  const hasExpired = open.expiresAt <= now;
  const endedAt = hasExpired ? open.expiresAt : now;
  const finalOutcome = hasExpired ? 'expired' : outcome;
  if (!(await repo.endSession(tx, open.id, endedAt, `impersonation_${finalOutcome}`))) return null;
  await writeImpersonationEnd(
    tx,
    {
      sessionId: open.id,
      orgId: open.orgId!,
      impersonator,
      member: { id: open.memberId, email: open.memberEmail },
      outcome: finalOutcome,
      endedAt,
    },
    ip,
  );
  return { endedAt, outcome: finalOutcome };
}

/**
 * Starts acting as a member: refuses (changing nothing) anyone but super admins and platform
 * support, oneself, platform administrators, unknown or malformed ids (404), a deactivated user or
 * membership and an organization that is not active. Any impersonation the platform user still
 * has open ends first. Answers the member's session, capped at 30 minutes.
 */
export async function startImpersonation(
  ctx: AppContext,
  auth: AuthContext,
  input: { userId: string; orgId: string; reason: string },
  meta: RequestMeta,
): Promise<ImpersonationStart> {
  if (auth.impersonator) throw new AppError(403, 'impersonation_forbidden', 'End the current impersonation first.');
  const role = auth.user.platformRole;
  if (!role || !(IMPERSONATOR_ROLES as readonly string[]).includes(role)) throw forbidden(ONLY_IMPERSONATORS);
  if (input.userId === auth.user.id) throw badRequest(CANNOT_IMPERSONATE_SELF);
  if (!UUID.test(input.orgId)) throw notFound('Organization');
  if (!UUID.test(input.userId)) throw notFound('User');
  const db = ctx.database.db;
  const org = await repo.findOrganization(db, input.orgId);
  if (!org) throw notFound('Organization');
  const member = await repo.findMember(db, input.userId, input.orgId);
  if (!member) throw notFound('User');
  if (isPlatformRole(member.platformRole)) throw new AppError(403, 'cannot_impersonate_platform_admin', CANNOT_IMPERSONATE_PLATFORM_ADMIN);
  if (!member.membershipRole) throw new AppError(404, 'not_found', 'This user is not a member of the organization');
  if (!member.active) throw conflict('user_inactive', 'This user is deactivated and cannot be impersonated.');
  if (!member.membershipActive) throw conflict('membership_inactive', 'This membership is inactive and cannot be impersonated.');
  if (!org.active || org.status !== 'active') {
    throw conflict('org_not_active', 'This organization is suspended: its members cannot be impersonated.');
  }

  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + IMPERSONATION_MAX_MINUTES * 60_000);
  const refreshToken = randomToken();
  const impersonator = { id: auth.user.id, email: auth.user.email };
  const session = await db.transaction(async (tx) => {
    for (const open of await repo.listOpenStartedByAnyOrg(tx, auth.user.id)) {
      await closeImpersonation(tx, open, impersonator, now, 'replaced', meta.ip);
    }
    const created = await openSession(
      tx,
      {
        userId: member.id,
        orgId: org.id,
        siteId: null,
        ip: meta.ip,
        userAgent: meta.userAgent?.slice(0, 500) ?? null,
        createdAt: now,
        expiresAt,
        impersonatorId: auth.user.id,
        impersonationReason: input.reason,
      },
      refreshToken,
      now,
    );
    await writeImpersonationStart(
      tx,
      { sessionId: created.id, orgId: org.id, impersonator, member, reason: input.reason, role: member.membershipRole!, expiresAt },
      meta.ip,
    );
    return created;
  });
  const user = (await findUserById(db, member.id))!;
  return {
    ...(await sessionAnswer(ctx, user, session, refreshToken)),
    impersonation: {
      id: session.id,
      orgId: org.id,
      orgName: org.name,
      userId: member.id,
      email: member.email,
      role: member.membershipRole!,
      impersonatorId: auth.user.id,
      impersonatorEmail: auth.user.email,
      reason: input.reason,
      startedAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    },
  };
}

/** End, from the impersonation session itself (the banner's End). */
export async function endCurrentImpersonation(ctx: AppContext, auth: AuthContext, meta: RequestMeta): Promise<ImpersonationEnd> {
  if (!auth.impersonator || !auth.orgId) throw conflict('not_impersonating', 'You are not acting as another user.');
  const impersonator = auth.impersonator;
  const orgId = auth.orgId;
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    if (!(await repo.endSession(tx, auth.sessionId, now, 'impersonation_ended'))) {
      throw conflict('already_ended', 'This impersonation has already ended.');
    }
    await writeImpersonationEnd(
      tx,
      { sessionId: auth.sessionId, orgId, impersonator, member: { id: auth.user.id, email: auth.user.email }, outcome: 'ended', endedAt: now },
      meta.ip,
    );
  });
  return { id: auth.sessionId, orgId, userId: auth.user.id, endedAt: now.toISOString(), outcome: 'ended' };
}

/**
 * End, from the platform user's own session: after the 30 minutes (the member's session no longer
 * answers) this records the end as expired; before, it ends it now.
 */
export async function endImpersonationStartedBy(ctx: AppContext, auth: AuthContext, sessionId: string, meta: RequestMeta): Promise<ImpersonationEnd> {
  if (!UUID.test(sessionId)) throw notFound('Impersonation');
  const now = ctx.clock.now();
  return ctx.database.db.transaction(async (tx) => {
    const found = await repo.findStartedByAnyOrg(tx, sessionId, auth.user.id);
    if (!found || !found.orgId) throw notFound('Impersonation');
    if (found.revokedAt) throw conflict('already_ended', 'This impersonation has already ended.');
    const closed = await closeImpersonation(tx, found, { id: auth.user.id, email: auth.user.email }, now, 'ended', meta.ip);
    if (!closed) throw conflict('already_ended', 'This impersonation has already ended.');
    return {
      id: found.id,
      orgId: found.orgId,
      userId: found.memberId,
      endedAt: closed.endedAt.toISOString(),
      outcome: closed.outcome === 'expired' ? 'expired' : 'ended',
    };
  });
}
