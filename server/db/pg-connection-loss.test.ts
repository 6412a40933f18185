import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';

// A PostgreSQL restart or failover closes every connection of the app's pool, idle ones
// included. The process must survive it and answer again on fresh connections, without being
// restarted itself. The server is shared with other test runs, so instead of restarting it the
// test ends every backend of its own database, which is what a restart does to the app.

describe.runIf(!!process.env.TEST_DATABASE_URL)('losing every database connection (PostgreSQL)', () => {
  let t: TestApp;
  const unhandled: unknown[] = [];
  const onUnhandled = (error: unknown) => unhandled.push(error);

  beforeAll(async () => {
    t = await createTestApp('postgres');
    process.on('uncaughtException', onUnhandled);
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUnhandled);
    process.off('unhandledRejection', onUnhandled);
    await t.close();
  });

  it('survives the server closing its connections and answers again', async () => {
    // Warm the pool: several idle connections.
    await Promise.all(Array.from({ length: 5 }, () => t.app.inject({ method: 'GET', url: '/api/public/booking-info' })));
    const [{ name }] = await t.ctx.database.query<{ name: string }>('select current_database() as name');
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const killed = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      expect(killed.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // Let the pool notice the closed idle connections (their 'error' events).
    await new Promise((resolve) => setImmediate(resolve));

    // The next requests may meet a dead connection once; they must get answers again without a restart.
    let answered = false;
    for (let attempt = 0; attempt < 5 && !answered; attempt++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/public/booking-info' });
      answered = res.statusCode === 200;
    }
    expect(answered).toBe(true);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json().database.reachable).toBe(true);
    // The realtime LISTEN connection was killed too: health says so until the hub has reconnected
    // (after 1 s, then 2, 5, 10 s), then reports everything up again.
    await vi.waitFor(
      async () => {
        const again = await t.app.inject({ method: 'GET', url: '/api/health' });
        expect(again.statusCode).toBe(200);
        expect(again.json().realtime.status).toBe('up');
      },
      { timeout: 20_000, interval: 250 },
    );
    expect(unhandled).toEqual([]);
  });
});
