import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { IMPERSONATOR_ROLES } from '../../domain/auth-schemas';
import { isPlatformRole } from '../../domain/enums';
import type { AppContext } from '../context';
import type { Database } from '../db/client';
import { authSessions, platformSettings, userMfa, users } from '../db/schema';
import type { AuthContext } from '../plugins/auth';
import { getPlatformConfig } from '../platform-config';

const ISSUER = 'baywise';
const AUDIENCE = 'baywise-api';
const SECRET_SETTING = 'auth.jwt_secret';

/** A random, URL-safe token for refresh, e-mail and manage links (256 bits). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as SHA-256 hashes: a database leak does not leak live tokens. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The HS256 key: AUTH_SECRET when configured, otherwise one generated on first start and kept in
 * platform_settings, so every API node on the same database signs and verifies alike.
 */
export async function ensureAuthSecret(database: Database, configured?: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  const generated = randomBytes(48).toString('base64url');
  await database.db
    .insert(platformSettings)
    .values({ key: SECRET_SETTING, value: generated })
    .onConflictDoNothing({ target: platformSettings.key });
  const [row] = await database.db
    .select({ value: platformSettings.value })
    .from(platformSettings)
    .where(eq(platformSettings.key, SECRET_SETTING));
  return new TextEncoder().encode(String(row!.value));
}

/**
 * An access token for the session. `notAfter` (the session's own end) caps its expiry: an
 * impersonation session's tokens never outlive its 30 minutes.
 */
export async function signAccessToken(
  ctx: AppContext,
  claims: { userId: string; sessionId: string; email: string },
  notAfter?: Date,
): Promise<{ token: string; expiresAt: number; expiresIn: number }> {
  const issuedAt = Math.floor(ctx.clock.now().getTime() / 1000);
  const cap = notAfter ? Math.floor(notAfter.getTime() / 1000) - issuedAt : Infinity;
  const expiresIn = Math.max(1, Math.min(ctx.config.accessTokenTtlSeconds, cap));
  const token = await new SignJWT({ sid: claims.sessionId, email: claims.email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + expiresIn)
    .sign(ctx.authSecret);
  return { token, expiresAt: issuedAt + expiresIn, expiresIn };
}

const impersonators = alias(users, 'impersonator');

/**
 * Verifies signature, issuer, audience and expiry against the app clock, then that the session
 * is neither revoked nor expired and the user still active. Returns null for anything invalid.
 * An impersonation session also needs its platform user still active and allowed to impersonate.
 * A platform user without two-factor sign-in while the platform requires it is flagged
 * (mfaEnrolmentRequired): the auth plugin lets such a session reach the enrolment routes only.
 */
export async function verifyAccessToken(ctx: AppContext, token: string): Promise<AuthContext | null> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, ctx.authSecret, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      // A token without an expiry would be valid for ever: refused even when correctly signed.
      requiredClaims: ['exp', 'iat', 'sub'],
      currentDate: ctx.clock.now(),
    }));
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
  const sessionId = typeof payload.sid === 'string' ? payload.sid : null;
  if (!sessionId || !payload.sub) return null;
  const [row] = await ctx.database.db
    .select({
      userId: users.id,
      email: users.email,
      fullName: users.fullName,
      platformRole: users.platformRole,
      orgId: authSessions.orgId,
      siteId: authSessions.siteId,
      expiresAt: authSessions.expiresAt,
      impersonatorId: authSessions.impersonatorId,
      impersonatorEmail: impersonators.email,
      impersonatorActive: impersonators.active,
      impersonatorRole: impersonators.platformRole,
      mfaConfirmedAt: userMfa.confirmedAt,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .leftJoin(impersonators, eq(impersonators.id, authSessions.impersonatorId))
    .leftJoin(userMfa, eq(userMfa.userId, users.id))
    .where(
      and(
        eq(authSessions.id, sessionId),
        eq(authSessions.userId, payload.sub),
        isNull(authSessions.revokedAt),
        gt(authSessions.expiresAt, ctx.clock.now()),
        eq(users.active, true),
      ),
    );
  if (!row) return null;
  let impersonator: AuthContext['impersonator'] = null;
  if (row.impersonatorId) {
    const mayImpersonate = (IMPERSONATOR_ROLES as readonly string[]).includes(row.impersonatorRole ?? '');
    if (!row.impersonatorEmail || !row.impersonatorActive || !mayImpersonate) return null;
    impersonator = { id: row.impersonatorId, email: row.impersonatorEmail };
  }
  const platformRole = isPlatformRole(row.platformRole) ? row.platformRole : null;
  const mfaEnrolmentRequired =
    !!platformRole && !impersonator && !row.mfaConfirmedAt && (await getPlatformConfig(ctx.database.db)).mfaRequired;
  return {
    user: { id: row.userId, email: row.email, fullName: row.fullName, platformRole },
    sessionId,
    orgId: row.orgId,
    siteId: row.siteId,
    sessionExpiresAt: row.expiresAt,
    impersonator,
    mfaEnrolmentRequired,
  };
}

const MFA_AUDIENCE = 'baywise-mfa-challenge';

export type MfaChallengeClaims = { userId: string; orgId: string | null; siteId: string | null; challengeId: string };

/**
 * The challenge between the password and the code (decision 018): signed, short-lived, for another
 * audience than access tokens (so it opens nothing by itself), and single-use through the
 * auth_tokens row named by its jti.
 */
export async function signMfaChallenge(ctx: AppContext, claims: MfaChallengeClaims, ttlSeconds: number): Promise<string> {
  const issuedAt = Math.floor(ctx.clock.now().getTime() / 1000);
  return new SignJWT({ org: claims.orgId, site: claims.siteId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setJti(claims.challengeId)
    .setIssuer(ISSUER)
    .setAudience(MFA_AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .sign(ctx.authSecret);
}

/** The challenge's claims, or null when it is forged, expired or not a challenge. */
export async function verifyMfaChallenge(ctx: AppContext, token: string): Promise<MfaChallengeClaims | null> {
  try {
    const { payload } = await jwtVerify(token, ctx.authSecret, {
      issuer: ISSUER,
      audience: MFA_AUDIENCE,
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'iat', 'sub', 'jti'],
      currentDate: ctx.clock.now(),
    });
    return {
      userId: payload.sub!,
      challengeId: payload.jti!,
      orgId: typeof payload.org === 'string' ? payload.org : null,
      siteId: typeof payload.site === 'string' ? payload.site : null,
    };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}
