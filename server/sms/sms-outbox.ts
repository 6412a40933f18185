import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { smsOutbox } from '../db/schema';
import { retryDelayMs } from '../mail/outbox';
import { SmsSendError, type SmsSender } from './sms-sender';

// The SMS outbox, as the mail outbox (server/mail/outbox.ts): a text message is a row written in
// the transaction of the change that causes it; a worker claims due rows with a lease under
// FOR UPDATE SKIP LOCKED, sends them through the SmsSender and retries with back-off. Unlike
// mail, the body is written when queued (short, and holding no manage-link token). Nothing is
// queued unless SMS is configured (queueSms), and the worker runs only then (main.ts).

export type QueuedSms = { kind: string; orgId?: string | null; to: string; body: string };

export const MAX_SMS_ATTEMPTS = 8;
const LEASE_MS = 2 * 60_000;
/** A provider's limit for one message is 1600 characters; ours are far shorter. */
const MAX_BODY = 1600;

/** Queues text messages inside the caller's transaction. */
export async function enqueueSms(tx: Tx, now: Date, messages: QueuedSms[]): Promise<void> {
  if (messages.length === 0) return;
  await tx.insert(smsOutbox).values(
    messages.map((m) => ({ kind: m.kind, orgId: m.orgId ?? null, toPhone: m.to, body: m.body.slice(0, MAX_BODY), nextAttemptAt: now, createdAt: now })),
  );
}

type ClaimedRow = { id: string; kind: string; to_phone: string; body: string; attempts: number };

export type SmsDeliveryResult = { sent: number; retried: number; failed: number };

/** Claims up to `limit` due rows, sends each, and records the outcome. */
export async function deliverDueSms(ctx: AppContext, sender: SmsSender, limit = 20, isStopping: () => boolean = () => false): Promise<SmsDeliveryResult> {
  const now = ctx.clock.now();
  const claimed = await ctx.database.query<ClaimedRow>(
    `update sms_outbox set locked_until = $1, attempts = attempts + 1
      where id in (
        select id from sms_outbox
         where status = 'pending' and next_attempt_at <= $2 and (locked_until is null or locked_until <= $2)
         order by next_attempt_at, created_at
         limit $3
         for update skip locked)
      returning id, kind, to_phone, body, attempts`,
    [new Date(now.getTime() + LEASE_MS).toISOString(), now.toISOString(), limit],
  );
  const result: SmsDeliveryResult = { sent: 0, retried: 0, failed: 0 };
  for (const [index, row] of claimed.entries()) {
    if (isStopping()) {
      const rest = claimed.slice(index).map((r) => r.id);
      await ctx.database.query(`update sms_outbox set locked_until = null, attempts = attempts - 1 where id = any($1::uuid[])`, [rest]);
      break;
    }
    try {
      const sent = await sender.send({ to: row.to_phone, body: row.body });
      await ctx.database.query(
        `update sms_outbox set status = 'sent', sent_at = $2, provider_message_id = $3, locked_until = null, last_error = null where id = $1`,
        [row.id, ctx.clock.now().toISOString(), sent.providerMessageId],
      );
      result.sent++;
    } catch (error) {
      const isLast = row.attempts >= MAX_SMS_ATTEMPTS || (error instanceof SmsSendError && error.isPermanent);
      const reason = String((error as Error)?.message ?? error).replace(/\0/g, '').slice(0, 2000);
      await ctx.database.query(
        `update sms_outbox set status = $2, next_attempt_at = $3, locked_until = null, last_error = $4 where id = $1`,
        [row.id, isLast ? 'failed' : 'pending', new Date(ctx.clock.now().getTime() + retryDelayMs(row.attempts)).toISOString(), reason],
      );
      ctx.log.warn({ err: error, smsId: row.id, kind: row.kind, attempts: row.attempts }, isLast ? 'text message failed for good' : 'text message failed; will retry');
      if (isLast) result.failed++;
      else result.retried++;
    }
  }
  return result;
}

/** Sends until nothing is due (tests, and the worker after a kick). */
export async function drainSms(ctx: AppContext, sender: SmsSender, isStopping: () => boolean = () => false): Promise<SmsDeliveryResult> {
  const total: SmsDeliveryResult = { sent: 0, retried: 0, failed: 0 };
  for (;;) {
    if (isStopping()) return total;
    const batch = await deliverDueSms(ctx, sender, 20, isStopping);
    total.sent += batch.sent;
    total.retried += batch.retried;
    total.failed += batch.failed;
    if (batch.sent + batch.retried + batch.failed === 0) return total;
  }
}

/** Frees rows a previous run of this process claimed (embedded database only, as for mail). */
export async function releaseStaleSmsClaims(ctx: AppContext): Promise<void> {
  await ctx.database.db.execute(sql`update sms_outbox set locked_until = null where status = 'pending' and locked_until is not null`);
}

export type SmsWorker = { kick: () => void; stop: () => Promise<void> };

/** Sends in the background: at once when kicked, and every `pollMs` for retries and other nodes' rows. */
export function startSmsWorker(ctx: AppContext, sender: SmsSender, pollMs = 5_000): SmsWorker {
  let running = true;
  let kicked = false;
  let wake: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;
  const loop = (async () => {
    while (running) {
      kicked = false;
      try {
        await drainSms(ctx, sender, () => !running);
      } catch (error) {
        ctx.log.error({ err: error }, 'sms worker pass failed');
      }
      if (!running) break;
      if (kicked) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, pollMs);
      });
      wake = null;
      if (timer) clearTimeout(timer);
    }
  })();
  return {
    kick: () => {
      kicked = true;
      wake?.();
    },
    stop: async () => {
      running = false;
      wake?.();
      await loop;
    },
  };
}
