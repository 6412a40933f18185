import { and, count, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { mfaRecoveryCodes, userMfa } from '../../db/schema';

type Conn = Db | Tx;

export function findMfa(db: Conn, userId: string) {
  return db
    .select()
    .from(userMfa)
    .where(eq(userMfa.userId, userId))
    .then((rows) => rows[0]);
}

/** A new, unconfirmed secret: replaces a pending one (never a confirmed one: the caller checks). */
export function savePendingSecret(db: Conn, userId: string, secret: string, at: Date) {
  return db
    .insert(userMfa)
    .values({ userId, secret, confirmedAt: null, lastUsedStep: null, createdAt: at })
    .onConflictDoUpdate({ target: userMfa.userId, set: { secret, confirmedAt: null, lastUsedStep: null, createdAt: at } });
}

export async function confirm(db: Conn, userId: string, at: Date, step: number): Promise<boolean> {
  const rows = await db
    .update(userMfa)
    .set({ confirmedAt: at, lastUsedStep: step })
    .where(and(eq(userMfa.userId, userId), isNull(userMfa.confirmedAt)))
    .returning({ userId: userMfa.userId });
  return rows.length === 1;
}

/**
 * Records `step` as used, only if it is later than the last one used: a code is accepted once
 * (RFC 6238 §5.2), and of two requests racing with the same code only one wins.
 */
export async function useStep(db: Conn, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(userMfa)
    .set({ lastUsedStep: step })
    .where(and(eq(userMfa.userId, userId), or(isNull(userMfa.lastUsedStep), lt(userMfa.lastUsedStep, step))))
    .returning({ userId: userMfa.userId });
  return rows.length === 1;
}

export function removeMfa(db: Conn, userId: string) {
  return db.delete(userMfa).where(eq(userMfa.userId, userId));
}

export async function replaceRecoveryCodes(db: Conn, userId: string, hashes: string[], at: Date) {
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  if (hashes.length > 0) await db.insert(mfaRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: at })));
}

/** Spends a recovery code atomically; false when it is unknown or already used. */
export async function spendRecoveryCode(db: Conn, userId: string, codeHash: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(mfaRecoveryCodes)
    .set({ usedAt: at })
    .where(and(eq(mfaRecoveryCodes.userId, userId), eq(mfaRecoveryCodes.codeHash, codeHash), isNull(mfaRecoveryCodes.usedAt)))
    .returning({ id: mfaRecoveryCodes.id });
  return rows.length === 1;
}

export async function unusedRecoveryCodes(db: Conn, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}
