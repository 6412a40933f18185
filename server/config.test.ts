import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { createTestApp } from './test/harness';

describe('TRUST_PROXY', () => {
  it('trusts no proxy by default and parses addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,::1' }).trustProxy).toEqual(['10.0.0.1', '10.1.0.0/16', '::1']);
  });

  it('stops the server at start with a clear message for a bad value', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY must list IP addresses or CIDR ranges/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/40' })).toThrow(/TRUST_PROXY/);
  });

  it("believes X-Forwarded-For only from a listed proxy", async () => {
    const t = await createTestApp('pglite', { env: { TRUST_PROXY: '198.51.100.0/24' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/token?grant_type=password',
          remoteAddress: '198.51.100.10', // our proxy, passing on 25 different clients
          headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
          payload: { email: `client${i}@example.test`, password: 'p' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.every((status) => status === 401)).toBe(true);
    } finally {
      await t.close();
    }
  });
});

describe('cluster settings', () => {
  it('defaults to one node of 10 connections, session pooling, documents where the database is', () => {
    const single = loadConfig({});
    expect(single).toMatchObject({ databasePoolSize: 10, databasePoolMode: 'session', documentStore: 'local', shutdownTimeoutMs: 10_000 });
    expect(single.nodeId).toMatch(/^[A-Za-z0-9._-]+-\d+$/);
    const server = loadConfig({ DATABASE_URL: 'postgres://db/app', NODE_ID: 'node-a', DATABASE_POOL_SIZE: '25' });
    expect(server).toMatchObject({ documentStore: 'database', nodeId: 'node-a', databasePoolSize: 25, databaseDirectUrl: 'postgres://db/app' });
  });

  it('refuses transaction pooling without a direct URL for LISTEN, and stores that cannot work', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://bouncer/app', DATABASE_POOL_MODE: 'transaction' })).toThrow(/DATABASE_DIRECT_URL/);
    expect(
      loadConfig({ DATABASE_URL: 'postgres://bouncer/app', DATABASE_DIRECT_URL: 'postgres://db/app', DATABASE_POOL_MODE: 'transaction' }),
    ).toMatchObject({ databasePoolMode: 'transaction', databaseDirectUrl: 'postgres://db/app' });
    expect(() => loadConfig({ DOCUMENT_STORE: 'database' })).toThrow(/needs a PostgreSQL server/);
    expect(() => loadConfig({ DOCUMENT_STORE: 's3' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '1' })).toThrow(/at least 2/);
    expect(() => loadConfig({ NODE_ID: 'node a!' })).toThrow(/NODE_ID/);
  });
});
