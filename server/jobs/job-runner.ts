import PgBoss from 'pg-boss';
import type { AppContext } from '../context';
import type { Database } from '../db/client';
import { withStartupLock } from '../db/startup-lock';
import { extendBlackoutSeries } from './blackout-expansion';
import { sweepNoShows, sweepOverstays } from './booking-sweeps';
import { sendDueReminders } from './booking-reminders';
import { expandStandingBookings } from './standing-bookings';
import { issueMonthlyInvoices } from './monthly-invoices';
import { purgeExpiredLogs } from './retention';
import { registerWebhookKicker, releaseStaleWebhookClaims, startWebhookWorker, type WebhookWorkerOptions } from '../delivery/webhook-delivery';

// Background jobs on pg-boss (decision 008): its queue tables live in the `pgboss` schema of our
// own database, PGlite or PostgreSQL alike. A job is fetched with FOR UPDATE SKIP LOCKED, so of
// several server processes on one PostgreSQL exactly one runs it; a cron schedule is turned into
// one job per tick for all of them.

export const JOB_QUEUES = {
  bookingSweeps: 'booking-sweeps',
  bookingReminders: 'booking-reminders',
  blackoutExpansion: 'blackout-expansion',
  standingBookings: 'standing-bookings',
  monthlyInvoices: 'monthly-invoices',
  /** Removed (decision 032): deliveries have their own worker; the name is kept to delete the old queue. */
  webhookDeliveries: 'webhook-deliveries',
  logRetention: 'log-retention',
} as const;

/** pg-boss's SQL through our connection: a pool on PostgreSQL, the single session on PGlite. */
export function bossExecutor(database: Database): PgBoss.Db {
  if (database.pool) {
    const pool = database.pool;
    return { executeSql: (text, values) => pool.query(text, values) };
  }
  const pglite = database.pglite!;
  return {
    async executeSql(text, values) {
      // Its schema set-up sends several statements in one text, without parameters: PGlite's
      // exec runs those; everything with parameters is a single statement.
      if (values && values.length > 0) {
        const result = await pglite.query(text, values);
        return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
      }
      const results = await pglite.exec(text);
      const last = results.at(-1);
      return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
    },
  };
}

export type JobRunner = {
  boss: PgBoss;
  /** Runs the booking sweeps now, through the queue (tests, and the first tick after start). */
  sweepNow: () => Promise<string | null>;
  /** Wakes the webhook worker (what a commit that queued deliveries does). */
  deliverWebhooksNow: () => Promise<void>;
  stop: () => Promise<void>;
};

export type JobRunnerOptions = {
  /** How often idle workers look for jobs (seconds, pg-boss's minimum is 0.5). */
  pollingIntervalSeconds?: number;
  /** Off in tests that drive the sweeps themselves. */
  schedule?: boolean;
  /** The webhook worker's options (tests: its resolver, idle wait, sleep). */
  webhooks?: WebhookWorkerOptions;
};

export async function startJobRunner(ctx: AppContext, options: JobRunnerOptions = {}): Promise<JobRunner> {
  const boss = new PgBoss({
    db: bossExecutor(ctx.database),
    schema: 'pgboss',
    supervise: true,
    schedule: options.schedule ?? true,
    // Jobs of finished runs are kept a day for inspection, then removed.
    deleteAfterDays: 1,
  });
  boss.on('error', (error) => ctx.log.warn({ reason: error.message }, 'job runner error'));
  // pg-boss creates its schema and queues on start: one node at a time (nodes started together
  // deadlocked in its create_queue, or raced to create the schema).
  await withStartupLock(ctx.database, async () => {
    await boss.start();
    await boss.createQueue(JOB_QUEUES.bookingSweeps, { name: JOB_QUEUES.bookingSweeps, policy: 'singleton', retryLimit: 3, retryDelay: 10 });
    await boss.work(JOB_QUEUES.bookingSweeps, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 }, async () => {
      const noShows = await sweepNoShows(ctx);
      const overstays = await sweepOverstays(ctx);
      if (noShows + overstays > 0) ctx.log.info({ noShows, overstays }, 'booking sweeps moved bookings');
    });
    if (options.schedule ?? true) await boss.schedule(JOB_QUEUES.bookingSweeps, '* * * * *', {}, { tz: 'UTC' });
    // Reminders before the slot (decision 042): every minute; sent once each even when two nodes run it.
    await boss.createQueue(JOB_QUEUES.bookingReminders, { name: JOB_QUEUES.bookingReminders, policy: 'singleton', retryLimit: 3, retryDelay: 10 });
    await boss.work(JOB_QUEUES.bookingReminders, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 }, async () => {
      const sent = await sendDueReminders(ctx);
      if (sent.email + sent.sms > 0) ctx.log.info(sent, 'booking reminders queued');
    });
    if (options.schedule ?? true) await boss.schedule(JOB_QUEUES.bookingReminders, '* * * * *', {}, { tz: 'UTC' });
    // Recurring blackouts written up to the horizon as each site's day moves on (hourly: sites start their days at their own midnight).
    await boss.createQueue(JOB_QUEUES.blackoutExpansion, { name: JOB_QUEUES.blackoutExpansion, policy: 'singleton', retryLimit: 3, retryDelay: 60 });
    await boss.work(JOB_QUEUES.blackoutExpansion, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 }, async () => {
      await extendBlackoutSeries(ctx);
    });
    if (options.schedule ?? true) await boss.schedule(JOB_QUEUES.blackoutExpansion, '5 * * * *', {}, { tz: 'UTC' });
    // Standing bookings' dates booked weeks ahead (decision 045), hourly after the blackouts (a new blackout day is then a conflict, not a booking).
    await boss.createQueue(JOB_QUEUES.standingBookings, { name: JOB_QUEUES.standingBookings, policy: 'singleton', retryLimit: 3, retryDelay: 60 });
    await boss.work(JOB_QUEUES.standingBookings, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 }, async () => {
      await expandStandingBookings(ctx);
    });
    if (options.schedule ?? true) await boss.schedule(JOB_QUEUES.standingBookings, '15 * * * *', {}, { tz: 'UTC' });
    // The previous calendar month's invoices, at 00:10 UTC on the 1st (idempotent: one per
    // organization and month, whichever node runs it, however often; decision 022).
    await boss.createQueue(JOB_QUEUES.monthlyInvoices, { name: JOB_QUEUES.monthlyInvoices, policy: 'singleton', retryLimit: 5, retryDelay: 300 });
    await boss.work(JOB_QUEUES.monthlyInvoices, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 }, async () => {
      await issueMonthlyInvoices(ctx);
    });
    if (options.schedule ?? true) await boss.schedule(JOB_QUEUES.monthlyInvoices, '10 0 1 * *', {}, { tz: 'UTC' });
    // Error events and settled webhook deliveries past their window, daily (retention.ts).
    await boss.createQueue(JOB_QUEUES.logRetention, { name: JOB_QUEUES.logRetention, policy: 'singleton', retryLimit: 3, retryDelay: 300 });
    await boss.work(JOB_QUEUES.logRetention, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 }, async () => {
      await purgeExpiredLogs(ctx);
    });
    if (options.schedule ?? true) await boss.schedule(JOB_QUEUES.logRetention, '20 4 * * *', {}, { tz: 'UTC' });
    // Outbound webhooks (decisions 021, 032): not a pg-boss queue — its one active job, left
    // active by a killed process, held every delivery until pg-boss expired it (~15 minutes).
    // Each process runs its own worker over the outbox rows (webhook-delivery.ts); the queue and
    // schedule of earlier versions are removed.
    if (ctx.database.kind === 'pglite') await releaseStaleWebhookClaims(ctx);
    await boss.unschedule(JOB_QUEUES.webhookDeliveries);
    if (await boss.getQueue(JOB_QUEUES.webhookDeliveries)) await boss.deleteQueue(JOB_QUEUES.webhookDeliveries);
  });
  const webhookWorker = startWebhookWorker(ctx, options.webhooks);
  const deliverWebhooksNow = async () => {
    webhookWorker.kick();
  };
  registerWebhookKicker(ctx, () => webhookWorker.kick());
  return {
    boss,
    sweepNow: () => boss.send(JOB_QUEUES.bookingSweeps, {}),
    deliverWebhooksNow,
    stop: async () => {
      registerWebhookKicker(ctx, null);
      await webhookWorker.stop();
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
