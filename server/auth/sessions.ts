import { eq } from 'drizzle-orm';
import type { Session } from '../../domain/auth-schemas';
import { isPlatformRole } from '../../domain/enums';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import { authSessions, refreshTokens, users } from '../db/schema';
import { hashToken, signAccessToken } from './tokens';

// A session: a row in auth_sessions (who, for which organization and site, until when), its
// rotating refresh tokens (stored as hashes), and the answer a client gets — a short-lived access
// token capped at the session's end. Opened by the sign-ins and by an impersonation.

export type UserRow = typeof users.$inferSelect;

type Conn = Db | Tx;

export function findUserById(db: Conn, id: string): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(eq(users.id, id))
    .then((rows) => rows[0]);
}

/** Stores a new session with its first refresh token. */
export async function openSession(tx: Tx, values: typeof authSessions.$inferInsert, refreshToken: string, now: Date) {
  const [created] = await tx.insert(authSessions).values(values).returning();
  await addRefreshToken(tx, created!.id, refreshToken, now);
  return created!;
}

/** Stores the session's next refresh token. */
export async function addRefreshToken(db: Conn, sessionId: string, refreshToken: string, at: Date): Promise<void> {
  await db.insert(refreshTokens).values({ sessionId, tokenHash: hashToken(refreshToken), createdAt: at });
}

export function toSessionUser(user: UserRow) {
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
