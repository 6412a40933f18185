import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import {
  MFA_CHALLENGE_INVALID,
  MFA_CHALLENGE_TTL_S,
  type dockmasterLoginSchema,
  type MfaChallenge,
  type mfaGrantSchema,
  type passwordGrantSchema,
  type Session,
} from '../../../domain/auth-schemas';
import { suspendedOrganizationMessage } from '../../../domain/org-suspension';
import { writeAudit } from '../../audit/write-audit';
import { claimAttempt, clearAttempts, mfaAttemptKey, type RequestMeta } from '../../auth/attempts';
import { dummyPasswordHash, verifyPassword } from '../../auth/passwords';
import { findUserById, openSession, sessionAnswer, type UserRow } from '../../auth/sessions';
import { isRecognisedDevice } from '../../auth/sign-in-throttle';
import { hashToken, randomToken, signMfaChallenge, verifyMfaChallenge } from '../../auth/tokens';
import type { AppContext } from '../../context';
import { authTokens, users } from '../../db/schema';
import { getPlatformConfig } from '../../platform-config';
import { AppError } from '../../plugins/errors';
import { isEnrolled, mfaSecretKey, verifySecondFactor } from '../mfa/mfa.service';
import * as repo from './auth.repo';

// Signing in: with e-mail and password (platform and organization sign-in), with employee ID and
// password at a site (dockmasters), and the second step with a two-factor code. Every attempt is
// counted before the secret is checked (decision 005); a right one opens a session.

export const INVALID_CREDENTIALS = 'Invalid login credentials';

// 401: the authentication service's 'invalid credentials' kind (spec §8).
const invalidCredentials = () => new AppError(401, 'invalid_credentials', INVALID_CREDENTIALS);

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
    const created = await openSession(tx, {
      userId: user.id,
      orgId: scope.orgId ?? null,
      siteId: scope.siteId ?? null,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 500) ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ctx.config.refreshTokenTtlDays * 86_400_000),
    }, refreshToken, now);
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
  const user = await findUserById(db, claims.userId);
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
  await clearAttempts(db, key);
  return issueSession(ctx, user, { orgId: claims.orgId, siteId: claims.siteId }, meta, { secondFactor: used.method });
}

/** Checks e-mail and password; every way of failing looks the same to the caller. */
async function checkPassword(ctx: AppContext, email: string, password: string, meta: RequestMeta): Promise<UserRow> {
  const key = email.toLowerCase();
  const user = await repo.findUserByEmail(ctx.database.db, key);
  await claimAttempt(ctx, key, meta, !!user && isRecognisedDevice(ctx.authSecret, meta.deviceMarks ?? [], user.id));
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !ok || !user.active) throw invalidCredentials(); // the attempt stays counted
  await clearAttempts(ctx.database.db, key);
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
  if (!membership.orgActive || membership.orgStatus !== 'active') throw await suspendedError(ctx, membership);
}

/**
 * The refusal a member of a suspended organization gets: which organization, why, and whom to
 * contact (issue 22 item 14), instead of a session that can open nothing.
 */
async function suspendedError(ctx: AppContext, membership: { orgId: string; orgName: string }): Promise<AppError> {
  const db = ctx.database.db;
  const [reason, config] = await Promise.all([repo.findSuspensionReason(db, membership.orgId), getPlatformConfig(db)]);
  const message = suspendedOrganizationMessage({
    orgName: membership.orgName,
    reason,
    platformName: config.platformName,
    supportEmail: config.supportEmail,
    supportPhone: config.supportPhone,
  });
  return new AppError(403, 'org_suspended', message);
}

/**
 * The e-mail sign-in of a member whose only organizations are suspended: refused with the reason and
 * the contact (a platform user, or anyone with an organization in use or none at all, goes on).
 */
async function assertNotOnlySuspended(ctx: AppContext, user: UserRow) {
  if (user.platformRole) return;
  const memberships = (await repo.listMembershipsAnyOrg(ctx.database.db, user.id)).filter((m) => m.active);
  if (memberships.some((m) => m.orgActive && m.orgStatus === 'active')) return;
  const suspended = memberships.find((m) => m.orgStatus === 'suspended') ?? memberships[0];
  if (suspended) throw await suspendedError(ctx, suspended);
}

export async function signInWithPassword(
  ctx: AppContext,
  input: z.infer<typeof passwordGrantSchema>,
  meta: RequestMeta,
): Promise<Session | MfaChallenge> {
  const user = await checkPassword(ctx, input.email, input.password, meta);
  if (input.orgId) await assertOrgMember(ctx, user, input.orgId);
  else await assertNotOnlySuspended(ctx, user);
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
  await clearAttempts(ctx.database.db, key);
  return issueSessionOrChallenge(ctx, found.user, { orgId: site.orgId, siteId: site.siteId }, meta);
}
