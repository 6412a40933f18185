import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { mailOutbox } from '../db/schema';
import type { MailMessage } from './mailer';

// The mail outbox: an e-mail is a row written in the same transaction as the change that causes
// it, so a commit can never lose its mail and a rollback never sends one. The worker renders and
// delivers due rows with retries; a row is claimed with a lease (locked_until) under
// FOR UPDATE SKIP LOCKED, so several server processes on one PostgreSQL never send a row twice
// while both are alive. A pass costs the database one statement to claim a batch and one to
// record the sent rows (one more when some failed), not one per mail.

/**
 * What the rows of one delivery pass share: `memo` loads a value once per pass (e.g. the booking
 * that both of a new booking's mails render from), so a batch does not repeat its reads. A pass
 * lasts at most half a lease, so a memoized value is as current as the delivery itself.
 */
export type MailPass = { memo: <T>(key: string, load: () => Promise<T>) => Promise<T> };

/** Renders a queued row into a message at delivery; null when there is nobody to tell. */
export type MailRenderer = (
  ctx: AppContext,
  payload: Record<string, unknown>,
  recipients: string[],
  pass?: MailPass,
) => Promise<MailMessage | null>;
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
  next_attempt_at: Date | string;
  created_at: Date | string;
};

export type DeliveryResult = { sent: number; retried: number; failed: number };

/** A pass that has run this long stops sending and hands its unsent rows back (see deliverDueMail). */
export const MAX_PASS_MS = LEASE_MS / 2;
/** Outcomes are recorded together at the end of a pass, or before the next send once this much time has gone by. */
export const RECORD_AFTER_MS = 1_000;

function newPass(): MailPass {
  const loaded = new Map<string, Promise<unknown>>();
  return {
    memo: <T>(key: string, load: () => Promise<T>): Promise<T> => {
      const known = loaded.get(key);
      if (known) return known as Promise<T>;
      const value = load();
      loaded.set(key, value);
      // A failed read is not kept: the next row of the pass tries again.
      value.catch(() => loaded.delete(key));
      return value;
    },
  };
}

/**
 * Claims up to `limit` due rows in one statement, renders and sends each once, and records the
 * outcomes in one statement per kind of outcome at the end of the pass (sooner when sending is
 * slow: RECORD_AFTER_MS). A crash between sending and recording leaves the rows claimed; once their
 * lease ends they are sent again with the same Message-ID (and, for the local outbox, to the same
 * file), so the receiver sees one message.
 * A pass never outlives its lease: after MAX_PASS_MS (a slow SMTP server) it records what it has
 * sent and hands the rest back at once, so no other worker can claim a row this one may still send.
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
      returning id, kind, recipients, payload, attempts, next_attempt_at, created_at`,
    [leaseUntil.toISOString(), now.toISOString(), limit],
  );
  // RETURNING follows no order: oldest due first, as claimed.
  const time = (value: Date | string) => new Date(value).getTime();
  claimed.sort((a, b) => time(a.next_attempt_at) - time(b.next_attempt_at) || time(a.created_at) - time(b.created_at));
  const result: DeliveryResult = { sent: 0, retried: 0, failed: 0 };
  if (claimed.length === 0) return result;
  const pass = newPass();
  let sent: { ids: string[]; messageIds: Array<string | null> } = { ids: [], messageIds: [] };
  let unsent: { ids: string[]; statuses: string[]; nextAttempts: string[]; errors: string[] } = { ids: [], statuses: [], nextAttempts: [], errors: [] };
  let recordedAt = now.getTime();
  /** Writes the outcomes gathered since the last call: one UPDATE for the sent rows, one for the others. */
  const record = async () => {
    const [doneSent, doneUnsent] = [sent, unsent];
    sent = { ids: [], messageIds: [] };
    unsent = { ids: [], statuses: [], nextAttempts: [], errors: [] };
    recordedAt = ctx.clock.now().getTime();
    if (doneSent.ids.length > 0) {
      await ctx.database.query(
        `update mail_outbox m set status = 'sent', sent_at = $2, message_id = s.message_id, locked_until = null, last_error = null
           from unnest($1::uuid[], $3::text[]) as s(id, message_id)
          where m.id = s.id`,
        [doneSent.ids, ctx.clock.now().toISOString(), doneSent.messageIds],
      );
    }
    if (doneUnsent.ids.length > 0) {
      await ctx.database.query(
        `update mail_outbox m set status = u.status, next_attempt_at = u.next_attempt_at, locked_until = null, last_error = u.last_error
           from unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[]) as u(id, status, next_attempt_at, last_error)
          where m.id = u.id`,
        [doneUnsent.ids, doneUnsent.statuses, doneUnsent.nextAttempts, doneUnsent.errors],
      );
    }
  };
  for (const [index, row] of claimed.entries()) {
    const at = ctx.clock.now().getTime();
    if (isStopping() || at - now.getTime() >= MAX_PASS_MS) {
      // Shutting down (or the pass ran too long): the rows not yet sent go back at once, not after
      // the lease, for the next pass or node; their attempt is not counted.
      await record();
      const rest = claimed.slice(index).map((r) => r.id);
      await ctx.database.query(`update mail_outbox set locked_until = null, attempts = attempts - 1 where id = any($1::uuid[])`, [rest]);
      return result;
    }
    // Slow delivery (a remote SMTP server): what is sent is recorded before the next send, so a
    // send that hangs never holds back the record of the others.
    if (at - recordedAt >= RECORD_AFTER_MS) await record();
    try {
      const render = renderers[row.kind];
      if (!render) throw new Error(`No renderer for mail kind '${row.kind}'`);
      const message = await render(ctx, row.payload, row.recipients, pass);
      const info = message ? await ctx.mailer.send(message, { id: row.id, queuedAt: new Date(row.created_at) }) : null;
      sent.ids.push(row.id);
      sent.messageIds.push(info?.messageId ?? null);
      result.sent++;
    } catch (error) {
      const isLast = row.attempts >= MAX_MAIL_ATTEMPTS;
      unsent.ids.push(row.id);
      unsent.statuses.push(isLast ? 'failed' : 'pending');
      unsent.nextAttempts.push(new Date(ctx.clock.now().getTime() + retryDelayMs(row.attempts)).toISOString());
      unsent.errors.push(String((error as Error)?.message ?? error).replace(/\0/g, '').slice(0, 2000));
      ctx.log.warn({ err: error, mailId: row.id, kind: row.kind, attempts: row.attempts }, isLast ? 'mail failed for good' : 'mail delivery failed; will retry');
      if (isLast) result.failed++;
      else result.retried++;
    }
  }
  await record();
  return result;
}

/** Rows a draining pass claims at once (a pass is cut short after MAX_PASS_MS anyway). */
const DRAIN_BATCH = 50;

/** Delivers until nothing is due (tests, and the worker after a kick). */
export async function drainMail(ctx: AppContext, renderers: MailRenderers, isStopping: () => boolean = () => false): Promise<DeliveryResult> {
  const total: DeliveryResult = { sent: 0, retried: 0, failed: 0 };
  for (;;) {
    if (isStopping()) return total;
    const batch = await deliverDueMail(ctx, renderers, DRAIN_BATCH, isStopping);
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
