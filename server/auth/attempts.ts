import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import { loginFailures } from '../db/schema';
import { RetryLaterError } from '../plugins/errors';
import {
  FAILURE_WINDOW_MIN,
  FREE_ACCOUNT_FAILURES,
  FREE_IP_FAILURES,
  MAX_ACCOUNT_DELAY_S,
  MAX_IP_DELAY_S,
  readDeviceMarks,
  waitSeconds,
} from './sign-in-throttle';

export type RequestMeta = {
  ip: string | null;
  userAgent: string | null;
  /** The recognised-device marks the browser sent (sign-in-throttle.ts). */
  deviceMarks?: string[];
};

/** Who is asking, as the throttle and the audit log see it. */
export function requestMeta(request: FastifyRequest): RequestMeta {
  return {
    ip: request.ip ?? null,
    userAgent: request.headers['user-agent'] ?? null,
    deviceMarks: readDeviceMarks(request.headers.cookie),
  };
}

/**
 * Counts this attempt before the secret is checked, refusing it when it comes too soon after
 * earlier failures: per account key (unless this browser is recognised for it) and per address,
 * each with a doubling delay (decision 005). The count and the provisional failure row are written
 * under a lock on the key, so a burst of parallel guesses is counted one by one instead of all
 * passing the check at once. The caller clears the key's failures when the secret was right.
 * Passwords use the e-mail (or organization + employee ID) as key; two-factor codes `mfa:<userId>`.
 */
export async function claimAttempt(ctx: AppContext, key: string, meta: RequestMeta, isRecognised: boolean): Promise<number> {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - FAILURE_WINDOW_MIN * 60_000);
  const isAddressExempt = ctx.config.rateLimitDisabled || (!!meta.ip && ctx.config.rateLimitAllowList.includes(meta.ip));
  return ctx.database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sign-in:${key}`}, 0))`);
    const failures = await recentFailures(tx, key, meta.ip, since);
    const waitS = Math.max(
      isRecognised ? 0 : waitSeconds(failures.account, FREE_ACCOUNT_FAILURES, MAX_ACCOUNT_DELAY_S, now),
      isAddressExempt ? 0 : waitSeconds(failures.ip, FREE_IP_FAILURES, MAX_IP_DELAY_S, now),
    );
    if (waitS > 0) {
      throw new RetryLaterError(
        429,
        'too_many_attempts',
        `Too many failed sign-in attempts. Please wait ${waitS < 60 ? `${waitS} seconds` : `${Math.ceil(waitS / 60)} minutes`} and try again.`,
        waitS,
      );
    }
    return recordFailure(tx, key, meta.ip, now);
  });
}

/** The throttle key of an account's two-factor codes. */
export const mfaAttemptKey = (userId: string) => `mfa:${userId}`;

/** Forgets the key's failures (the secret was right, or the password was reset). */
export async function clearAttempts(db: Db | Tx, key: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.email, key));
}

type FailureCount = { count: number; last: Date | null };

/** Failed sign-ins since `since`: for one account key, and from one address. */
async function recentFailures(db: Db | Tx, key: string, ip: string | null, since: Date): Promise<{ account: FailureCount; ip: FailureCount }> {
  const [account] = await db
    .select({ count: sql<number>`count(*)::int`, last: sql<Date | null>`max(${loginFailures.createdAt})` })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, key), gt(loginFailures.createdAt, since)));
  const [fromIp] = ip
    ? await db
        .select({ count: sql<number>`count(*)::int`, last: sql<Date | null>`max(${loginFailures.createdAt})` })
        .from(loginFailures)
        .where(and(eq(loginFailures.ip, ip), gt(loginFailures.createdAt, since)))
    : [{ count: 0, last: null }];
  const toCount = (row?: { count: number; last: Date | string | null }): FailureCount => ({
    count: Number(row?.count ?? 0),
    last: row?.last ? new Date(row.last) : null,
  });
  return { account: toCount(account), ip: toCount(fromIp) };
}

/** Records a failed (or not yet checked) attempt; answers its id. */
function recordFailure(db: Db | Tx, key: string, ip: string | null, at: Date): Promise<number> {
  return db
    .insert(loginFailures)
    .values({ email: key, ip, createdAt: at })
    .returning({ id: loginFailures.id })
    .then((rows) => rows[0]!.id);
}
