import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  WEBHOOK_DISABLE_AFTER_FAILURES,
  WEBHOOK_HEADERS,
  WEBHOOK_MAX_ATTEMPTS,
  webhookRetryDelayMs,
  type TsrLinkSystem,
} from '../../domain/webhooks';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { tsrConnections, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { enqueueMail } from '../mail/outbox';
import { writeAudit } from '../audit/write-audit';
import { listOrgAdminEmails } from '../mail/recipients';
import { getPlatformConfig } from '../platform-config';
import { decryptWith, encryptionKey } from './secret-box';
import { signatureHeader } from './signature';
import { guardedPost, type GuardOptions, type PostResult } from './url-guard';
import { WEBHOOK_DISABLED_MAIL_KIND } from './webhook-mail';
import { tsrAuthHeaders, type TsrCredentials } from './tsr-adapters';

// The webhook outbox (decision 021). A delivery is a row written in the transaction of the change
// that causes it; every server process runs a delivery worker (startWebhookWorker) that claims due
// rows under a short lease (FOR UPDATE SKIP LOCKED, as the mail outbox), posts each through the
// SSRF guard, signed, and records the outcome: delivered; or retried with exponential back-off up
// to its attempt cap; or failed for good, which disables the endpoint and e-mails the
// organization's admins.
//
// Crash safety (issue 21 item 2, decision 032): no queue job or lock outside the rows themselves.
// A worker renews the lease of the rows it is posting every few seconds; a killed process stops
// renewing, so its rows are free to any other worker (or the restarted one) LEASE_MS after it
// died, and nothing else waits for it. A post that reached its receiver just before the crash is
// sent again — at most once per lease, within the delivery's attempt cap, with the same event id
// and delivery id (Baywise-Event-Id, Baywise-Delivery) for the receiver to drop.
//
// Timing (issue 22 item 16): the worker sleeps until the earliest due row (a retry's
// next_attempt_at, or a dead worker's lease end), at most `pollMs`, so a retry runs at the time
// the delivery log shows, not at the next minute's tick.
//
// The row is generic so other senders can enqueue through it: an SSC `appointment-changed`
// callback is a row of kind 'ssc' without an endpoint, carrying its URL, headers, body, event type
// and (encrypted) signing secret — see enqueueDeliveries.

export type DeliveryKind = 'webhook' | 'ssc' | 'tsr';

export type QueuedDelivery = {
  orgId: string;
  kind?: DeliveryKind;
  /** The organization's endpoint (kind 'webhook'): its current URL and secret are used at delivery. */
  endpointId?: string | null;
  /** Kind 'tsr': the TSR connection whose credentials authenticate the request. */
  connectionId?: string | null;
  /** Kind 'ssc': the carrier's subscription (its log on the Integrations screen). */
  subscriptionId?: string | null;
  /** The booking the delivery reports (the logs name it). */
  bookingId?: string | null;
  eventType: string;
  /** The event's identity (a fresh one when omitted). */
  eventId?: string;
  url: string;
  headers?: Record<string, string>;
  /** The exact bytes posted and signed. */
  body: string;
  /** For rows without an endpoint: the secret sealed with encryptSecret() BEFORE the transaction (PGlite has one connection). */
  signingSecretEnc?: string | null;
  maxAttempts?: number;
  redeliveryOf?: string | null;
};

/** Queues deliveries inside the caller's transaction; wake the runner after commit (kickWebhookDeliveries). */
export async function enqueueDeliveries(tx: Tx, now: Date, rows: QueuedDelivery[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await tx
    .insert(webhookDeliveries)
    .values(
      rows.map((row) => ({
        orgId: row.orgId,
        kind: row.kind ?? 'webhook',
        endpointId: row.endpointId ?? null,
        connectionId: row.connectionId ?? null,
        subscriptionId: row.subscriptionId ?? null,
        bookingId: row.bookingId ?? null,
        eventType: row.eventType,
        eventId: row.eventId ?? randomUUID(),
        url: row.url,
        headers: row.headers ?? {},
        body: row.body,
        signingSecretEnc: row.signingSecretEnc ?? null,
        maxAttempts: row.maxAttempts ?? WEBHOOK_MAX_ATTEMPTS,
        redeliveryOf: row.redeliveryOf ?? null,
        nextAttemptAt: now,
        createdAt: now,
      })),
    )
    .returning({ id: webhookDeliveries.id });
  return inserted.map((r) => r.id);
}

// --- Waking the job runner after a commit ----------------------------------------------------------

const kickers = new WeakMap<object, () => void>();

/** The job runner registers how to wake its webhook worker for this context. */
export function registerWebhookKicker(ctx: AppContext, kick: (() => void) | null): void {
  if (kick) kickers.set(ctx, kick);
  else kickers.delete(ctx);
}

/** After a commit that queued deliveries: the runner delivers at once (else at its next tick). */
export function kickWebhookDeliveries(ctx: AppContext): void {
  kickers.get(ctx)?.();
}

// --- Delivery ---------------------------------------------------------------------------------------

/** How long a claimed row stays with its worker unless renewed: the longest a dead worker holds a delivery. */
export const WEBHOOK_LEASE_MS = 20_000;
/** How often a live worker renews the lease of the rows it is posting. */
const LEASE_RENEW_MS = 5_000;
/** How long an idle worker waits at most before looking again (deliveries queued by other nodes). */
export const WEBHOOK_POLL_MS = 5_000;
/** Posts in flight at once per worker. */
const CONCURRENCY = 16;

type ClaimedRow = {
  id: string;
  org_id: string;
  kind: DeliveryKind;
  endpoint_id: string | null;
  connection_id: string | null;
  event_type: string;
  event_id: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  signing_secret_enc: string | null;
  attempts: number;
  max_attempts: number;
};

export type DeliveryPass = { delivered: number; retried: number; failed: number; disabled: number };

export type DeliveryOptions = {
  limit?: number;
  /** Tests: a resolver for host names (the SSRF guard's). */
  resolve?: GuardOptions['resolve'];
  timeoutMs?: number;
};

// Keep-alive sockets per process: a busy receiver is not reconnected for every post.
const agents = { http: new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY }), https: new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY }) };

/** Claims up to `limit` due rows, posts them, records each outcome. */
export async function deliverDueWebhooks(ctx: AppContext, options: DeliveryOptions = {}): Promise<DeliveryPass> {
  const now = ctx.clock.now();
  const claimed = await ctx.database.query<ClaimedRow>(
    `update webhook_deliveries set locked_until = $1, attempts = attempts + 1
      where id in (
        select d.id from webhook_deliveries d
          left join webhook_endpoints e on e.id = d.endpoint_id
         where d.status = 'pending' and d.next_attempt_at <= $2 and (d.locked_until is null or d.locked_until <= $2)
           and (d.endpoint_id is null or e.status = 'active')
         order by d.next_attempt_at, d.created_at
         limit $3
         for update of d skip locked)
      returning id, org_id, kind, endpoint_id, connection_id, event_type, event_id, url, headers, body, signing_secret_enc, attempts, max_attempts`,
    [new Date(now.getTime() + WEBHOOK_LEASE_MS).toISOString(), now.toISOString(), options.limit ?? 100],
  );
  const pass: DeliveryPass = { delivered: 0, retried: 0, failed: 0, disabled: 0 };
  if (claimed.length === 0) return pass;
  // While this pass posts, its rows stay ours; once the process dies they are free within the lease.
  const ids = claimed.map((r) => r.id);
  const renew = setInterval(() => {
    ctx.database
      .query(`update webhook_deliveries set locked_until = $1 where id = any($2::uuid[]) and status = 'pending' and locked_until is not null`, [
        new Date(ctx.clock.now().getTime() + WEBHOOK_LEASE_MS).toISOString(),
        ids,
      ])
      .catch((error: Error) => ctx.log.warn({ reason: error.message }, 'could not renew webhook leases'));
  }, LEASE_RENEW_MS);
  try {
    await postClaimed(ctx, claimed, pass, options);
  } finally {
    clearInterval(renew);
  }
  return pass;
}

async function postClaimed(ctx: AppContext, claimed: ClaimedRow[], pass: DeliveryPass, options: DeliveryOptions): Promise<void> {
  const config = await getPlatformConfig(ctx.database.db);
  const guard: GuardOptions = { allowPrivate: config.allowPrivateWebhookTargets, resolve: options.resolve };
  const key = await encryptionKey(ctx);
  const endpointIds = [...new Set(claimed.map((r) => r.endpoint_id).filter((id): id is string => id !== null))];
  const endpoints = new Map(
    endpointIds.length === 0
      ? []
      : (
          await ctx.database.db
            .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, secretEnc: webhookEndpoints.secretEnc })
            .from(webhookEndpoints)
            .where(inArray(webhookEndpoints.id, endpointIds))
        ).map((e) => [e.id, e]),
  );

  // Successes are recorded together after the batch (one statement); failures one by one, each
  // with its back-off, its endpoint's count and perhaps the disabling (rare, and transactional).
  const delivered: Array<{ row: ClaimedRow; result: PostResult; at: Date }> = [];
  const connectionIds = [...new Set(claimed.map((r) => r.connection_id).filter((id): id is string => id !== null))];
  const connections = new Map(
    connectionIds.length === 0
      ? []
      : (
          await ctx.database.db
            .select({ id: tsrConnections.id, system: tsrConnections.system, baseUrl: tsrConnections.baseUrl, enabled: tsrConnections.enabled, credentialsEnc: tsrConnections.credentialsEnc })
            .from(tsrConnections)
            .where(inArray(tsrConnections.id, connectionIds))
        ).map((c) => [c.id, c]),
  );

  const deliverOne = async (row: ClaimedRow) => {
    const endpoint = row.endpoint_id ? endpoints.get(row.endpoint_id) : undefined;
    const connection = row.connection_id ? connections.get(row.connection_id) : undefined;
    const sealed = endpoint?.secretEnc ?? row.signing_secret_enc;
    const url = endpoint?.url ?? row.url;
    let result: PostResult;
    try {
      const timestamp = Math.floor(ctx.clock.now().getTime() / 1000);
      const headers: Record<string, string> = {
        ...row.headers,
        [WEBHOOK_HEADERS.event]: row.event_type,
        [WEBHOOK_HEADERS.eventId]: row.event_id,
        [WEBHOOK_HEADERS.delivery]: row.id,
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      };
      if (sealed) headers[WEBHOOK_HEADERS.signature] = signatureHeader(decryptWith(key, sealed), timestamp, row.body);
      // A TSR work note: the system's own method and authentication (tsr-adapters.ts).
      let method: 'POST' | 'PATCH' = 'POST';
      if (row.kind === 'tsr') {
        if (!connection) throw new Error('The TSR connection was removed');
        // The note's URL was made from the base URL at the time: the credentials stored now go
        // only to the host they were given for, and not while the connection is off.
        if (!connection.enabled) throw new Error('The TSR connection is off');
        if (new URL(url).origin !== new URL(connection.baseUrl).origin) throw new Error('The TSR connection now points at another host');
        method = headers['x-http-method'] === 'PATCH' ? 'PATCH' : 'POST';
        delete headers['x-http-method'];
        Object.assign(headers, tsrAuthHeaders(connection.system as TsrLinkSystem, JSON.parse(decryptWith(key, connection.credentialsEnc)) as TsrCredentials));
      }
      result = await guardedPost(url, headers, row.body, { ...guard, method, timeoutMs: options.timeoutMs, agent: agents });
    } catch (error) {
      result = { statusCode: null, durationMs: 0, error: String((error as Error)?.message ?? error) };
    }
    if (result.error) await recordFailure(ctx, row, result, pass);
    else delivered.push({ row, result, at: ctx.clock.now() });
  };

  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, claimed.length) }, async () => {
      while (next < claimed.length) await deliverOne(claimed[next++]!);
    }),
  );
  await recordDelivered(ctx, delivered);
  pass.delivered += delivered.length;
}

async function recordDelivered(ctx: AppContext, delivered: Array<{ row: ClaimedRow; result: PostResult; at: Date }>): Promise<void> {
  if (delivered.length === 0) return;
  await ctx.database.query(
    `update webhook_deliveries d
        set status = 'delivered', delivered_at = v.at, last_attempt_at = v.at, last_status_code = v.code,
            last_duration_ms = v.duration, last_error = null, locked_until = null
       from unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::int[], $5::int[]) as v(org_id, id, at, code, duration)
      where d.org_id = v.org_id and d.id = v.id`,
    [
      delivered.map((d) => d.row.org_id),
      delivered.map((d) => d.row.id),
      delivered.map((d) => d.at.toISOString()),
      delivered.map((d) => d.result.statusCode),
      delivered.map((d) => d.result.durationMs),
    ],
  );
  // A success ends an endpoint's run of failures (rows already at 0 are not touched, nor locked).
  const endpoints = new Map(delivered.filter((d) => d.row.endpoint_id !== null).map((d) => [d.row.endpoint_id!, d.row.org_id]));
  if (endpoints.size > 0) {
    await ctx.database.query(
      `update webhook_endpoints e set consecutive_failures = 0
         from unnest($1::uuid[], $2::uuid[]) as v(org_id, id)
        where e.org_id = v.org_id and e.id = v.id and e.consecutive_failures <> 0`,
      [[...endpoints.values()], [...endpoints.keys()]],
    );
  }
}

async function recordFailure(ctx: AppContext, row: ClaimedRow, result: PostResult, pass: DeliveryPass): Promise<void> {
  const now = ctx.clock.now();
  const error = (result.error ?? 'Failed').replace(/\0/g, '').slice(0, 500);
  const isLast = row.attempts >= row.max_attempts;
  const disabled = await ctx.database.db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({
        status: isLast ? 'failed' : 'pending',
        nextAttemptAt: isLast ? now : new Date(now.getTime() + webhookRetryDelayMs(row.attempts)),
        lastAttemptAt: now,
        lastStatusCode: result.statusCode,
        lastDurationMs: result.durationMs,
        lastError: error,
        lockedUntil: null,
      })
      .where(and(eq(webhookDeliveries.orgId, row.org_id), eq(webhookDeliveries.id, row.id)));
    if (!row.endpoint_id) return false;
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1` })
      .where(and(eq(webhookEndpoints.orgId, row.org_id), eq(webhookEndpoints.id, row.endpoint_id)))
      .returning({ failures: webhookEndpoints.consecutiveFailures, status: webhookEndpoints.status });
    if (!endpoint || endpoint.status !== 'active') return false;
    if (!isLast && endpoint.failures < WEBHOOK_DISABLE_AFTER_FAILURES) return false;
    const reason = isLast
      ? `A delivery failed ${row.attempts} times in a row (last: ${error})`
      : `${endpoint.failures} delivery attempts failed in a row (last: ${error})`;
    return disableEndpoint(ctx, tx, row.org_id, row.endpoint_id, reason, now);
  });
  if (isLast) pass.failed++;
  else pass.retried++;
  if (disabled) {
    pass.disabled++;
    ctx.mailWorker?.kick();
  }
  ctx.log.warn({ deliveryId: row.id, kind: row.kind, attempts: row.attempts, reason: error }, isLast ? 'webhook failed for good' : 'webhook delivery failed; will retry');
}

/** Disables an active endpoint (audited as the system, its admins e-mailed); false when it was not active. */
async function disableEndpoint(ctx: AppContext, tx: Tx, orgId: string, endpointId: string, reason: string, now: Date): Promise<boolean> {
  const [endpoint] = await tx
    .update(webhookEndpoints)
    .set({ status: 'disabled', disabledReason: reason, disabledAt: now, updatedAt: now })
    .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.status, 'active')))
    .returning({ url: webhookEndpoints.url });
  if (!endpoint) return false;
  await writeAudit(tx, {
    actor: null,
    anonymousRole: 'system',
    action: 'webhook.disabled',
    resourceType: 'webhook_endpoint',
    resourceId: endpointId,
    orgId,
    details: { url: endpoint.url, reason },
  });
  const admins = await listOrgAdminEmails(tx, orgId);
  if (admins.length > 0) {
    await enqueueMail(tx, now, [{ kind: WEBHOOK_DISABLED_MAIL_KIND, orgId, recipients: admins, payload: { endpointId, url: endpoint.url, reason, at: now.toISOString() } }]);
  }
  return true;
}

/** Delivers until nothing is due now (tests, the bench and each job of the runner). */
export async function drainWebhooks(ctx: AppContext, options: DeliveryOptions = {}): Promise<DeliveryPass> {
  const total: DeliveryPass = { delivered: 0, retried: 0, failed: 0, disabled: 0 };
  for (;;) {
    const pass = await deliverDueWebhooks(ctx, options);
    total.delivered += pass.delivered;
    total.retried += pass.retried;
    total.failed += pass.failed;
    total.disabled += pass.disabled;
    if (pass.delivered + pass.retried + pass.failed === 0) return total;
  }
}

/** When the earliest pending delivery is due (its retry time, or the end of a claim's lease); null when none is pending. */
export async function nextWebhookDueAt(ctx: AppContext): Promise<Date | null> {
  const [row] = await ctx.database.query<{ due: string | Date | null }>(
    `select min(greatest(d.next_attempt_at, coalesce(d.locked_until, d.next_attempt_at))) as due
       from webhook_deliveries d left join webhook_endpoints e on e.id = d.endpoint_id
      where d.status = 'pending' and (d.endpoint_id is null or e.status = 'active')`,
  );
  return row?.due ? new Date(row.due) : null;
}

export type WebhookWorker = { kick: () => void; stop: () => Promise<void> };

export type WebhookWorkerOptions = DeliveryOptions & {
  /** The longest idle wait (default WEBHOOK_POLL_MS). */
  pollMs?: number;
  /** Tests: how the worker waits `ms` (default a timer); a kick or stop ends the wait early either way. */
  sleep?: (ms: number) => Promise<void>;
};

/**
 * Delivers in the background, in every server process: at once when kicked (after a commit that
 * queued deliveries), when the earliest pending delivery falls due, and at least every `pollMs`.
 * Workers of several processes share the rows through their leases; none waits for another.
 */
export function startWebhookWorker(ctx: AppContext, options: WebhookWorkerOptions = {}): WebhookWorker {
  const pollMs = options.pollMs ?? WEBHOOK_POLL_MS;
  let running = true;
  let kicked = false;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    while (running) {
      kicked = false;
      let waitMs = pollMs;
      try {
        await drainWebhooks(ctx, options);
        const due = await nextWebhookDueAt(ctx);
        if (due) waitMs = Math.min(pollMs, Math.max(0, due.getTime() - ctx.clock.now().getTime()));
      } catch (error) {
        ctx.log.error({ err: error }, 'webhook worker pass failed');
      }
      if (!running) break;
      if (kicked) continue; // deliveries queued while this pass ran
      let timer: NodeJS.Timeout | null = null;
      await Promise.race([
        options.sleep ? options.sleep(waitMs) : new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs))),
        new Promise<void>((resolve) => (wake = resolve)),
      ]);
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

/** Frees rows this process claimed before it stopped (embedded database only: one process). */
export async function releaseStaleWebhookClaims(ctx: AppContext): Promise<void> {
  await ctx.database.db.execute(sql`update webhook_deliveries set locked_until = null where status = 'pending' and locked_until is not null`);
}
