import type { Session } from '../../../domain/auth-schemas';
import { writeAudit } from '../../audit/write-audit';
import type { RequestMeta } from '../../auth/attempts';
import { addRefreshToken, findUserById, sessionAnswer } from '../../auth/sessions';
import { hashToken, randomToken } from '../../auth/tokens';
import type { AppContext } from '../../context';
import { AppError } from '../../plugins/errors';
import type { AuthContext } from '../../plugins/auth';
import { writeImpersonationEnd } from '../impersonation/impersonation-audit';
import * as repo from './auth.repo';

// An open session: refreshing it (rotating refresh tokens, reuse ends the session) and signing out.

/** A refresh token presented twice within this grace (two tabs racing) is refused without revoking. */
const REFRESH_REUSE_GRACE_MS = 10_000;

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
  const user = await findUserById(ctx.database.db, session.userId);
  if (!user || !user.active) throw invalid('Invalid Refresh Token: User Not Found');
  const next = randomToken();
  await ctx.database.db.transaction(async (tx) => {
    if (!(await repo.spendRefreshToken(tx, token.id, now))) throw invalid('Invalid Refresh Token: Already Used');
    await addRefreshToken(tx, session.id, next, now);
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
