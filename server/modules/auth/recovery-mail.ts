import { hashToken, randomToken } from '../../auth/tokens';
import type { MailRenderers } from '../../mail/outbox';
import * as repo from './auth.repo';

// The password reset mail (issue 21: recovery must not be measurably slower for an existing
// account). The request only queues a row of this kind — the same row, the same statements,
// whether or not the address has an account — and answers. The mail worker, off the request
// path, looks the address up: for an active account it makes the one-hour token (only its hash is
// stored; the token itself is never in the outbox) and renders the mail; otherwise it sends nothing.

export const RECOVERY_MAIL_KIND = 'auth.password_recovery';
export const RECOVERY_TOKEN_TTL_MS = 3600_000;

export const recoveryMailRenderers: MailRenderers = {
  [RECOVERY_MAIL_KIND]: async (ctx, payload) => {
    if (typeof payload.email !== 'string') return null;
    const user = await repo.findUserByEmail(ctx.database.db, payload.email);
    if (!user || !user.active) return null;
    const token = randomToken();
    await repo.insertAuthToken(ctx.database.db, {
      userId: user.id,
      kind: 'recovery',
      tokenHash: hashToken(token),
      expiresAt: new Date(ctx.clock.now().getTime() + RECOVERY_TOKEN_TTL_MS),
    });
    return {
      to: user.email,
      subject: 'Reset your Baywise password',
      text: `A password reset was requested for your Baywise account.\n\nChoose a new password here:\n${ctx.config.publicUrl}/reset-password?token=${token}\n\nThe link is valid for 1 hour. If you did not ask for this, ignore this message; your password stays as it is.`,
    };
  },
};
