import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_HEADERS, webhookRetryDelayMs } from '../../domain/webhooks';
import { startJobRunner } from '../jobs/job-runner';
import { addMember, bearer, createOrg, createUser, signIn } from '../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import { startTestReceiver, type TestReceiver } from './test-receiver';
import { enqueueDeliveries, startWebhookWorker, WEBHOOK_LEASE_MS, type WebhookWorker } from './webhook-delivery';

// Issue 21 item 2 and issue 22 item 16: the webhook worker after a crash and on time.
// - A dead worker (a killed process) leaves its claimed rows leased; nothing else waits for it, and
//   a new worker delivers them once the lease ends — within 30 s — with the same event id.
// - A retry runs at the next-attempt time the delivery log shows (the worker wakes for it), not at
//   the next minute's tick.
// The clock is the test's (frozen, moved by hand); the worker's wait is the test's too: it records
// how long the worker asks to sleep and wakes it when the test has moved the clock.

const NOW = '2026-11-23T00:00:00Z';
/** The promise of issue 21: deliveries resume within this long of a restart. */
const RESUME_BOUND_MS = 30_000;

/** Polls `check` until true, at most `timeoutMs` (real time); never a fixed sleep. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A sleep the test controls: records each requested wait, ends it when told. */
function controlledSleep() {
  const waits: number[] = [];
  let release: (() => void) | null = null;
  return {
    waits,
    sleep: (ms: number) => {
      waits.push(ms);
      return new Promise<void>((resolve) => (release = resolve));
    },
    /** Ends the current wait and resolves once the worker asks for its next one. */
    async wakeAndWaitForNext() {
      const count = waits.length;
      const r = release;
      release = null;
      r?.();
      await until(() => waits.length > count, 'the worker to ask for its next wait');
      return waits.at(-1)!;
    },
  };
}

describe.each(databaseKinds)('webhook worker on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let admin: Record<string, string>;
  let receiver: TestReceiver;
  let worker: WebhookWorker | null = null;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const endpoint = async () => {
    const res = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/webhooks`, headers: admin, payload: { url: receiver.url, events: ['booking.status_changed'] } });
    expect(res.statusCode).toBe(201);
    return res.json().endpoint.id as string;
  };
  /** Event ids by label (the column is a uuid). */
  const events = new Map<string, string>();
  const ev = (label: string) => events.get(label) ?? events.set(label, randomUUID()).get(label)!;
  const labels = () => receiver.received.map((h) => [...events].find(([, id]) => id === h.headers[WEBHOOK_HEADERS.eventId])?.[0]);
  const enqueue = async (endpointId: string, label: string) => {
    const eventId = ev(label);
    const [id] = await t.ctx.database.db.transaction((tx) =>
      enqueueDeliveries(tx, t.clock.now(), [{ orgId, endpointId, eventType: 'booking.status_changed', eventId, url: receiver.url, body: JSON.stringify({ id: eventId }) }]),
    );
    return id!;
  };
  const log = async (endpointId: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/orgs/${orgId}/webhooks/${endpointId}/deliveries`, headers: admin });
    expect(res.statusCode).toBe(200);
    return res.json().items as Array<{ id: string; status: string; attempts: number; nextAttemptAt: string | null; lastAttemptAt: string | null }>;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    orgId = (await createOrg(t.ctx.database, { name: 'Worker Org' })).id;
    const a = await createUser(t.ctx.database, { email: 'worker-admin@example.test' });
    await addMember(t.ctx.database, orgId, a.id, 'org_admin');
    admin = bearer(await signIn(t.app, a.email));
    receiver = await startTestReceiver();
    await query(`insert into platform_settings (key, value) values ('platform.config', '{"allowPrivateWebhookTargets": true}'::jsonb)
                 on conflict (key) do update set value = platform_settings.value || excluded.value`);
  });
  afterEach(async () => {
    await worker?.stop();
    worker = null;
    receiver.reset();
    receiver.respondWith(200);
    await query('delete from webhook_endpoints');
    t.clock.set(NOW);
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  it("a dead worker's claim holds its delivery no longer than the lease; a new worker then delivers it, same event id", async () => {
    expect(WEBHOOK_LEASE_MS).toBeLessThanOrEqual(RESUME_BOUND_MS);
    const endpointId = await endpoint();
    const held = await enqueue(endpointId, 'evt-crash-1');
    // What a worker killed mid-post leaves behind (on PostgreSQL another node's claim looks the same): claimed, attempt counted, never recorded.
    await query(`update webhook_deliveries set locked_until = $1, attempts = attempts + 1 where id = $2`, [new Date(t.clock.now().getTime() + WEBHOOK_LEASE_MS).toISOString(), held]);
    // A delivery queued after the crash is not blocked by it: the new worker delivers it at once.
    const fresh = await enqueue(endpointId, 'evt-after-crash');
    const timer = controlledSleep();
    worker = startWebhookWorker(t.ctx, { sleep: timer.sleep, pollMs: 10 * 60_000 });
    await until(() => timer.waits.length === 1, 'the first pass');
    expect(labels()).toEqual(['evt-after-crash']);
    // It sleeps exactly until the dead worker's lease ends (not a poll interval, not 15 minutes).
    expect(timer.waits[0]).toBe(WEBHOOK_LEASE_MS);
    t.clock.advance(WEBHOOK_LEASE_MS - 1);
    expect(await timer.wakeAndWaitForNext()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    t.clock.advance(1);
    await timer.wakeAndWaitForNext();
    // Sent again: the same event id and delivery id, so a receiver that got the first post drops it.
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers[WEBHOOK_HEADERS.eventId]).toBe(ev('evt-crash-1'));
    expect(receiver.received[1]!.headers[WEBHOOK_HEADERS.delivery]).toBe(held);
    const rows = await query<{ id: string; status: string; attempts: number }>(`select id, status, attempts from webhook_deliveries where id = any($1::uuid[]) order by attempts`, [[held, fresh]]);
    expect(rows).toEqual([
      { id: fresh, status: 'delivered', attempts: 1 },
      { id: held, status: 'delivered', attempts: 2 },
    ]);
  });

  it('a live worker renews its lease while it posts, so no other worker takes its rows', async () => {
    const endpointId = await endpoint();
    const id = await enqueue(endpointId, 'evt-slow');
    receiver.respondWith(200);
    // Two workers over the same rows (two server processes): each delivery is posted once.
    const a = startWebhookWorker(t.ctx, { pollMs: 50 });
    const b = startWebhookWorker(t.ctx, { pollMs: 50 });
    try {
      await until(async () => (await query<{ status: string }>(`select status from webhook_deliveries where id = $1`, [id]))[0]?.status === 'delivered', 'the delivery');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect(labels()).toEqual(['evt-slow']);
  });

  it('runs a retry at the next-attempt time the delivery log shows (issue 22 item 16)', async () => {
    const endpointId = await endpoint();
    receiver.respondWith(500);
    const id = await enqueue(endpointId, 'evt-retry');
    const timer = controlledSleep();
    // The idle wait is long: only the due time can wake the worker on time.
    worker = startWebhookWorker(t.ctx, { sleep: timer.sleep, pollMs: 10 * 60_000 });
    await until(() => timer.waits.length === 1, 'the first pass');
    const [first] = await log(endpointId);
    expect(first).toMatchObject({ id, status: 'pending', attempts: 1 });
    const shown = Date.parse(first!.nextAttemptAt!);
    expect(shown - Date.parse(NOW)).toBe(webhookRetryDelayMs(1));
    // The worker asks to wake exactly then.
    expect(timer.waits[0]).toBe(shown - t.clock.now().getTime());
    receiver.respondWith(200);
    t.clock.set(new Date(shown - 1));
    await timer.wakeAndWaitForNext();
    expect(receiver.received).toHaveLength(1);
    t.clock.set(new Date(shown));
    await timer.wakeAndWaitForNext();
    expect(receiver.received).toHaveLength(2);
    // Sent at the shown time: its signed timestamp and the log's last attempt say so.
    expect(Number(receiver.received[1]!.headers[WEBHOOK_HEADERS.timestamp])).toBe(Math.floor(shown / 1000));
    const [after] = await log(endpointId);
    expect(after).toMatchObject({ status: 'delivered', attempts: 2, lastAttemptAt: new Date(shown).toISOString() });
  });

  it('the job runner on the real clock delivers a commit at once, and a dead claim at restart (PGlite) or as its lease ends (PostgreSQL)', async () => {
    const endpointId = await endpoint();
    const realClock = t.ctx.clock;
    t.ctx.clock = { now: () => new Date() };
    try {
      const held = await enqueue(endpointId, 'evt-real-crash');
      const leaseEnd = Date.now() + 1_500; // a worker that died 18.5 s ago
      await query(`update webhook_deliveries set locked_until = $1, attempts = attempts + 1 where id = $2`, [new Date(leaseEnd).toISOString(), held]);
      const runner = await startJobRunner(t.ctx, { schedule: false });
      try {
        await enqueue(endpointId, 'evt-real-fresh');
        await runner.deliverWebhooksNow();
        await until(() => receiver.received.length >= 1, 'the fresh delivery', RESUME_BOUND_MS);
        await until(() => receiver.received.length >= 2, 'the dead claim', RESUME_BOUND_MS);
        const arrivedAt = Date.now();
        if (kind === 'pglite') {
          // The embedded database has one process (the data-directory lock): a restart frees its own old claims at once.
          expect(labels().sort()).toEqual(['evt-real-crash', 'evt-real-fresh']);
          expect(arrivedAt).toBeLessThan(leaseEnd);
        } else {
          // PostgreSQL: the claim may be another live node's, so it is waited for — until its lease ends, and no longer.
          expect(labels()).toEqual(['evt-real-fresh', 'evt-real-crash']);
          expect(arrivedAt).toBeGreaterThanOrEqual(leaseEnd);
          // Woken by the lease's end, not by the 5-second idle poll or a minute's tick.
          expect(arrivedAt - leaseEnd).toBeLessThan(1_000);
        }
      } finally {
        await runner.stop();
      }
    } finally {
      t.ctx.clock = realClock;
    }
  });
});
