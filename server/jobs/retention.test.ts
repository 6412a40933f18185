import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import { JOB_QUEUES, startJobRunner } from './job-runner';
import { ERROR_EVENT_RETENTION_DAYS, WEBHOOK_DELIVERY_RETENTION_DAYS, purgeExpiredLogs } from './retention';

// The daily clean-up: error events past 90 days and settled webhook deliveries past 30 days go;
// younger rows, pending deliveries of any age and the error groups' triage state stay.

const NOW = '2026-11-23T00:00:00Z';
const daysAgo = (days: number, extraMs = 0) => new Date(Date.parse(NOW) - days * 86_400_000 + extraMs).toISOString();

describe.each(databaseKinds)('log retention on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const errorEvent = (message: string, at: string) =>
    query(`insert into error_events (message, source, fingerprint, created_at) values ($1, 'server', 'f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0', $2)`, [message, at]);
  const delivery = (status: string, at: string) =>
    query(
      `insert into webhook_deliveries (org_id, kind, event_type, event_id, url, body, status, max_attempts, created_at)
       values ($1, 'webhook', 'booking.created', gen_random_uuid(), 'https://93.184.215.14/', '{}', $2, 6, $3)`,
      [orgId, status, at],
    );
  const messages = async () => (await query<{ message: string }>(`select message from error_events order by message`)).map((r) => r.message);
  const deliveries = async () => (await query<{ status: string; created_at: Date }>(`select status, created_at from webhook_deliveries order by created_at`)).map((r) => `${r.status}@${new Date(r.created_at).toISOString()}`);

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    orgId = (await createOrg(t.ctx.database, { name: 'Retention Org' })).id;
  });
  afterAll(() => t?.close());

  it('removes what is past its window, to the minute, and nothing else', async () => {
    await query(`insert into error_groups (fingerprint, status) values ('f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0', 'resolved')`);
    await errorEvent('old', daysAgo(ERROR_EVENT_RETENTION_DAYS, -60_000));
    await errorEvent('edge', daysAgo(ERROR_EVENT_RETENTION_DAYS, 60_000));
    await errorEvent('new', daysAgo(1));
    await delivery('delivered', daysAgo(WEBHOOK_DELIVERY_RETENTION_DAYS, -60_000));
    await delivery('failed', daysAgo(WEBHOOK_DELIVERY_RETENTION_DAYS + 5));
    await delivery('pending', daysAgo(WEBHOOK_DELIVERY_RETENTION_DAYS + 10));
    await delivery('delivered', daysAgo(WEBHOOK_DELIVERY_RETENTION_DAYS, 60_000));

    expect(await purgeExpiredLogs(t.ctx)).toEqual({ errorEvents: 1, webhookDeliveries: 2, rateLimitKeys: 0 });
    expect(await messages()).toEqual(['edge', 'new']);
    expect(await deliveries()).toEqual([`pending@${daysAgo(WEBHOOK_DELIVERY_RETENTION_DAYS + 10)}`, `delivered@${daysAgo(WEBHOOK_DELIVERY_RETENTION_DAYS, 60_000)}`]);
    expect(await query(`select status from error_groups`)).toEqual([{ status: 'resolved' }]);
    // A second run finds nothing more.
    expect(await purgeExpiredLogs(t.ctx)).toEqual({ errorEvents: 0, webhookDeliveries: 0, rateLimitKeys: 0 });
  });

  it('runs as a queued job', async () => {
    await errorEvent('ancient', daysAgo(400));
    const runner = await startJobRunner(t.ctx, { schedule: false, pollingIntervalSeconds: 0.5 });
    try {
      expect(await runner.boss.send(JOB_QUEUES.logRetention, {})).toBeTruthy();
      await expect.poll(messages, { timeout: 15_000, interval: 100 }).not.toContain('ancient');
    } finally {
      await runner.stop();
    }
  });
});
