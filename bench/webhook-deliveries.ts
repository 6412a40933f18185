// Webhook deliveries through the job runner: N signed deliveries queued in the outbox (as booking
// changes queue them), one kick, and the webhook worker drains them to a local receiver (an HTTP
// server on 127.0.0.1 answering 200, in this process) — claim under lease, sign, POST, record.
// Timed from the kick until every row is recorded delivered. PostgreSQL first, then PGlite.
// Prints `webhook deliveries: N/s` (PostgreSQL) and `webhook deliveries (PGlite): N/s`.
// Run alone: npx tsx bench/webhook-deliveries.ts
// Knobs: BENCH_WEBHOOK_DELIVERIES (default 5000).
import { randomUUID } from 'node:crypto';
import type { DatabaseKind } from '../server/db/client';
import { startJobRunner } from '../server/jobs/job-runner';
import { encryptSecret } from '../server/delivery/secret-box';
import { newSigningSecret } from '../server/delivery/signature';
import { startTestReceiver } from '../server/delivery/test-receiver';
import { enqueueDeliveries } from '../server/delivery/webhook-delivery';
import { eventEnvelope } from '../server/delivery/event-envelope';
import { webhookEndpoints } from '../server/db/schema';
import { createOrg } from '../server/test/fixtures';
import { openBench } from './lib/bench-data';
import { envInt } from './lib/stats';

const total = envInt('BENCH_WEBHOOK_DELIVERIES', 5000);

async function run(kind: DatabaseKind): Promise<number> {
  const t = await openBench(kind);
  const receiver = await startTestReceiver({ record: false });
  try {
    const { ctx } = t;
    await ctx.database.query(
      `insert into platform_settings (key, value) values ('platform.config', '{"allowPrivateWebhookTargets": true}'::jsonb)
       on conflict (key) do update set value = platform_settings.value || excluded.value`,
    );
    const org = await createOrg(ctx.database, { name: `Webhook Bench ${kind}` });
    const secret = newSigningSecret();
    const [endpoint] = await ctx.database.db
      .insert(webhookEndpoints)
      .values({ orgId: org.id, url: receiver.url, events: ['booking.status_changed'], secretEnc: await encryptSecret(ctx, secret), secretHint: secret.slice(-4) })
      .returning();
    const now = ctx.clock.now();
    for (let start = 0; start < total; start += 500) {
      const count = Math.min(500, total - start);
      await ctx.database.db.transaction((tx) =>
        enqueueDeliveries(
          tx,
          now,
          Array.from({ length: count }, (_, i) => {
            const eventId = randomUUID();
            return {
              orgId: org.id,
              endpointId: endpoint!.id,
              eventType: 'booking.status_changed',
              eventId,
              url: receiver.url,
              body: eventEnvelope(eventId, 'booking.status_changed', org.id, now, {
                previousStatus: 'pending',
                booking: { id: randomUUID(), reference: `TSR-BENCH-${start + i}`, status: 'approved', siteName: 'North Terminal', bayName: 'B-10' },
              }),
            };
          }),
        ),
      );
    }
    const runner = await startJobRunner(ctx, { schedule: false, pollingIntervalSeconds: 0.5 });
    try {
      const started = performance.now();
      await runner.deliverWebhooksNow();
      await receiver.waitFor(total);
      // Done when every outcome is recorded, not only posted.
      for (;;) {
        const [row] = await ctx.database.query<{ n: number }>(`select count(*)::int as n from webhook_deliveries where status = 'delivered'`);
        if (row!.n >= total) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const seconds = (performance.now() - started) / 1000;
      const [failed] = await ctx.database.query<{ n: number }>(`select count(*)::int as n from webhook_deliveries where status <> 'delivered'`);
      if (failed!.n > 0) throw new Error(`${failed!.n} deliveries not delivered`);
      return total / seconds;
    } finally {
      await runner.stop();
    }
  } finally {
    await receiver.close();
    await t.close();
  }
}

try {
  const pgRate = await run('postgres');
  console.log(`webhook deliveries: ${Math.round(pgRate)}/s (${total} signed POSTs to a local receiver through the job runner, PostgreSQL)`);
  const pgliteRate = await run('pglite');
  console.log(`webhook deliveries (PGlite): ${Math.round(pgliteRate)}/s (${total}, embedded database)`);
} catch (error) {
  console.log(`FAILED webhook deliveries: ${(error as Error).message}`);
  process.exitCode = 1;
}
