import {
  MFA_CODE_INVALID,
  MFA_CODE_REPLAYED,
  RECOVERY_CODE_INVALID,
  type MfaEnrolment,
  type MfaStatus,
  type RecoveryCodes,
} from '../../../domain/auth-schemas';
import { isPlatformRole } from '../../../domain/enums';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import type { AuthContext } from '../../plugins/auth';
import { AppError, conflict, forbidden } from '../../plugins/errors';
import { writeAudit } from '../../audit/write-audit';
import { claimAttempt, clearAttempts, mfaAttemptKey, type RequestMeta } from '../../auth/attempts';
import { hashToken } from '../../auth/tokens';
import { getPlatformConfig } from '../../platform-config';
import { decryptWith, encryptionKey, encryptWith } from '../../delivery/secret-box';
import * as repo from './mfa.repo';
import { matchTotpStep, newRecoveryCodes, newTotpSecret, normalizeRecoveryCode, otpauthUri, qrCodeDataUrl } from './totp';

// Two-factor sign-in with an authenticator app (decision 018): enrolment, recovery codes, turning
// it off, and the second step of the sign-in (verifySecondFactor, used by the auth service).
// Every code is checked against the sign-in throttle (key mfa:<userId>), so guessing six digits
// slows down exactly as guessing a password does. The TOTP secret is stored sealed with the data
// encryption key (AES-256-GCM, server/delivery/secret-box.ts), so a copy of the table alone mints
// no codes; a row written before that (plain base32) is still read.

export const invalidCode = () => new AppError(400, 'invalid_mfa_code', MFA_CODE_INVALID);
const replayedCode = () => new AppError(400, 'mfa_code_replayed', MFA_CODE_REPLAYED);
const invalidRecoveryCode = () => new AppError(400, 'invalid_recovery_code', RECOVERY_CODE_INVALID);
const notEnrolled = () => conflict('mfa_not_enrolled', 'Two-factor sign-in is not turned on for this account.');

export const PLATFORM_ONLY = 'Two-factor sign-in is available to platform staff accounts.';

export type SecondFactorProof = { code?: string; recoveryCode?: string };
export type SecondFactorResult = { method: 'totp' | 'recovery_code'; recoveryCodesLeft: number | null };

const actorOf = (auth: AuthContext) => ({ id: auth.user.id, email: auth.user.email, role: auth.user.platformRole });

/** True when the account has confirmed two-factor sign-in (its sign-in asks for a code). */
export async function isEnrolled(db: Db | Tx, userId: string): Promise<boolean> {
  return !!(await repo.findMfa(db, userId))?.confirmedAt;
}

/** The key that seals TOTP secrets: read it before a transaction (the first read may write it). */
export const mfaSecretKey = (ctx: AppContext): Promise<Buffer> => encryptionKey(ctx);

/** The stored secret in clear: sealed ones (`v1:…`) opened, plain base32 ones from before as they are. */
function openSecret(key: Buffer, stored: string): string {
  return stored.startsWith('v1:') ? decryptWith(key, stored) : stored;
}

/**
 * Checks a code (one step either side of now, never a step already used) or spends a recovery
 * code, inside the caller's transaction: when the caller's change fails, the code stays unused.
 */
export async function verifySecondFactor(tx: Tx, key: Buffer, userId: string, proof: SecondFactorProof, now: Date): Promise<SecondFactorResult> {
  const mfa = await repo.findMfa(tx, userId);
  if (!mfa?.confirmedAt) throw notEnrolled();
  if (proof.code) {
    const step = matchTotpStep(openSecret(key, mfa.secret), proof.code, now);
    if (step === null) throw invalidCode();
    if (!(await repo.useStep(tx, userId, step))) throw replayedCode();
    return { method: 'totp', recoveryCodesLeft: null };
  }
  const code = normalizeRecoveryCode(proof.recoveryCode ?? '');
  if (!code || !(await repo.spendRecoveryCode(tx, userId, hashToken(code), now))) throw invalidRecoveryCode();
  return { method: 'recovery_code', recoveryCodesLeft: await repo.unusedRecoveryCodes(tx, userId) };
}

export async function getStatus(ctx: AppContext, auth: AuthContext): Promise<MfaStatus> {
  const db = ctx.database.db;
  const mfa = await repo.findMfa(db, auth.user.id);
  const isOn = !!mfa?.confirmedAt;
  return {
    enrolled: isOn,
    confirmedAt: mfa?.confirmedAt?.toISOString() ?? null,
    recoveryCodesLeft: isOn ? await repo.unusedRecoveryCodes(db, auth.user.id) : 0,
    canEnrol: isPlatformRole(auth.user.platformRole),
    required: (await getPlatformConfig(db)).mfaRequired,
  };
}

/** Step 1: a new secret, its otpauth URI and QR code. Replaces an unconfirmed one; refused once on. */
export async function startEnrolment(ctx: AppContext, auth: AuthContext, meta: RequestMeta): Promise<MfaEnrolment> {
  if (!isPlatformRole(auth.user.platformRole)) throw forbidden(PLATFORM_ONLY);
  const secret = newTotpSecret();
  const sealed = encryptWith(await mfaSecretKey(ctx), secret);
  await ctx.database.db.transaction(async (tx) => {
    if ((await repo.findMfa(tx, auth.user.id))?.confirmedAt) {
      throw conflict('mfa_already_enrolled', 'Two-factor sign-in is already on. Turn it off first to move it to another app.');
    }
    await repo.savePendingSecret(tx, auth.user.id, sealed, ctx.clock.now());
    await writeAudit(tx, { actor: actorOf(auth), action: 'mfa.enrolment_started', resourceType: 'user', resourceId: auth.user.id, ip: meta.ip });
  });
  const uri = otpauthUri(secret, auth.user.email);
  return { secret, otpauthUri: uri, qrCodeDataUrl: await qrCodeDataUrl(uri) };
}

async function issueRecoveryCodes(tx: Tx, userId: string, at: Date): Promise<string[]> {
  const codes = newRecoveryCodes();
  await repo.replaceRecoveryCodes(tx, userId, codes.map((code) => hashToken(normalizeRecoveryCode(code))), at);
  return codes;
}

/** Step 2: the first code from the app turns it on; ten recovery codes are shown, this once. */
export async function confirmEnrolment(ctx: AppContext, auth: AuthContext, code: string, meta: RequestMeta): Promise<RecoveryCodes> {
  if (!isPlatformRole(auth.user.platformRole)) throw forbidden(PLATFORM_ONLY);
  const key = mfaAttemptKey(auth.user.id);
  await claimAttempt(ctx, key, meta, false);
  const now = ctx.clock.now();
  const secretKey = await mfaSecretKey(ctx);
  const recoveryCodes = await ctx.database.db.transaction(async (tx) => {
    const mfa = await repo.findMfa(tx, auth.user.id);
    if (!mfa) throw conflict('mfa_not_started', 'Start the set-up again: scan the QR code, then enter the code.');
    if (mfa.confirmedAt) throw conflict('mfa_already_enrolled', 'Two-factor sign-in is already on.');
    const step = matchTotpStep(openSecret(secretKey, mfa.secret), code, now);
    if (step === null) throw invalidCode();
    if (!(await repo.confirm(tx, auth.user.id, now, step))) throw conflict('mfa_already_enrolled', 'Two-factor sign-in is already on.');
    const codes = await issueRecoveryCodes(tx, auth.user.id, now);
    await writeAudit(tx, {
      actor: actorOf(auth),
      action: 'mfa.enrolled',
      resourceType: 'user',
      resourceId: auth.user.id,
      details: { method: 'totp', recoveryCodes: codes.length },
      ip: meta.ip,
    });
    return codes;
  });
  await clearAttempts(ctx.database.db, key);
  return { recoveryCodes };
}

/** Turns two-factor sign-in off: a current code, or a recovery code when the phone is gone. */
export async function disable(ctx: AppContext, auth: AuthContext, proof: SecondFactorProof, meta: RequestMeta): Promise<MfaStatus> {
  const key = mfaAttemptKey(auth.user.id);
  if (!(await isEnrolled(ctx.database.db, auth.user.id))) throw notEnrolled();
  await claimAttempt(ctx, key, meta, false);
  const now = ctx.clock.now();
  const secretKey = await mfaSecretKey(ctx);
  await ctx.database.db.transaction(async (tx) => {
    const used = await verifySecondFactor(tx, secretKey, auth.user.id, proof, now);
    await repo.removeMfa(tx, auth.user.id);
    await repo.replaceRecoveryCodes(tx, auth.user.id, [], now);
    await writeAudit(tx, {
      actor: actorOf(auth),
      action: 'mfa.disabled',
      resourceType: 'user',
      resourceId: auth.user.id,
      details: { provedWith: used.method },
      ip: meta.ip,
    });
  });
  await clearAttempts(ctx.database.db, key);
  return getStatus(ctx, auth);
}

/** Ten new recovery codes (a current code proves the app is still at hand); the old ones stop working. */
export async function regenerateRecoveryCodes(ctx: AppContext, auth: AuthContext, code: string, meta: RequestMeta): Promise<RecoveryCodes> {
  const key = mfaAttemptKey(auth.user.id);
  if (!(await isEnrolled(ctx.database.db, auth.user.id))) throw notEnrolled();
  await claimAttempt(ctx, key, meta, false);
  const now = ctx.clock.now();
  const secretKey = await mfaSecretKey(ctx);
  const recoveryCodes = await ctx.database.db.transaction(async (tx) => {
    await verifySecondFactor(tx, secretKey, auth.user.id, { code }, now);
    const codes = await issueRecoveryCodes(tx, auth.user.id, now);
    await writeAudit(tx, {
      actor: actorOf(auth),
      action: 'mfa.recovery_codes_regenerated',
      resourceType: 'user',
      resourceId: auth.user.id,
      details: { recoveryCodes: codes.length },
      ip: meta.ip,
    });
    return codes;
  });
  await clearAttempts(ctx.database.db, key);
  return { recoveryCodes };
}
