import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { SIGN_UP_CLOSED, type signUpSchema, type verifySchema } from '../../../domain/auth-schemas';
import { writeAudit } from '../../audit/write-audit';
import { clearAttempts, type RequestMeta } from '../../auth/attempts';
import { hashPassword } from '../../auth/passwords';
import { findUserById } from '../../auth/sessions';
import { hashToken, randomToken } from '../../auth/tokens';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { getPlatformConfig } from '../../platform-config';
import { AppError } from '../../plugins/errors';
import * as repo from './auth.repo';
import { enqueueMail } from '../../mail/outbox';
import { RECOVERY_MAIL_KIND } from './recovery-mail';

// Accounts by e-mailed link: self sign-up (when the platform allows it) and its confirmation,
// and password recovery. Answers never tell whether an address has an account.

const SIGNUP_TOKEN_TTL_MS = 24 * 3600_000;

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
 * and answered alike, so the answer never tells whether the address has an account (only platform
 * administrators read the entry). The work is the same either way too (issue 21): one lookup, one
 * transaction with the queued mail and the audit entry; the token and the mail are made by the
 * mail worker off the request path (recovery-mail.ts), so the answer takes as long for an
 * unknown address as for a known one.
 */
export async function requestPasswordRecovery(ctx: AppContext, email: string, meta: RequestMeta) {
  const now = ctx.clock.now();
  const normalized = email.trim().toLowerCase();
  const user = await repo.findUserByEmail(ctx.database.db, normalized);
  const isKnown = !!user && user.active;
  await ctx.database.db.transaction(async (tx) => {
    await enqueueMail(tx, now, [{ kind: RECOVERY_MAIL_KIND, payload: { email: normalized } }]);
    // Whoever asked is anonymous: the entry is about the account (if any), not by it.
    await writeAudit(tx, {
      actor: null,
      action: 'auth.password_recovery_requested',
      resourceType: 'user',
      resourceId: isKnown ? user.id : null,
      details: { email: normalized, accountFound: isKnown },
      ip: meta.ip,
    });
  });
  ctx.mailWorker?.kick();
  return { message: 'If an account exists for that e-mail, a reset link is on its way.' };
}

export async function verifyToken(ctx: AppContext, input: z.infer<typeof verifySchema>) {
  const now = ctx.clock.now();
  return ctx.database.db.transaction(async (tx) => {
    const token = await repo.spendAuthToken(tx, input.type, hashToken(input.token), now);
    if (!token) throw new AppError(400, 'invalid_token', 'This link is invalid or has expired. Request a new one.');
    const user = await findUserById(tx, token.userId);
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
    await clearAttempts(tx, user.email.toLowerCase());
    await writeAudit(tx, { actor: { id: user.id, email: user.email }, action: 'auth.password_reset', resourceType: 'user', resourceId: user.id });
    return { email: user.email, message: 'Your password has been changed. Sign in with the new password.' };
  });
}
