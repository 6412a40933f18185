import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import {
  MFA_CHALLENGE_INVALID,
  MFA_CHALLENGE_TTL_S,
  SIGN_UP_CLOSED,
  type dockmasterLoginSchema,
  type MfaChallenge,
  type mfaGrantSchema,
  type passwordGrantSchema,
  type Session,
  type signUpSchema,
  type updateUserSchema,
  type verifySchema,
} from '../../../domain/auth-schemas';
import { isPlatformRole, ORG_ROLES } from '../../../domain/enums';
import type { AppContext } from '../../context';
import { authTokens, users } from '../../db/schema';
import { AppError, badRequest, unauthorized } from '../../plugins/errors';
import type { AuthContext } from '../../plugins/auth';
import { writeAudit } from '../audit/audit.service';
import { writeImpersonationEnd } from '../impersonation/impersonation-audit';
import { isEnrolled, mfaSecretKey, verifySecondFactor } from '../mfa/mfa.service';
import { getPlatformConfig } from '../platform-settings/platform-config';
import { claimAttempt, mfaAttemptKey, type RequestMeta } from './attempts';
import * as repo from './auth.repo';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
import { isRecognisedDevice } from './sign-in-throttle';
import { hashToken, randomToken, signAccessToken, signMfaChallenge, verifyMfaChallenge } from './tokens';

/** A refresh token presented twice within this grace (two tabs racing) is refused without revoking. */
const REFRESH_REUSE_GRACE_MS = 10_000;
const SIGNUP_TOKEN_TTL_MS = 24 * 3600_000;
const RECOVERY_TOKEN_TTL_MS = 3600_000;

export const INVALID_CREDENTIALS = 'Invalid login credentials';

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

/** The session answer for tokens already stored: a new access token (capped at the session's end). */
export async function sessionAnswer(
  ctx: AppContext,
  user: UserRow,
  session: { id: string; expiresAt: Date },
  refreshToken: string,
): Promise<Session> {
  const access = await signAccessToken(ctx, { userId: user.id, sessionId: session.id, email: user.email }, session.expiresAt);
  return {
    access_token: access.token,
    refresh_token: refreshToken,
    token_type: 'bearer',
    expires_in: access.expiresIn,
    expires_at: access.expiresAt,
    user: toSessionUser(user),
  };
}

/** A new session (signed in): its refresh token, the last sign-in time, and the audit entry. */
async function issueSession(
  ctx: AppContext,
  user: UserRow,
  scope: { orgId?: string | null; siteId?: string | null },
  meta: RequestMeta,
  details?: Record<string, unknown>,
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
      details,
      ip: meta.ip,
    });
    return created;
  });
  return sessionAnswer(ctx, user, session, refreshToken);
}

/**
 * After the password, an account with two-factor sign-in gets a challenge instead of a session
 * (decision 018): a signed, five-minute token, spent when a right code comes back with it.
 */
async function issueSessionOrChallenge(
  ctx: AppContext,
  user: UserRow,
  scope: { orgId?: string | null; siteId?: string | null },
  meta: RequestMeta,
): Promise<Session | MfaChallenge> {
  if (!(await isEnrolled(ctx.database.db, user.id))) return issueSession(ctx, user, scope, meta);
  const now = ctx.clock.now();
  const challengeId = randomToken();
  await repo.insertAuthToken(ctx.database.db, {
    userId: user.id,
    kind: 'mfa_challenge',
    tokenHash: hashToken(challengeId),
    expiresAt: new Date(now.getTime() + MFA_CHALLENGE_TTL_S * 1000),
  });
  const challengeToken = await signMfaChallenge(
    ctx,
    { userId: user.id, orgId: scope.orgId ?? null, siteId: scope.siteId ?? null, challengeId },
    MFA_CHALLENGE_TTL_S,
  );
  return { mfa_required: true, challenge_token: challengeToken, expires_in: MFA_CHALLENGE_TTL_S, methods: ['totp', 'recovery_code'] };
}

/**
 * The second step of a sign-in with two-factor sign-in: the challenge and a current code or a
 * recovery code. A wrong or replayed code counts against the throttle as a wrong password does
 * and leaves the challenge usable until it expires; a right one spends both and opens the session.
 */
export async function signInWithMfa(ctx: AppContext, input: z.infer<typeof mfaGrantSchema>, meta: RequestMeta): Promise<Session> {
  const invalidChallenge = () => new AppError(400, 'invalid_grant', MFA_CHALLENGE_INVALID);
  const claims = await verifyMfaChallenge(ctx, input.challenge_token);
  if (!claims) throw invalidChallenge();
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const live = await db
    .select({ id: authTokens.id })
    .from(authTokens)
    .where(and(eq(authTokens.kind, 'mfa_challenge'), eq(authTokens.tokenHash, hashToken(claims.challengeId)), eq(authTokens.userId, claims.userId), isNull(authTokens.usedAt)));
  if (live.length === 0) throw invalidChallenge();
  const user = await repo.findUserById(db, claims.userId);
  if (!user || !user.active) throw invalidChallenge();
  const key = mfaAttemptKey(user.id);
  await claimAttempt(ctx, key, meta, false);
  const secretKey = await mfaSecretKey(ctx);
  const used = await db.transaction(async (tx) => {
    const result = await verifySecondFactor(tx, secretKey, user.id, { code: input.code, recoveryCode: input.recovery_code }, now);
    if (!(await repo.spendAuthToken(tx, 'mfa_challenge', hashToken(claims.challengeId), now))) throw invalidChallenge();
    if (result.method === 'recovery_code') {
      await writeAudit(tx, {
        actor: { id: user.id, email: user.email },
        action: 'mfa.recovery_code_used',
        resourceType: 'user',
        resourceId: user.id,
        details: { recoveryCodesLeft: result.recoveryCodesLeft },
        ip: meta.ip,
      });
    }
    return result;
  });
  await repo.clearFailures(db, key);
  return issueSession(ctx, user, { orgId: claims.orgId, siteId: claims.siteId }, meta, { secondFactor: used.method });
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
  const memberships = await repo.listMembershipsAnyOrg(ctx.database.db, user.id);
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
): Promise<Session | MfaChallenge> {
  const user = await checkPassword(ctx, input.email, input.password, meta);
  if (input.orgId) await assertOrgMember(ctx, user, input.orgId);
  return issueSessionOrChallenge(ctx, user, { orgId: input.orgId ?? null }, meta);
}

export const INVALID_EMPLOYEE = 'Invalid employee ID or password';

/** Dockmaster sign-in: employee ID and password of an active dockmaster at the chosen site's organization. */
export async function signInDockmaster(
  ctx: AppContext,
  input: z.infer<typeof dockmasterLoginSchema>,
  meta: RequestMeta,
): Promise<Session | MfaChallenge> {
  const site = await repo.findSiteWithOrgAnyOrg(ctx.database.db, input.siteId);
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
  return issueSessionOrChallenge(ctx, found.user, { orgId: site.orgId, siteId: site.siteId }, meta);
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
  // An impersonation session's tokens stop at its 30 minutes: refreshing never extends it.
  return sessionAnswer(ctx, user, session, next);
}

export async function signOut(ctx: AppContext, auth: AuthContext, meta: RequestMeta): Promise<void> {
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    await repo.revokeSession(tx, auth.sessionId, now, 'sign_out');
    if (auth.impersonator && auth.orgId) {
      // Signing out of an impersonation ends it, as its End button does.
      await writeImpersonationEnd(
        tx,
        { sessionId: auth.sessionId, orgId: auth.orgId, impersonator: auth.impersonator, member: auth.user, outcome: 'signed_out', endedAt: now },
        meta.ip,
      );
      return;
    }
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
  const user = await repo.findUserById(db, auth.user.id);
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

/** What the sign-in and sign-up screens need before anyone signs in. */
export async function getAuthSettings(ctx: AppContext) {
  return { signUpOpen: (await getPlatformConfig(ctx.database.db)).selfSignUpOpen };
}

export async function signUp(ctx: AppContext, input: z.infer<typeof signUpSchema>) {
  // The platform setting closes self sign-up: accounts then come only from invitations.
  if (!(await getPlatformConfig(ctx.database.db)).selfSignUpOpen) throw new AppError(403, 'signup_closed', SIGN_UP_CLOSED);
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

/**
 * E-mails a reset link to an active account. Audited either way (auth.password_recovery_requested),
 * in the transaction that stores the token, and answered alike, so the answer never tells whether
 * the address has an account (only platform administrators read the entry).
 */
export async function requestPasswordRecovery(ctx: AppContext, email: string, meta: RequestMeta) {
  const now = ctx.clock.now();
  const user = await repo.findUserByEmail(ctx.database.db, email);
  const token = randomToken();
  const isKnown = !!user && user.active;
  await ctx.database.db.transaction(async (tx) => {
    if (user && isKnown) {
      await repo.insertAuthToken(tx, {
        userId: user.id,
        kind: 'recovery',
        tokenHash: hashToken(token),
        expiresAt: new Date(now.getTime() + RECOVERY_TOKEN_TTL_MS),
      });
    }
    // Whoever asked is anonymous: the entry is about the account (if any), not by it.
    await writeAudit(tx, {
      actor: null,
      action: 'auth.password_recovery_requested',
      resourceType: 'user',
      resourceId: isKnown ? user.id : null,
      details: { email: email.trim().toLowerCase(), accountFound: isKnown },
      ip: meta.ip,
    });
  });
  if (user && isKnown) {
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
