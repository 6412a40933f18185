import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client';
import { createTestApp, type TestApp } from '../test/harness';
import { postgresRateLimitStore } from './rate-limit-store';

// Per-IP limits shared by every node on one PostgreSQL (issue 23): two connections standing for two
// nodes count into one window, and an app on PostgreSQL refuses past the limit from its counts there.

type Incr = { current: number; ttl: number };

describe.runIf(process.env.TEST_DATABASE_URL)('per-IP limits in PostgreSQL', () => {
  let t: TestApp;
  let other: Database;
  beforeAll(async () => {
    t = await createTestApp('postgres', { env: { RATE_LIMIT_ALLOW_LIST: '' } });
    other = await openDatabase({ databaseUrl: t.ctx.database.pool!.options.connectionString! });
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  const incr = (database: Database, key: string, windowMs = 60_000) => {
    const Store = postgresRateLimitStore(database);
    const store = new Store().child({ routeInfo: { method: 'POST', url: '/api/x' } });
    return new Promise<Incr>((resolve, reject) => store.incr(key, (error, result) => (error ? reject(error) : resolve(result!)), windowMs));
  };

  it('counts the requests of two nodes in one window, concurrently, without losing one', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => incr(i % 2 ? other : t.ctx.database, '198.51.100.1')));
    expect(results.map((r) => r.current).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(results.every((r) => r.ttl > 0 && r.ttl <= 60_000)).toBe(true);
    // Another address, and the same address on another route, count apart.
    expect((await incr(other, '198.51.100.2')).current).toBe(1);
  });

  it('starts a new window once the last one has passed', async () => {
    expect((await incr(t.ctx.database, '198.51.100.3', 1)).current).toBe(1);
    await t.ctx.database.query(`update rate_limit_hits set reset_at = now() - interval '1 second' where key like '%198.51.100.3'`);
    expect((await incr(other, '198.51.100.3', 60_000))).toMatchObject({ current: 1 });
  });

  it('refuses a route past its limit from the shared counts (429), whichever node counted them', async () => {
    // POST /api/auth/recover allows 10 a minute per address; 7 of them were counted by "another node".
    for (let i = 0; i < 7; i++) await incr(other, '203.0.113.9').catch(() => undefined);
    await t.ctx.database.query(`update rate_limit_hits set key = replace(key, 'POST/api/x|', 'POST/api/auth/recover|') where key like '%203.0.113.9'`);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/recover', remoteAddress: '203.0.113.9', payload: { email: 'someone@example.test' } });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });
});
