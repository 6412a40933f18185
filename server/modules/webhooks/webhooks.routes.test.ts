import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  WEBHOOK_ADMIN_ONLY,
  WEBHOOK_HEADERS,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_URL_MESSAGES,
  webhookRetryDelayMs,
} from '../../../domain/webhooks';
import { startJobRunner } from '../../jobs/job-runner';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { verifySignature } from '../../delivery/signature';
import { startTestReceiver, type TestReceiver } from '../../delivery/test-receiver';
import { drainWebhooks } from '../../delivery/webhook-delivery';

// Integrations → Webhooks over the API: SSRF targets refused (literal, and a name resolving to
// loopback), org admins only, a booking change received by a local receiver with its signature
// verified, a failing receiver retried with back-off then disabled (admins e-mailed), manual
// redelivery, and delivery through the job runner. The local receiver is on 127.0.0.1, so the
// tests turn the platform's allowPrivateWebhookTargets on where they need to reach it.

const NOW = '2026-11-23T00:00:00Z';

describe.each(databaseKinds)('webhooks API on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let otherOrgId: string;
  let site: { id: string; orgId: string };
  let bayId: string;
  let admin: Record<string, string>;
  let dock: Record<string, string>;
  let otherAdmin: Record<string, string>;
  let receiver: TestReceiver;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers: Record<string, string>, payload?: unknown, org = orgId) => {
    const response = await t.app.inject({ method, url: `/api/orgs/${org}${path}`, headers, payload: payload as never });
    return { status: response.statusCode, body: response.body ? response.json() : null };
  };
  const allowPrivateTargets = (on: boolean) =>
    query(
      `insert into platform_settings (key, value) values ('platform.config', $1::jsonb)
       on conflict (key) do update set value = platform_settings.value || excluded.value`,
      [JSON.stringify({ allowPrivateWebhookTargets: on })],
    );
  /** A booking `hoursAhead` from NOW (by default days ahead, each a different hour). */
  const booking = async (status = 'pending', hoursAhead?: number) => {
    seq += 1;
    const start = new Date(Date.parse(NOW) + (hoursAhead ?? 48 + seq) * 3_600_000);
    const end = new Date(start.getTime() + 3_600_000);
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min)
       values ($1, $2, $3, $4, 'Hook Freight', 'haulier@example.test', $5, $6, $5, $6, 'rigid', $7, 3500, 3.5, $8, 'admin', 60) returning id`,
      [orgId, site.id, bayId, `TSR-HOOK-${seq}`, start.toISOString(), end.toISOString(), `HOOK${seq}`, status],
    );
    return row!.id;
  };
  const move = async (bookingId: string, to: string) => {
    const [b] = await query<{ version: number }>(`select version from bookings where id = $1`, [bookingId]);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${orgId}/bookings/${bookingId}/transitions`,
      headers: admin,
      payload: { to, version: b!.version },
    });
    expect(response.statusCode).toBe(200);
  };
  const createEndpoint = async (url: string, events = ['booking.status_changed']) => {
    const created = await call('POST', '/webhooks', admin, { url, events, description: 'Test receiver' });
    expect(created.status).toBe(201);
    return created.body as { endpoint: { id: string; secretHint: string }; secret: string };
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    const org = await createOrg(db, { name: 'Hook Org' });
    orgId = org.id;
    otherOrgId = (await createOrg(db, { name: 'Other Hook Org' })).id;
    site = await createSite(db, orgId, { name: 'Hook Yard', timeZone: 'UTC' });
    bayId = (await createBay(db, site, { name: 'H-1', heightClearanceM: 5 })).id;
    const a = await createUser(db, { email: 'hooks-admin@example.test' });
    await addMember(db, orgId, a.id, 'org_admin');
    const d = await createUser(db, { email: 'hooks-dock@example.test' });
    await addMember(db, orgId, d.id, 'dockmaster');
    const o = await createUser(db, { email: 'hooks-other@example.test' });
    await addMember(db, otherOrgId, o.id, 'org_admin');
    admin = bearer(await signIn(t.app, a.email));
    dock = bearer(await signIn(t.app, d.email));
    otherAdmin = bearer(await signIn(t.app, o.email));
    receiver = await startTestReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });
  afterEach(async () => {
    receiver.respondWith(200);
    receiver.reset();
    await query('delete from webhook_endpoints');
    await allowPrivateTargets(false);
    t.clock.set(NOW);
  });

  describe('SSRF guard', () => {
    it('refuses loopback, private and link-local targets, and a host name resolving to loopback', async () => {
      for (const url of [
        receiver.url,
        'http://localhost:9/hooks',
        'http://10.0.0.5/hooks',
        'http://192.168.1.20/hooks',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]:8080/',
        'http://[::ffff:127.0.0.1]/',
        'http://2130706433/',
        // IPv6 forms (issue 21 item 5): mapped, 6to4, NAT64, Teredo.
        'http://[::ffff:7f00:1]/',
        'http://[2002:7f00:1::]/',
        'http://[64:ff9b::a9fe:a9fe]/',
        'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
      ]) {
        const res = await call('POST', '/webhooks', admin, { url, events: ['booking.created'] });
        expect(res.status, url).toBe(422);
        expect(res.body.error.code).toBe('unsafe_url');
        expect(res.body.error.details).toEqual([{ path: 'url', message: WEBHOOK_URL_MESSAGES.private }]);
      }
      const scheme = await call('POST', '/webhooks', admin, { url: 'ftp://93.184.215.14/', events: ['booking.created'] });
      expect(scheme.status).toBe(400);
      expect(JSON.stringify(scheme.body)).toContain(WEBHOOK_URL_MESSAGES.scheme);
      // A public address is accepted (no DNS needed for a literal).
      expect((await call('POST', '/webhooks', admin, { url: 'https://93.184.215.14/hooks', events: ['booking.created'] })).status).toBe(201);
      // An existing endpoint cannot be moved to a private target either.
      const [{ id }] = (await call('GET', '/webhooks', admin)).body.items;
      const moved = await call('PATCH', `/webhooks/${id}`, admin, { url: 'http://localhost/' });
      expect(moved.status).toBe(422);
      expect(await query(`select count(*)::int as n from webhook_endpoints where url like '%localhost%'`)).toEqual([{ n: 0 }]);
    });

    it('refuses at delivery time too: a target allowed when saved is not reached once private targets are off', async () => {
      await allowPrivateTargets(true);
      const { endpoint } = await createEndpoint(receiver.url);
      await allowPrivateTargets(false);
      await move(await booking(), 'approved');
      const pass = await drainWebhooks(t.ctx);
      expect(pass).toMatchObject({ delivered: 0, retried: 1 });
      expect(receiver.received).toHaveLength(0);
      const log = await call('GET', `/webhooks/${endpoint.id}/deliveries`, admin);
      expect(log.body.items[0]).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null, lastError: WEBHOOK_URL_MESSAGES.private });
    });
  });

  describe('permissions', () => {
    it('is for org admins: dockmasters 403 (before validation), other organizations 404, anonymous 401', async () => {
      const dockList = await call('GET', '/webhooks', dock);
      expect(dockList.status).toBe(403);
      expect(dockList.body.error.message).toBe(WEBHOOK_ADMIN_ONLY);
      expect((await call('POST', '/webhooks', dock, { url: 'nonsense' })).status).toBe(403);
      await allowPrivateTargets(true);
      const { endpoint } = await createEndpoint(receiver.url);
      expect((await call('GET', `/webhooks/${endpoint.id}`, otherAdmin)).status).toBe(404);
      expect((await call('GET', `/webhooks/${endpoint.id}`, otherAdmin, undefined, otherOrgId)).status).toBe(404);
      expect((await call('DELETE', `/webhooks/${endpoint.id}`, otherAdmin, undefined, otherOrgId)).status).toBe(404);
      expect((await call('PATCH', `/webhooks/${endpoint.id}`, otherAdmin, { description: 'Taken over' }, otherOrgId)).status).toBe(404);
      expect((await call('POST', `/webhooks/${endpoint.id}/rotate-secret`, otherAdmin, undefined, otherOrgId)).status).toBe(404);
      // Nothing changed: the endpoint is there, as it was, with the same secret.
      const after = await call('GET', `/webhooks/${endpoint.id}`, admin);
      expect(after.body).toMatchObject({ id: endpoint.id, description: 'Test receiver', secretHint: endpoint.secretHint });
      expect((await call('GET', `/webhooks/not-a-uuid`, admin)).status).toBe(404);
      expect((await call('GET', '/webhooks', {})).status).toBe(401);
    });
  });

  describe('delivery', () => {
    it('posts a booking change to the receiver, signed; the log shows it delivered; the secret is never listed', async () => {
      await allowPrivateTargets(true);
      const { endpoint, secret } = await createEndpoint(receiver.url, ['booking.status_changed', 'gate.check_in']);
      expect(secret).toMatch(/^whsec_/);
      expect(endpoint.secretHint).toBe(secret.slice(-4));
      const list = await call('GET', '/webhooks', admin);
      expect(JSON.stringify(list.body)).not.toContain(secret);
      const [stored] = await query<{ secret_enc: string }>(`select secret_enc from webhook_endpoints where id = $1`, [endpoint.id]);
      expect(stored!.secret_enc).not.toContain(secret.slice(6));

      const bookingId = await booking('pending', 0.5); // check-in is open
      await move(bookingId, 'approved');
      await move(bookingId, 'checked_in');
      expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 3, retried: 0 });
      const hooks = await receiver.waitFor(3);
      const nowSeconds = Math.floor(Date.parse(NOW) / 1000);
      for (const hook of hooks) {
        expect(verifySignature(secret, String(hook.headers[WEBHOOK_HEADERS.signature]), hook.body, nowSeconds)).toBe(true);
        expect(verifySignature('whsec_wrong', String(hook.headers[WEBHOOK_HEADERS.signature]), hook.body, nowSeconds)).toBe(false);
        expect(hook.headers['content-type']).toBe('application/json');
        expect(hook.headers[WEBHOOK_HEADERS.timestamp]).toBe(String(nowSeconds));
      }
      const bodies = hooks.map((h) => JSON.parse(h.body));
      expect(bodies.map((b) => b.type).sort()).toEqual(['booking.status_changed', 'booking.status_changed', 'gate.check_in']);
      const approved = bodies.find((b) => b.type === 'booking.status_changed' && b.data.booking.status === 'approved');
      expect(approved).toMatchObject({
        organizationId: orgId,
        createdAt: NOW.replace('Z', '.000Z'),
        data: { previousStatus: 'pending', booking: { id: bookingId, reference: 'TSR-HOOK-' + seq, siteName: 'Hook Yard', bayName: 'H-1', status: 'approved' } },
      });
      expect(hooks.find((h) => JSON.parse(h.body).id === approved.id)!.headers[WEBHOOK_HEADERS.eventId]).toBe(approved.id);
      expect(JSON.stringify(bodies)).not.toContain('haulier@example.test');

      const log = await call('GET', `/webhooks/${endpoint.id}/deliveries`, admin);
      expect(log.body.total).toBe(3);
      expect(log.body.items.every((d: { status: string; lastStatusCode: number; nextAttemptAt: string | null }) => d.status === 'delivered' && d.lastStatusCode === 200 && d.nextAttemptAt === null)).toBe(true);
      expect(log.body.items[0].lastDurationMs).toBeGreaterThanOrEqual(0);
      const listed = await call('GET', `/webhooks/${endpoint.id}`, admin);
      expect(listed.body).toMatchObject({ lastDeliveryStatus: 'delivered', consecutiveFailures: 0, status: 'active' });
      const audit = await query<{ action: string }>(`select action from audit_log where resource_id = $1 order by created_at`, [endpoint.id]);
      expect(audit.map((a) => a.action)).toEqual(['webhook.created']);
    });

    it('queues nothing for events an endpoint does not subscribe to, nor for a disabled endpoint, nor another organization', async () => {
      await allowPrivateTargets(true);
      const { endpoint } = await createEndpoint(receiver.url, ['booking.rescheduled']);
      const paused = await createEndpoint(receiver.url, ['booking.status_changed']);
      expect((await call('PATCH', `/webhooks/${paused.endpoint.id}`, admin, { enabled: false })).body.status).toBe('disabled');
      await move(await booking(), 'approved');
      expect(await query(`select count(*)::int as n from webhook_deliveries`)).toEqual([{ n: 0 }]);
      expect((await call('GET', `/webhooks/${endpoint.id}/deliveries`, otherAdmin, undefined, otherOrgId)).status).toBe(404);
    });

    it('delivers a portal booking (the one-statement fast path) as booking.created', async () => {
      await allowPrivateTargets(true);
      await createEndpoint(receiver.url, ['booking.created']);
      const form = new FormData();
      form.append(
        'data',
        JSON.stringify({
          orgId,
          tsrNumber: 'TSR-PORTAL-1',
          tsrSystemType: 'servicenow',
          tsrUrl: '',
          tenantName: 'Portal Freight',
          contactName: 'Jo Driver',
          tenantEmail: 'jo@portal.example',
          tenantPhone: '',
          bookingType: 'delivery',
          date: '2026-11-24',
          slot: '09:00',
          expectedDurationMin: 60,
          vehicleType: 'rigid',
          vehicleRegistration: 'PORT1',
          vehicleHeightM: 3.9,
          specialAccessNeeds: [],
          goodsDescription: 'Pallets',
          driverInductionCompleted: true,
          termsAccepted: true,
          notes: '',
        }),
      );
      const created = await t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: form as never });
      expect(created.statusCode, created.body).toBe(201);
      expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 1 });
      const [hook] = await receiver.waitFor(1);
      const body = JSON.parse(hook!.body);
      expect(body).toMatchObject({
        type: 'booking.created',
        organizationId: orgId,
        createdAt: NOW.replace('Z', '.000Z'),
        data: { booking: { reference: 'TSR-PORTAL-1', tenantName: 'Portal Freight', siteName: 'Hook Yard', bayName: 'H-1', startTime: '2026-11-24T09:00:00.000Z' } },
      });
      expect(body.id).toBe(hook!.headers[WEBHOOK_HEADERS.eventId]);
    });

    it('retries a failing receiver with back-off, then disables the endpoint and e-mails the admins; redelivers once enabled', async () => {
      await allowPrivateTargets(true);
      receiver.respondWith(500);
      const { endpoint } = await createEndpoint(receiver.url, ['booking.status_changed']);
      await move(await booking(), 'approved');
      // The clock moves hours ahead: a session signed in at each step.
      let session = admin;
      for (let attempt = 1; attempt < WEBHOOK_MAX_ATTEMPTS; attempt++) {
        expect(await drainWebhooks(t.ctx)).toMatchObject({ retried: 1, failed: 0 });
        const log = await call('GET', `/webhooks/${endpoint.id}/deliveries`, session);
        expect(log.status, JSON.stringify(log.body)).toBe(200);
        const [d] = log.body.items;
        expect(d).toMatchObject({ status: 'pending', attempts: attempt, lastStatusCode: 500, lastError: 'The receiver answered 500' });
        expect(Date.parse(d.nextAttemptAt) - t.clock.now().getTime()).toBe(webhookRetryDelayMs(attempt));
        // Not due yet: nothing is sent before the back-off has passed.
        expect(await drainWebhooks(t.ctx)).toMatchObject({ retried: 0, failed: 0 });
        t.clock.advance(webhookRetryDelayMs(attempt));
        session = bearer(await signIn(t.app, 'hooks-admin@example.test'));
      }
      expect(await drainWebhooks(t.ctx)).toMatchObject({ failed: 1, disabled: 1 });
      expect(receiver.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
      const disabled = await call('GET', `/webhooks/${endpoint.id}`, session);
      expect(disabled.body).toMatchObject({ status: 'disabled', consecutiveFailures: WEBHOOK_MAX_ATTEMPTS });
      expect(disabled.body.disabledReason).toContain(`failed ${WEBHOOK_MAX_ATTEMPTS} times`);
      const [failed] = (await call('GET', `/webhooks/${endpoint.id}/deliveries`, session)).body.items;
      expect(failed).toMatchObject({ status: 'failed', attempts: WEBHOOK_MAX_ATTEMPTS, nextAttemptAt: null });
      const mails = await t.outbox();
      const mail = mails.find((m) => m.subject === `Webhook endpoint disabled: ${receiver.url}`);
      expect(mail?.to && 'text' in mail.to ? mail.to.text : '').toContain('hooks-admin@example.test');
      const audit = await query<{ action: string; actor_role: string }>(`select action, actor_role from audit_log where resource_id = $1 and action = 'webhook.disabled'`, [endpoint.id]);
      expect(audit).toEqual([{ action: 'webhook.disabled', actor_role: 'system' }]);
      // While disabled: no test, no redelivery, no new events.
      expect((await call('POST', `/webhooks/${endpoint.id}/test`, session)).status).toBe(409);
      expect((await call('POST', `/webhooks/${endpoint.id}/deliveries/${failed.id}/redeliver`, session)).status).toBe(409);
      // Fixed and enabled again: the failed event is sent again, same event id, and arrives.
      receiver.respondWith(204);
      expect((await call('PATCH', `/webhooks/${endpoint.id}`, session, { enabled: true })).body).toMatchObject({ status: 'active', consecutiveFailures: 0, disabledReason: null });
      const again = await call('POST', `/webhooks/${endpoint.id}/deliveries/${failed.id}/redeliver`, session);
      expect(again.status).toBe(202);
      expect(again.body).toMatchObject({ status: 'pending', redeliveryOf: failed.id, eventId: failed.eventId, attempts: 0 });
      expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 1 });
      const last = receiver.received.at(-1)!;
      expect(last.headers[WEBHOOK_HEADERS.eventId]).toBe(failed.eventId);
      expect(last.body).toBe(receiver.received[0]!.body);
      const actions = await query<{ action: string }>(`select action from audit_log where resource_id = $1 order by created_at, action`, [endpoint.id]);
      expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['webhook.created', 'webhook.disabled', 'webhook.enabled', 'webhook.redelivered']));
    });

    it('rotates the secret (the next delivery is signed with the new one), sends a test ping, and deletes with its log', async () => {
      await allowPrivateTargets(true);
      const { endpoint, secret } = await createEndpoint(receiver.url);
      const rotated = await call('POST', `/webhooks/${endpoint.id}/rotate-secret`, admin);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).not.toBe(secret);
      const ping = await call('POST', `/webhooks/${endpoint.id}/test`, admin);
      expect(ping.status).toBe(202);
      expect(ping.body).toMatchObject({ eventType: 'webhook.ping', status: 'pending' });
      await drainWebhooks(t.ctx);
      const [hook] = await receiver.waitFor(1);
      const nowSeconds = Math.floor(t.clock.now().getTime() / 1000);
      expect(verifySignature(rotated.body.secret, String(hook!.headers[WEBHOOK_HEADERS.signature]), hook!.body, nowSeconds)).toBe(true);
      expect(verifySignature(secret, String(hook!.headers[WEBHOOK_HEADERS.signature]), hook!.body, nowSeconds)).toBe(false);
      const page2 = await call('GET', `/webhooks/${endpoint.id}/deliveries?page=2`, admin);
      expect(page2.body).toMatchObject({ items: [], page: 2, total: 1 });
      expect((await call('GET', `/webhooks/${endpoint.id}/deliveries?page=0`, admin)).status).toBe(400);
      expect((await call('DELETE', `/webhooks/${endpoint.id}`, admin)).status).toBe(204);
      expect(await query(`select count(*)::int as n from webhook_deliveries where endpoint_id = $1`, [endpoint.id])).toEqual([{ n: 0 }]);
      const actions = await query<{ action: string }>(`select action from audit_log where resource_id = $1 order by created_at, action`, [endpoint.id]);
      expect(actions.map((a) => a.action).sort()).toEqual(['webhook.created', 'webhook.deleted', 'webhook.secret_rotated', 'webhook.test_sent']);
    });

    it('validates the form: events from the list, at least one; a description on one line', async () => {
      const none = await call('POST', '/webhooks', admin, { url: 'https://93.184.215.14/', events: [] });
      expect(none.status).toBe(400);
      expect(JSON.stringify(none.body)).toContain('Choose at least one event');
      expect((await call('POST', '/webhooks', admin, { url: 'https://93.184.215.14/', events: ['booking.exploded'] })).status).toBe(400);
      expect((await call('POST', '/webhooks', admin, { url: 'https://93.184.215.14/', events: ['gate.check_in'], description: 'a\nb' })).status).toBe(400);
    });
  });

  describe('job runner', () => {
    it('delivers through the webhook-deliveries queue once a change commits', async () => {
      await allowPrivateTargets(true);
      const runner = await startJobRunner(t.ctx, { schedule: false, pollingIntervalSeconds: 0.5 });
      try {
        await createEndpoint(receiver.url, ['booking.status_changed']);
        await move(await booking(), 'approved');
        const [hook] = await receiver.waitFor(1);
        expect(JSON.parse(hook!.body).data.booking.status).toBe('approved');
      } finally {
        await runner.stop();
      }
    });
  });
});
