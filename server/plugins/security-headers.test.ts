import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_HELMET_OPTIONS, PERMISSIONS_POLICY, securityHeadersPlugin } from './security-headers';

const app = Fastify({ logger: false });

beforeAll(async () => {
  await app.register(securityHeadersPlugin, APP_HELMET_OPTIONS);
  app.get('/json', async () => ({ ok: true }));
  app.get('/own-policy', async (_request, reply) => reply.header('content-security-policy', "default-src 'none'").send('x'));
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const APP_CSP =
  "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'self';img-src 'self' data: blob:;" +
  "object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self' ws: wss:;" +
  "worker-src 'self' blob:;media-src 'self' blob:";

describe('securityHeadersPlugin', () => {
  it("sends the app's page policy, helmet's headers and the permissions policy on every answer, the same on every request", async () => {
    for (const url of ['/json', '/json', '/missing']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.headers['content-security-policy']).toBe(APP_CSP);
      expect(response.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(response.headers['cross-origin-embedder-policy']).toBeUndefined();
    }
  });

  it('lets a route send a policy of its own', async () => {
    const response = await app.inject({ method: 'GET', url: '/own-policy' });
    expect(response.headers['content-security-policy']).toBe("default-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
