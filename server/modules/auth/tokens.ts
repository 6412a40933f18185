import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { isPlatformRole } from '../../../domain/enums';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import { authSessions, platformSettings, users } from '../../db/schema';
import type { AuthContext } from '../../plugins/auth';

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

export async function signAccessToken(
  ctx: AppContext,
  claims: { userId: string; sessionId: string; email: string },
): Promise<{ token: string; expiresAt: number; expiresIn: number }> {
  const issuedAt = Math.floor(ctx.clock.now().getTime() / 1000);
  const expiresIn = ctx.config.accessTokenTtlSeconds;
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

/**
 * Verifies signature, issuer, audience and expiry against the app clock, then that the session
 * is neither revoked nor expired and the user still active. Returns null for anything invalid.
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
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
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
  return {
    user: {
      id: row.userId,
      email: row.email,
      fullName: row.fullName,
      platformRole: isPlatformRole(row.platformRole) ? row.platformRole : null,
    },
    sessionId,
    orgId: row.orgId,
    siteId: row.siteId,
  };
}
