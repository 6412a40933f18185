import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_ADMIN_ONLY, WEBHOOK_DELIVERY_PAGE_SIZE, webhookRetryDelayMs } from '../../../domain/webhooks';
import { addMember, bearer, createOrg, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { startTestReceiver, type TestReceiver } from '../../delivery/test-receiver';
import { drainWebhooks, enqueueDeliveries } from '../../delivery/webhook-delivery';

// Settings › Integrations › Carrier subscriptions over the API: the SSC subscriptions carriers made
// for the organization's tenants (key and tenant named), each one's delivery log (kind 'ssc' rows
// delivered to a local receiver: delivered, retried, paginated latest first) and their removal,
// audited as the admin. Org admins only: a dockmaster is refused before validation, a stranger
// gets 404, another organization's subscription is 404 too.

const NOW = '2026-11-23T00:00:00Z';
const ALL_SCOPES = ['availability:read', 'appointments:schedule', 'appointments:reschedule', 'appointments:cancel', 'webhooks'];

describe.each(databaseKinds)('SSC subscriptions for org admins on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let otherOrgId: string;
  let admin: Record<string, string>;
  let dock: Record<string, string>;
  let otherAdmin: Record<string, string>;
  let receiver: TestReceiver;
  let tenantId: string;
  let carrierKey: { id: string; secret: string };
  let otherCarrierKey: { id: string; secret: string };

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const call = async (method: 'GET' | 'DELETE' | 'POST', path: string, headers: Record<string, string>, org = orgId) => {
    const response = await t.app.inject({ method, url: `/api/orgs/${org}${path}`, headers });
    return { status: response.statusCode, body: response.body ? response.json() : null };
  };
  const makeKey = async (org: string, headers: Record<string, string>, tenant: string, name: string) => {
    const response = await t.app.inject({ method: 'POST', url: `/api/orgs/${org}/api-keys`, headers, payload: { name, tenantId: tenant, scopes: ALL_SCOPES } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; secret: string };
  };
  const subscribe = async (key: string, callbackUrl: string, eventTypes = ['appointment-changed']) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/ssc/webhooks/v1/subscriptions', headers: { authorization: `Bearer ${key}` }, payload: { eventTypes, callbackUrl } });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return (response.json() as { subscriptionId: string }).subscriptionId;
  };
  /** Queues `n` appointment-changed posts for the subscription, as the engine's callers do, at the receiver. */
  const queue = async (subscriptionId: string, n = 1, org = orgId) =>
    t.ctx.database.db.transaction((tx) =>
      enqueueDeliveries(
        tx,
        t.clock.now(),
        Array.from({ length: n }, (_, i) => ({
          orgId: org,
          kind: 'ssc' as const,
          subscriptionId,
          eventType: 'appointment-changed',
          url: receiver.url,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ eventType: 'appointment-changed', sequence: i }),
        })),
      ),
    );

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    orgId = (await createOrg(db, { name: 'Carrier Org' })).id;
    otherOrgId = (await createOrg(db, { name: 'Other Carrier Org' })).id;
    const a = await createUser(db, { email: 'subs-admin@example.test' });
    await addMember(db, orgId, a.id, 'org_admin');
    const d = await createUser(db, { email: 'subs-dock@example.test' });
    await addMember(db, orgId, d.id, 'dockmaster');
    const o = await createUser(db, { email: 'subs-other@example.test' });
    await addMember(db, otherOrgId, o.id, 'org_admin');
    admin = bearer(await signIn(t.app, a.email));
    dock = bearer(await signIn(t.app, d.email));
    otherAdmin = bearer(await signIn(t.app, o.email));
    [{ id: tenantId }] = await query<{ id: string }>(`insert into tenants (org_id, name, contact_emails) values ($1, 'Fast Freight', '{ops@fast.example}') returning id`, [orgId]);
    const [{ id: otherTenant }] = await query<{ id: string }>(`insert into tenants (org_id, name, contact_emails) values ($1, 'Foreign Freight', '{ops@foreign.example}') returning id`, [otherOrgId]);
    carrierKey = await makeKey(orgId, admin, tenantId, 'Fast TMS');
    otherCarrierKey = await makeKey(otherOrgId, otherAdmin, otherTenant, 'Foreign TMS');
    // The receiver listens on 127.0.0.1: the platform lets deliveries reach private addresses here.
    await query(
      `insert into platform_settings (key, value) values ('platform.config', '{"allowPrivateWebhookTargets": true}'::jsonb)
       on conflict (key) do update set value = platform_settings.value || excluded.value`,
    );
    receiver = await startTestReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });
  afterEach(async () => {
    receiver.respondWith(200);
    receiver.reset();
    await query('delete from ssc_webhook_subscriptions');
    t.clock.set(NOW);
  });

  it('is for org admins only: 401 anonymous, 403 for a dockmaster before validation, 404 for another organization', async () => {
    const id = await subscribe(carrierKey.secret, 'https://tms.example.com/ssc');
    expect((await call('GET', '/ssc-subscriptions', {})).status).toBe(401);
    for (const [method, path] of [
      ['GET', '/ssc-subscriptions'],
      ['GET', `/ssc-subscriptions/${id}/deliveries?page=zero`],
      ['DELETE', `/ssc-subscriptions/${id}`],
    ] as const) {
      const res = await call(method, path, dock);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.message).toBe(WEBHOOK_ADMIN_ONLY);
      expect((await call(method, path, otherAdmin)).status, `${method} ${path} as a stranger`).toBe(404);
    }
    // Another organization's subscription, asked for under one's own organization: 404, untouched.
    const foreign = await subscribe(otherCarrierKey.secret, 'https://foreign.example.com/ssc');
    expect((await call('GET', `/ssc-subscriptions/${foreign}/deliveries`, admin)).status).toBe(404);
    expect((await call('DELETE', `/ssc-subscriptions/${foreign}`, admin)).status).toBe(404);
    expect((await call('DELETE', '/ssc-subscriptions/not-a-uuid', admin)).status).toBe(404);
    expect(await query(`select count(*)::int as n from ssc_webhook_subscriptions where id = $1`, [foreign])).toEqual([{ n: 1 }]);
    expect((await call('GET', '/ssc-subscriptions', admin)).body.items.map((s: { id: string }) => s.id)).toEqual([id]);
    expect((await call('GET', `/ssc-subscriptions/${id}/deliveries?page=0`, admin)).status).toBe(400);
  });

  it('lists the subscriptions with their tenant, key, events, callback and last delivery', async () => {
    const first = await subscribe(carrierKey.secret, 'https://tms.example.com/ssc', ['appointment-changed', 'fetch-available-appointments']);
    t.clock.advance(60_000);
    const second = await subscribe(carrierKey.secret, 'https://tms.example.com/other');
    await queue(first);
    expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 1 });
    const list = await call('GET', '/ssc-subscriptions', admin);
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      {
        id: first,
        tenant: { id: tenantId, name: 'Fast Freight' },
        apiKey: { id: carrierKey.id, name: 'Fast TMS', isRevoked: false },
        eventTypes: ['appointment-changed', 'fetch-available-appointments'],
        callbackUrl: 'https://tms.example.com/ssc',
        lastDeliveryAt: '2026-11-23T00:01:00.000Z',
        lastDeliveryStatus: 'delivered',
        createdAt: NOW.replace('Z', '.000Z'),
      },
      expect.objectContaining({ id: second, lastDeliveryAt: null, lastDeliveryStatus: null, createdAt: '2026-11-23T00:01:00.000Z' }),
    ]);
  });

  it('shows what was posted to each subscription, latest first, paginated, failures with their next attempt', async () => {
    const id = await subscribe(carrierKey.secret, 'https://tms.example.com/ssc');
    const other = await subscribe(carrierKey.secret, 'https://tms.example.com/other');
    await queue(other);
    await queue(id, WEBHOOK_DELIVERY_PAGE_SIZE + 2);
    expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: WEBHOOK_DELIVERY_PAGE_SIZE + 3 });
    t.clock.advance(60_000);
    receiver.respondWith(503);
    const [failing] = await queue(id);
    expect(await drainWebhooks(t.ctx)).toMatchObject({ retried: 1 });

    const page1 = await call('GET', `/ssc-subscriptions/${id}/deliveries`, admin);
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ page: 1, pageSize: WEBHOOK_DELIVERY_PAGE_SIZE, total: WEBHOOK_DELIVERY_PAGE_SIZE + 3 });
    expect(page1.body.items).toHaveLength(WEBHOOK_DELIVERY_PAGE_SIZE);
    expect(page1.body.items[0]).toMatchObject({
      id: failing,
      eventType: 'appointment-changed',
      status: 'pending',
      attempts: 1,
      lastStatusCode: 503,
      lastAttemptAt: '2026-11-23T00:01:00.000Z',
      nextAttemptAt: new Date(Date.parse(NOW) + 60_000 + webhookRetryDelayMs(1)).toISOString(),
    });
    expect(page1.body.items[1]).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200, nextAttemptAt: null, lastError: null });
    expect(typeof page1.body.items[1].lastDurationMs).toBe('number');
    const page2 = await call('GET', `/ssc-subscriptions/${id}/deliveries?page=2`, admin);
    expect(page2.body.items).toHaveLength(3);
    const ids = [...page1.body.items, ...page2.body.items].map((d: { id: string }) => d.id);
    expect(new Set(ids).size).toBe(WEBHOOK_DELIVERY_PAGE_SIZE + 3);
    expect((await call('GET', `/ssc-subscriptions/${other}/deliveries`, admin)).body.total).toBe(1);
    // The bodies posted are the subscription's, to its receiver.
    expect(receiver.received.filter((r) => r.body.includes('appointment-changed'))).toHaveLength(WEBHOOK_DELIVERY_PAGE_SIZE + 4);
  });

  it('posts a failed event again on request, to the callback URL, audited; not while it is still being attempted', async () => {
    const id = await subscribe(carrierKey.secret, receiver.url);
    const [deliveryId] = await queue(id);
    receiver.respondWith(500);
    expect(await drainWebhooks(t.ctx)).toMatchObject({ retried: 1 });
    const path = `/ssc-subscriptions/${id}/deliveries/${deliveryId}/redeliver`;
    expect((await call('POST', path, admin)).status).toBe(400);
    expect((await call('POST', path, dock)).status).toBe(403);
    expect((await call('POST', path, otherAdmin)).status).toBe(404);
    // Its attempts spent: failed for good.
    await query(`update webhook_deliveries set status = 'failed' where id = $1`, [deliveryId]);
    receiver.respondWith(200);
    const again = await call('POST', path, admin);
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    expect(again.body).toMatchObject({ status: 'pending', redeliveryOf: deliveryId, eventType: 'appointment-changed' });
    expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 1 });
    expect(receiver.received.at(-1)!.body).toBe(JSON.stringify({ eventType: 'appointment-changed', sequence: 0 }));
    const [audit] = await query<{ action: string; details: Record<string, unknown> }>(`select action, details from audit_log where resource_id = $1 and action = 'ssc.subscription_redelivered'`, [id]);
    expect(audit).toMatchObject({ details: { delivery_id: deliveryId, new_delivery_id: again.body.id, source: 'integrations' } });
    expect((await call('POST', `/ssc-subscriptions/${id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`, admin)).status).toBe(404);
  });

  it('deletes a subscription with its log, audited as the admin; the carrier no longer finds it', async () => {
    const id = await subscribe(carrierKey.secret, 'https://tms.example.com/ssc');
    await queue(id, 2);
    const removed = await call('DELETE', `/ssc-subscriptions/${id}`, admin);
    expect(removed.status).toBe(204);
    expect(await query(`select count(*)::int as n from webhook_deliveries where subscription_id = $1`, [id])).toEqual([{ n: 0 }]);
    expect((await call('GET', '/ssc-subscriptions', admin)).body.items).toEqual([]);
    expect((await call('DELETE', `/ssc-subscriptions/${id}`, admin)).status).toBe(404);
    expect((await call('GET', `/ssc-subscriptions/${id}/deliveries`, admin)).status).toBe(404);
    const [entry] = await query<{ actor_email: string; actor_role: string; org_id: string; resource_id: string; details: Record<string, unknown> }>(
      `select actor_email, actor_role, org_id, resource_id, details from audit_log where action = 'ssc.subscription_deleted' and resource_id = $1`,
      [id],
    );
    expect(entry).toMatchObject({ actor_email: 'subs-admin@example.test', actor_role: 'org_admin', org_id: orgId, resource_id: id });
    expect(entry!.details).toMatchObject({ source: 'integrations', tenant_name: 'Fast Freight', api_key_name: 'Fast TMS', after: null });
    const carrier = await t.app.inject({ method: 'GET', url: `/api/ssc/webhooks/v1/subscriptions/${id}`, headers: { authorization: `Bearer ${carrierKey.secret}` } });
    expect(carrier.statusCode).toBe(404);
  });
});
