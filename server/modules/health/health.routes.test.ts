import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

// Health for people and for load balancers (issue 23): /api/health reports the database, migrations
// and whether this node's realtime LISTEN hears what is published; /api/health/ready answers 503 the
// moment the node starts shutting down, so a balancer stops sending it new requests.

describe.each(databaseKinds)('health on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { NODE_ID: 'node-x' } });
  });
  afterAll(() => t?.close());

  it('reports the database, realtime (by a self-test) and the node', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', node: 'node-x', database: { kind, reachable: true }, realtime: { status: 'up' } });
  });

  it('is ready until the node drains, then answers 503 and asks the client to close the connection', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).json()).toEqual({ status: 'ready', node: 'node-x' });
    t.ctx.lifecycle = { isDraining: true };
    const draining = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toEqual({ status: 'draining', node: 'node-x' });
    expect(draining.headers.connection).toBe('close');
    // Other requests are still served while the balancer takes the node out.
    expect((await t.app.inject({ method: 'GET', url: '/api/public/booking-info' })).statusCode).toBe(200);
    t.ctx.lifecycle = { isDraining: false };
  });
});
