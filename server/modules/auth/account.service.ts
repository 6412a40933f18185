import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { updateUserSchema } from '../../../domain/auth-schemas';
import { isPlatformRole, ORG_ROLES } from '../../../domain/enums';
import { writeAudit } from '../../audit/write-audit';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { findUserById, toSessionUser } from '../../auth/sessions';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { getPlatformConfig } from '../../platform-config';
import { badRequest, unauthorized } from '../../plugins/errors';
import type { AuthContext } from '../../plugins/auth';
import { isEnrolled } from '../mfa/mfa.service';
import * as repo from './auth.repo';

// The signed-in user's own account: the role the session acts with, the profile and memberships
// (and an impersonation's details), and changes to name, phone and password.

const ROLE_PRECEDENCE = ORG_ROLES; // org_admin, dockmaster, security

/**
 * get_current_user_role: the platform role if any; otherwise the role of the active membership in
 * the organization chosen at sign-in, or the highest role among active memberships in active
 * organizations; null when none.
 */
export async function currentUserRole(ctx: AppContext, auth: AuthContext): Promise<string | null> {
  if (auth.user.platformRole) return auth.user.platformRole;
  const memberships = (await repo.listMembershipsAnyOrg(ctx.database.db, auth.user.id)).filter(
    (m) => m.active && m.orgActive && m.orgStatus === 'active',
  );
  const scoped = auth.orgId ? memberships.filter((m) => m.orgId === auth.orgId) : memberships;
  const roles = scoped.map((m) => m.role);
  return ROLE_PRECEDENCE.find((r) => roles.includes(r)) ?? null;
}

/**
 * GET /auth/user: the user, role and memberships; during an impersonation, who is acting and until
 * when (and only the organization acted in); and the state of two-factor sign-in.
 */
export async function getCurrentUser(ctx: AppContext, auth: AuthContext) {
  const db = ctx.database.db;
  const user = await findUserById(db, auth.user.id);
  if (!user) throw unauthorized();
  const impersonation = auth.impersonator ? await repo.findImpersonationAnyOrg(db, auth.sessionId) : null;
  const memberships = (await repo.listMembershipsAnyOrg(db, auth.user.id)).filter((m) => !impersonation || m.orgId === impersonation.orgId);
  const isPlatformUser = isPlatformRole(user.platformRole);
  return {
    user: { ...toSessionUser(user), phone: user.phone, emailConfirmedAt: user.emailConfirmedAt?.toISOString() ?? null },
    role: await currentUserRole(ctx, auth),
    orgId: auth.orgId,
    siteId: auth.siteId,
    impersonation,
    mfa: {
      enrolled: await isEnrolled(db, user.id),
      required: isPlatformUser && (await getPlatformConfig(db)).mfaRequired,
      enrolmentRequired: auth.mfaEnrolmentRequired,
    },
    memberships: memberships.map((m) => ({
      orgId: m.orgId,
      orgName: m.orgName,
      role: m.role,
      active: m.active && m.orgActive,
      employeeId: m.employeeId,
    })),
  };
}

export async function updateCurrentUser(ctx: AppContext, auth: AuthContext, input: z.infer<typeof updateUserSchema>) {
  const user = await findUserById(ctx.database.db, auth.user.id);
  if (!user) throw unauthorized();
  const now = ctx.clock.now();
  const changes: Partial<typeof users.$inferInsert> = { updatedAt: now };
  if (input.fullName !== undefined) changes.fullName = input.fullName || null;
  if (input.phone !== undefined) changes.phone = input.phone || null;
  if (input.password) {
    if (!(await verifyPassword(user.passwordHash, input.currentPassword ?? ''))) {
      throw badRequest('Current password is incorrect');
    }
    changes.passwordHash = await hashPassword(input.password);
  }
  await ctx.database.db.transaction(async (tx) => {
    await tx.update(users).set(changes).where(eq(users.id, user.id));
    if (input.password) {
      // Every other device signs in again with the new password.
      await repo.revokeUserSessions(tx, user.id, now, 'password_changed', auth.sessionId);
      await writeAudit(tx, { actor: { id: user.id, email: user.email }, action: 'auth.password_changed', resourceType: 'user', resourceId: user.id });
    }
    if (input.fullName !== undefined || input.phone !== undefined) {
      await writeAudit(tx, { actor: { id: user.id, email: user.email }, action: 'auth.profile_updated', resourceType: 'user', resourceId: user.id, details: { fields: (['fullName', 'phone'] as const).filter((f) => input[f] !== undefined) } });
    }
  });
  return getCurrentUser(ctx, auth);
}
