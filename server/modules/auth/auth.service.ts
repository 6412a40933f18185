import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  dockmasterLoginSchema,
  passwordGrantSchema,
  Session,
  signUpSchema,
  updateUserSchema,
  verifySchema,
} from '../../../domain/auth-schemas';
import { isPlatformRole, ORG_ROLES } from '../../../domain/enums';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { AppError, badRequest, RetryLaterError, unauthorized } from '../../plugins/errors';
import type { AuthContext } from '../../plugins/auth';
import { writeAudit } from '../audit/audit.service';
import * as repo from './auth.repo';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
import {
  FAILURE_WINDOW_MIN,
  FREE_ACCOUNT_FAILURES,
  FREE_IP_FAILURES,
  isRecognisedDevice,
  MAX_ACCOUNT_DELAY_S,
  MAX_IP_DELAY_S,
  waitSeconds,
} from './sign-in-throttle';
import { hashToken, randomToken, signAccessToken } from './tokens';

/** A refresh token presented twice within this grace (two tabs racing) is refused without revoking. */
const REFRESH_REUSE_GRACE_MS = 10_000;
const SIGNUP_TOKEN_TTL_MS = 24 * 3600_000;
const RECOVERY_TOKEN_TTL_MS = 3600_000;

export const INVALID_CREDENTIALS = 'Invalid login credentials';

type RequestMeta = {
  ip: string | null;
  userAgent: string | null;
  /** The recognised-device marks the browser sent (sign-in-throttle.ts). */
  deviceMarks?: string[];
};
type UserRow = typeof users.$inferSelect;

// 401: the authentication service's 'invalid credentials' kind (spec §8).
const invalidCredentials = () => new AppError(401, 'invalid_credentials', INVALID_CREDENTIALS);

function toSessionUser(user: UserRow) {
  return {
    id: user.id,
    email: user.email,
    fullName: user.fullName,
    platformRole: isPlatformRole(user.platformRole) ? user.platformRole : null,
  };
}

/**
 * Counts this attempt before the password is checked, refusing it when it comes too soon after
 * earlier failures: per account (unless this browser is recognised for it) and per address, each
 * with a doubling delay (decision 005). The count and the provisional failure row are written
 * under a lock on the account key, so a burst of parallel guesses is counted one by one instead
 * of all passing the check at once. Answers the row's id: the caller deletes it when the password
 * was right.
 */
async function claimAttempt(ctx: AppContext, key: string, meta: RequestMeta, isRecognised: boolean): Promise<number> {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - FAILURE_WINDOW_MIN * 60_000);
  const isAddressExempt = ctx.config.rateLimitDisabled || (!!meta.ip && ctx.config.rateLimitAllowList.includes(meta.ip));
  return ctx.database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sign-in:${key}`}, 0))`);
    const failures = await repo.recentFailures(tx, key, meta.ip, since);
    const waitS = Math.max(
      isRecognised ? 0 : waitSeconds(failures.account, FREE_ACCOUNT_FAILURES, MAX_ACCOUNT_DELAY_S, now),
      isAddressExempt ? 0 : waitSeconds(failures.ip, FREE_IP_FAILURES, MAX_IP_DELAY_S, now),
    );
    if (waitS > 0) {
      throw new RetryLaterError(
        429,
        'too_many_attempts',
        `Too many failed sign-in attempts. Please wait ${waitS < 60 ? `${waitS} seconds` : `${Math.ceil(waitS / 60)} minutes`} and try again.`,
        waitS,
      );
    }
    return repo.recordFailure(tx, key, meta.ip, now);
  });
}

async function issueSession(
  ctx: AppContext,
  user: UserRow,
  scope: { orgId?: string | null; siteId?: string | null },
  meta: RequestMeta,
): Promise<Session> {
  const now = ctx.clock.now();
  const refreshToken = randomToken();
  const session = await ctx.database.db.transaction(async (tx) => {
    const created = await repo.insertSession(tx, {
      userId: user.id,
      orgId: scope.orgId ?? null,
      siteId: scope.siteId ?? null,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 500) ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ctx.config.refreshTokenTtlDays * 86_400_000),
    });
    await repo.insertRefreshToken(tx, created.id, hashToken(refreshToken), now);
    await tx.update(users).set({ lastSignInAt: now }).where(eq(users.id, user.id));
    await writeAudit(tx, {
      actor: { id: user.id, email: user.email },
      action: 'auth.signed_in',
      resourceType: 'session',
      resourceId: created.id,
      orgId: scope.orgId ?? null,
      siteId: scope.siteId ?? null,
      ip: meta.ip,
    });
    return created;
  });
  const access = await signAccessToken(ctx, { userId: user.id, sessionId: session.id, email: user.email });
  return {
    access_token: access.token,
    refresh_token: refreshToken,
    token_type: 'bearer',
    expires_in: access.expiresIn,
    expires_at: access.expiresAt,
    user: toSessionUser(user),
  };
}

/** Checks e-mail and password; every way of failing looks the same to the caller. */
async function checkPassword(ctx: AppContext, email: string, password: string, meta: RequestMeta): Promise<UserRow> {
  const key = email.toLowerCase();
  const user = await repo.findUserByEmail(ctx.database.db, key);
  await claimAttempt(ctx, key, meta, !!user && isRecognisedDevice(ctx.authSecret, meta.deviceMarks ?? [], user.id));
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !ok || !user.active) throw invalidCredentials(); // the attempt stays counted
  await repo.clearFailures(ctx.database.db, key);
  if (!user.emailConfirmedAt) {
    throw new AppError(400, 'email_not_confirmed', 'Email not confirmed. Check your inbox for the confirmation link.');
  }
  return user;
}

/** Organization sign-in: the organization must be active and the user an active member of it. */
async function assertOrgMember(ctx: AppContext, user: UserRow, orgId: string) {
  const memberships = await repo.listMemberships(ctx.database.db, user.id);
  const membership = memberships.find((m) => m.orgId === orgId);
  if (!membership || !membership.active) {
    throw new AppError(403, 'no_membership', 'You do not have access to this organization');
  }
  if (!membership.orgActive || membership.orgStatus !== 'active') {
    throw new AppError(403, 'org_suspended', 'This organization is suspended. Contact your platform administrator.');
  }
}

export async function signInWithPassword(
  ctx: AppContext,
  input: z.infer<typeof passwordGrantSchema>,
  meta: RequestMeta,
): Promise<Session> {
  const user = await checkPassword(ctx, input.email, input.password, meta);
  if (input.orgId) await assertOrgMember(ctx, user, input.orgId);
  return issueSession(ctx, user, { orgId: input.orgId ?? null }, meta);
}

export const INVALID_EMPLOYEE = 'Invalid employee ID or password';

/** Dockmaster sign-in: employee ID and password of an active dockmaster at the chosen site's organization. */
export async function signInDockmaster(
  ctx: AppContext,
  input: z.infer<typeof dockmasterLoginSchema>,
  meta: RequestMeta,
): Promise<Session> {
  const site = await repo.findSiteWithOrg(ctx.database.db, input.siteId);
  if (!site || !site.siteActive || !site.orgActive || site.orgStatus !== 'active') {
    throw new AppError(400, 'invalid_site', 'This site is not available. Choose another site.');
  }
  const key = `employee:${site.orgId}:${input.employeeId.toLowerCase()}`;
  const found = await repo.findMemberByEmployeeId(ctx.database.db, site.orgId, input.employeeId);
  await claimAttempt(ctx, key, meta, !!found && isRecognisedDevice(ctx.authSecret, meta.deviceMarks ?? [], found.user.id));
  const ok = await verifyPassword(found?.user.passwordHash ?? (await dummyPasswordHash()), input.password);
  const allowed =
    found &&
    ok &&
    found.user.active &&
    found.membership.active &&
    // Security staff work the gate (the queue and the plate scanner) and sign in here too.
    (found.membership.role === 'dockmaster' || found.membership.role === 'org_admin' || found.membership.role === 'security');
  if (!allowed) throw new AppError(401, 'invalid_credentials', INVALID_EMPLOYEE); // the attempt stays counted
  await repo.clearFailures(ctx.database.db, key);
  return issueSession(ctx, found.user, { orgId: site.orgId, siteId: site.siteId }, meta);
}

/** Rotates the refresh token: the presented one is spent, a new one issued with a new access token. */
export async function refreshSession(ctx: AppContext, refreshToken: string): Promise<Session> {
  const now = ctx.clock.now();
  const found = await repo.findRefreshToken(ctx.database.db, hashToken(refreshToken));
  const invalid = (message: string) => new AppError(400, 'invalid_grant', message);
  if (!found) throw invalid('Invalid Refresh Token: Refresh Token Not Found');
  const { token, session } = found;
  if (session.revokedAt) throw invalid('Invalid Refresh Token: Session Revoked');
  if (session.expiresAt <= now) throw invalid('Invalid Refresh Token: Session Expired');
  if (token.usedAt) {
    if (now.getTime() - token.usedAt.getTime() > REFRESH_REUSE_GRACE_MS) {
      // A spent token came back: it may have been stolen. End the whole session.
      await repo.revokeSession(ctx.database.db, session.id, now, 'refresh_token_reuse');
    }
    throw invalid('Invalid Refresh Token: Already Used');
  }
  const user = await repo.findUserById(ctx.database.db, session.userId);
  if (!user || !user.active) throw invalid('Invalid Refresh Token: User Not Found');
  const next = randomToken();
  await ctx.database.db.transaction(async (tx) => {
    if (!(await repo.spendRefreshToken(tx, token.id, now))) throw invalid('Invalid Refresh Token: Already Used');
    await repo.insertRefreshToken(tx, session.id, hashToken(next), now);
  });
  const access = await signAccessToken(ctx, { userId: user.id, sessionId: session.id, email: user.email });
  return {
    access_token: access.token,
    refresh_token: next,
    token_type: 'bearer',
    expires_in: access.expiresIn,
    expires_at: access.expiresAt,
    user: toSessionUser(user),
  };
}

export async function signOut(ctx: AppContext, auth: AuthContext, meta: RequestMeta): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    await repo.revokeSession(tx, auth.sessionId, ctx.clock.now(), 'sign_out');
    await writeAudit(tx, {
      actor: { id: auth.user.id, email: auth.user.email },
      action: 'auth.signed_out',
      resourceType: 'session',
      resourceId: auth.sessionId,
      orgId: auth.orgId,
      ip: meta.ip,
    });
  });
}

const ROLE_PRECEDENCE = ORG_ROLES; // org_admin, dockmaster, security

/**
 * get_current_user_role: the platform role if any; otherwise the role of the active membership in
 * the organization chosen at sign-in, or the highest role among active memberships in active
 * organizations; null when none.
 */
export async function currentUserRole(ctx: AppContext, auth: AuthContext): Promise<string | null> {
  if (auth.user.platformRole) return auth.user.platformRole;
  const memberships = (await repo.listMemberships(ctx.database.db, auth.user.id)).filter(
    (m) => m.active && m.orgActive && m.orgStatus === 'active',
  );
  const scoped = auth.orgId ? memberships.filter((m) => m.orgId === auth.orgId) : memberships;
  const roles = scoped.map((m) => m.role);
  return ROLE_PRECEDENCE.find((r) => roles.includes(r)) ?? null;
}

export async function getCurrentUser(ctx: AppContext, auth: AuthContext) {
  const user = await repo.findUserById(ctx.database.db, auth.user.id);
  if (!user) throw unauthorized();
  const memberships = await repo.listMemberships(ctx.database.db, auth.user.id);
  return {
    user: { ...toSessionUser(user), phone: user.phone, emailConfirmedAt: user.emailConfirmedAt?.toISOString() ?? null },
    role: await currentUserRole(ctx, auth),
    orgId: auth.orgId,
    siteId: auth.siteId,
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
  const user = await repo.findUserById(ctx.database.db, auth.user.id);
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

export async function signUp(ctx: AppContext, input: z.infer<typeof signUpSchema>) {
  const now = ctx.clock.now();
  const existing = await repo.findUserByEmail(ctx.database.db, input.email);
  if (existing) {
    // Same answer as a new sign-up, so the form cannot be used to discover accounts.
    await ctx.mailer.send({
      to: existing.email,
      subject: 'Your Baywise account',
      text: `Someone tried to create a Baywise account with this e-mail address, which already has one.\n\nIf it was you, sign in at ${ctx.config.publicUrl}/login or reset your password from the sign-in page.\nIf it was not you, you can ignore this message.`,
    });
    return { confirmationSent: true };
  }
  const token = randomToken();
  const passwordHash = await hashPassword(input.password);
  await ctx.database.db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ email: input.email.toLowerCase(), passwordHash, fullName: input.fullName || null, createdAt: now, updatedAt: now })
      .returning();
    await repo.insertAuthToken(tx, {
      userId: user!.id,
      kind: 'signup',
      tokenHash: hashToken(token),
      expiresAt: new Date(now.getTime() + SIGNUP_TOKEN_TTL_MS),
    });
    await writeAudit(tx, { actor: { id: user!.id, email: user!.email, role: 'unknown' }, action: 'auth.signed_up', resourceType: 'user', resourceId: user!.id });
  });
  await ctx.mailer.send({
    to: input.email,
    subject: 'Confirm your Baywise account',
    text: `Welcome to Baywise.\n\nConfirm your e-mail address to activate your account:\n${ctx.config.publicUrl}/auth/confirm?token=${token}\n\nThe link is valid for 24 hours.`,
  });
  return { confirmationSent: true };
}

export async function requestPasswordRecovery(ctx: AppContext, email: string) {
  const user = await repo.findUserByEmail(ctx.database.db, email);
  if (user && user.active) {
    const token = randomToken();
    const now = ctx.clock.now();
    await repo.insertAuthToken(ctx.database.db, {
      userId: user.id,
      kind: 'recovery',
      tokenHash: hashToken(token),
      expiresAt: new Date(now.getTime() + RECOVERY_TOKEN_TTL_MS),
    });
    await ctx.mailer.send({
      to: user.email,
      subject: 'Reset your Baywise password',
      text: `A password reset was requested for your Baywise account.\n\nChoose a new password here:\n${ctx.config.publicUrl}/reset-password?token=${token}\n\nThe link is valid for 1 hour. If you did not ask for this, ignore this message; your password stays as it is.`,
    });
  }
  return { message: 'If an account exists for that e-mail, a reset link is on its way.' };
}

export async function verifyToken(ctx: AppContext, input: z.infer<typeof verifySchema>) {
  const now = ctx.clock.now();
  return ctx.database.db.transaction(async (tx) => {
    const token = await repo.spendAuthToken(tx, input.type, hashToken(input.token), now);
    if (!token) throw new AppError(400, 'invalid_token', 'This link is invalid or has expired. Request a new one.');
    const user = await repo.findUserById(tx, token.userId);
    if (!user) throw new AppError(400, 'invalid_token', 'This link is invalid or has expired. Request a new one.');
    if (input.type === 'signup') {
      await tx.update(users).set({ emailConfirmedAt: now, updatedAt: now }).where(eq(users.id, user.id));
      await writeAudit(tx, { actor: { id: user.id, email: user.email }, action: 'auth.email_confirmed', resourceType: 'user', resourceId: user.id });
      return { email: user.email, message: 'Your e-mail address is confirmed. You can sign in now.' };
    }
    await tx
      .update(users)
      .set({ passwordHash: await hashPassword(input.password), emailConfirmedAt: user.emailConfirmedAt ?? now, updatedAt: now })
      .where(eq(users.id, user.id));
    await repo.revokeUserSessions(tx, user.id, now, 'password_reset');
    await repo.clearFailures(tx, user.email.toLowerCase());
    await writeAudit(tx, { actor: { id: user.id, email: user.email }, action: 'auth.password_reset', resourceType: 'user', resourceId: user.id });
    return { email: user.email, message: 'Your password has been changed. Sign in with the new password.' };
  });
}
