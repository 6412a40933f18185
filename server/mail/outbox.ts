import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { mailOutbox } from '../db/schema';
import type { MailMessage } from './mailer';

// The mail outbox: an e-mail is a row written in the same transaction as the change that causes
// it, so a commit can never lose its mail and a rollback never sends one. The worker renders and
// delivers due rows with retries; a row is claimed with a lease (locked_until) under
// FOR UPDATE SKIP LOCKED, so several server processes on one PostgreSQL never send a row twice
// while both are alive.

/** Renders a queued row into a message at delivery; null when there is nobody to tell. */
export type MailRenderer = (ctx: AppContext, payload: Record<string, unknown>, recipients: string[]) => Promise<MailMessage | null>;
export type MailRenderers = Record<string, MailRenderer>;

export type QueuedMail = {
  kind: string;
  orgId?: string | null;
  recipients?: string[];
  payload: Record<string, unknown>;
};

/** Delivery attempts before a row is marked failed (about a day of back-off in all). */
export const MAX_MAIL_ATTEMPTS = 10;
/** How long a claimed row stays with its worker before another may take it (a dead worker's rows). */
const LEASE_MS = 2 * 60_000;

/** Back-off after the n-th failed attempt: 30 s, 1 min, 2 min … capped at 1 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/** Queues mail inside the caller's transaction. */
export async function enqueueMail(tx: Tx, now: Date, mails: QueuedMail[]): Promise<void> {
  if (mails.length === 0) return;
  await tx.insert(mailOutbox).values(
    mails.map((mail) => ({
      kind: mail.kind,
      orgId: mail.orgId ?? null,
      recipients: mail.recipients ?? [],
      payload: mail.payload,
      nextAttemptAt: now,
      createdAt: now,
    })),
  );
}

type ClaimedRow = {
  id: string;
  kind: string;
  recipients: string[];
  payload: Record<string, unknown>;
  attempts: number;
  created_at: Date | string;
};

export type DeliveryResult = { sent: number; retried: number; failed: number };

/**
 * Claims up to `limit` due rows, renders and sends each, and records the outcome. A crash
 * between sending and recording leaves the row claimed; once its lease ends it is sent again
 * with the same Message-ID (and, for the local outbox, to the same file), so the receiver sees
 * one message.
 */
export async function deliverDueMail(
  ctx: AppContext,
  renderers: MailRenderers,
  limit = 20,
  isStopping: () => boolean = () => false,
): Promise<DeliveryResult> {
  const now = ctx.clock.now();
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  const claimed = await ctx.database.query<ClaimedRow>(
    `update mail_outbox set locked_until = $1, attempts = attempts + 1
      where id in (
        select id from mail_outbox
         where status = 'pending' and next_attempt_at <= $2 and (locked_until is null or locked_until <= $2)
         order by next_attempt_at, created_at
         limit $3
         for update skip locked)
      returning id, kind, recipients, payload, attempts, created_at`,
    [leaseUntil.toISOString(), now.toISOString(), limit],
  );
  const result: DeliveryResult = { sent: 0, retried: 0, failed: 0 };
  for (const [index, row] of claimed.entries()) {
    if (isStopping()) {
      // Shutting down: the rows not yet sent go back at once (not after the lease) for the next node.
      const rest = claimed.slice(index).map((r) => r.id);
      await ctx.database.query(`update mail_outbox set locked_until = null, attempts = attempts - 1 where id = any($1::uuid[])`, [rest]);
      break;
    }
    try {
      const render = renderers[row.kind];
      if (!render) throw new Error(`No renderer for mail kind '${row.kind}'`);
      const message = await render(ctx, row.payload, row.recipients);
      const info = message ? await ctx.mailer.send(message, { id: row.id, queuedAt: new Date(row.created_at) }) : null;
      await ctx.database.query(
        `update mail_outbox set status = 'sent', sent_at = $2, message_id = $3, locked_until = null, last_error = null where id = $1`,
        [row.id, ctx.clock.now().toISOString(), info?.messageId ?? null],
      );
      result.sent++;
    } catch (error) {
      const isLast = row.attempts >= MAX_MAIL_ATTEMPTS;
      const reason = String((error as Error)?.message ?? error).replace(/\0/g, '').slice(0, 2000);
      await ctx.database.query(
        `update mail_outbox set status = $2, next_attempt_at = $3, locked_until = null, last_error = $4 where id = $1`,
        [row.id, isLast ? 'failed' : 'pending', new Date(ctx.clock.now().getTime() + retryDelayMs(row.attempts)).toISOString(), reason],
      );
      ctx.log.warn({ err: error, mailId: row.id, kind: row.kind, attempts: row.attempts }, isLast ? 'mail failed for good' : 'mail delivery failed; will retry');
      if (isLast) result.failed++;
      else result.retried++;
    }
  }
  return result;
}

/** Delivers until nothing is due (tests, and the worker after a kick). */
export async function drainMail(ctx: AppContext, renderers: MailRenderers, isStopping: () => boolean = () => false): Promise<DeliveryResult> {
  const total: DeliveryResult = { sent: 0, retried: 0, failed: 0 };
  for (;;) {
    if (isStopping()) return total;
    const batch = await deliverDueMail(ctx, renderers, 20, isStopping);
    total.sent += batch.sent;
    total.retried += batch.retried;
    total.failed += batch.failed;
    if (batch.sent + batch.retried + batch.failed === 0) return total;
  }
}

/**
 * Frees rows a previous run of this process claimed and never finished. Only for the embedded
 * database, where the data-directory lock guarantees that no other process is delivering.
 */
export async function releaseStaleClaims(ctx: AppContext): Promise<void> {
  await ctx.database.db.execute(sql`update mail_outbox set locked_until = null where status = 'pending' and locked_until is not null`);
}

export type MailWorker = { kick: () => void; stop: () => Promise<void> };

/**
 * Delivers in the background: at once when kicked (after a commit that queued mail), and every
 * `pollMs` for retries and for mail queued by other server processes.
 */
export function startMailWorker(ctx: AppContext, renderers: MailRenderers, pollMs = 5_000): MailWorker {
  let running = true;
  let kicked = false;
  let wake: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;
  const loop = (async () => {
    while (running) {
      kicked = false;
      try {
        // Stopping (SIGTERM) ends the pass after the message being sent; the rest stays queued.
        await drainMail(ctx, renderers, () => !running);
      } catch (error) {
        ctx.log.error({ err: error }, 'mail worker pass failed');
      }
      if (!running) break;
      if (kicked) continue; // mail queued while this pass ran
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
