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
