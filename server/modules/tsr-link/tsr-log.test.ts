import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TSR_CONNECTION_MOVED, WEBHOOK_ADMIN_ONLY, WEBHOOK_DELIVERY_PAGE_SIZE, webhookRetryDelayMs } from '../../../domain/webhooks';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { startTestReceiver, type TestReceiver } from '../../delivery/test-receiver';
import { drainWebhooks, enqueueDeliveries } from '../../delivery/webhook-delivery';

// The TSR link's delivery log over the API: each work note posted to the organization's ServiceNow
// (a local receiver stands in for it) with the booking it reports, latest first and paginated,
// retries with their next attempt, and redelivery of a finished note through webhooks' redelivery
// model (a new delivery of the same note; refused while pending, when the connection is off, or
// when it now points elsewhere). Org admins only; another organization's delivery is 404.

const NOW = '2026-11-23T00:00:00Z';
const SYS_ID = '0123456789abcdef0123456789abcdef';

describe.each(databaseKinds)('TSR link delivery log on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let otherOrgId: string;
  let site: { id: string; orgId: string };
  let bayId: string;
  let admin: Record<string, string>;
  let dock: Record<string, string>;
  let otherAdmin: Record<string, string>;
  let receiver: TestReceiver;
  let origin: string;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const call = async (method: 'GET' | 'PUT' | 'POST', path: string, headers: Record<string, string>, payload?: unknown, org = orgId) => {
    const response = await t.app.inject({ method, url: `/api/orgs/${org}${path}`, headers, payload: payload as never });
    return { status: response.statusCode, body: response.body ? response.json() : null };
  };
  const connect = async (baseUrl = origin, enabled = true, headers = admin, org = orgId) => {
    const res = await call('PUT', '/tsr-connections', headers, { system: 'servicenow', baseUrl, username: 'integration', password: 'pw', enabled }, org);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const booking = async () => {
    seq += 1;
    const start = new Date(Date.parse(NOW) + (72 + seq) * 3_600_000);
    const end = new Date(start.getTime() + 3_600_000);
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tsr_system_type, tsr_url, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min)
       values ($1, $2, $3, $4, 'servicenow', $5, 'Log Freight', 'h@example.test', $6, $7, $6, $7, 'rigid', $8, 3500, 3.5, 'pending', 'admin', 60) returning id`,
      [orgId, site.id, bayId, `TSR-LOG-${seq}`, `${origin}/sc_task.do?sys_id=${SYS_ID}`, start.toISOString(), end.toISOString(), `LOG${seq}`],
    );
    return { id: row!.id, tsrNumber: `TSR-LOG-${seq}` };
  };
  const move = async (id: string, to: string) => {
    const [b] = await query<{ version: number }>(`select version from bookings where id = $1`, [id]);
    const res = await call('POST', `/bookings/${id}/transitions`, admin, { to, version: b!.version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const log = async (page = 1) => {
    const res = await call('GET', `/tsr-connections/servicenow/deliveries?page=${page}`, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { items: Array<Record<string, any>>; page: number; pageSize: number; total: number };
  };
  /** A note that fails for good: one attempt allowed, the receiver answering 500. */
  const failedNote = async () => {
    const b = await booking();
    await move(b.id, 'approved');
    await query(`update webhook_deliveries set max_attempts = 1 where kind = 'tsr' and status = 'pending'`);
    receiver.respondWith(500);
    expect(await drainWebhooks(t.ctx)).toMatchObject({ failed: 1 });
    receiver.respondWith(200);
    return { booking: b, delivery: (await log()).items[0]! };
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    orgId = (await createOrg(db, { name: 'Log Org' })).id;
    otherOrgId = (await createOrg(db, { name: 'Other Log Org' })).id;
    site = await createSite(db, orgId, { name: 'Log Yard', timeZone: 'UTC' });
    bayId = (await createBay(db, site, { name: 'G-1', heightClearanceM: 5 })).id;
    const a = await createUser(db, { email: 'log-admin@example.test' });
    await addMember(db, orgId, a.id, 'org_admin');
    const d = await createUser(db, { email: 'log-dock@example.test' });
    await addMember(db, orgId, d.id, 'dockmaster');
    const o = await createUser(db, { email: 'log-other@example.test' });
    await addMember(db, otherOrgId, o.id, 'org_admin');
    admin = bearer(await signIn(t.app, a.email));
    dock = bearer(await signIn(t.app, d.email));
    otherAdmin = bearer(await signIn(t.app, o.email));
    receiver = await startTestReceiver();
    origin = new URL(receiver.url).origin;
    await query(
      `insert into platform_settings (key, value) values ('platform.config', '{"allowPrivateWebhookTargets": true}'::jsonb)
       on conflict (key) do update set value = platform_settings.value || excluded.value`,
    );
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });
  afterEach(async () => {
    receiver.respondWith(200);
    receiver.reset();
    await query('delete from tsr_connections');
    t.clock.set(NOW);
  });

  it('is for org admins only: 401 anonymous, 403 for a dockmaster before validation, 404 for another organization', async () => {
    await connect();
    const some = '0b5e2a52-31a4-4c1b-9f0e-6a1d2c3b4a5f';
    expect((await call('GET', '/tsr-connections/servicenow/deliveries', {})).status).toBe(401);
    for (const [method, path] of [
      ['GET', '/tsr-connections/servicenow/deliveries'],
      ['GET', '/tsr-connections/nosuch/deliveries?page=-1'],
      ['POST', `/tsr-connections/servicenow/deliveries/${some}/redeliver`],
    ] as const) {
      const res = await call(method, path, dock);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.message).toBe(WEBHOOK_ADMIN_ONLY);
      expect((await call(method, path, otherAdmin)).status, `${method} ${path} as a stranger`).toBe(404);
    }
    expect((await call('GET', '/tsr-connections/nosuch/deliveries', admin)).status).toBe(400);
    expect((await call('GET', '/tsr-connections/fmclarity/deliveries', admin)).status).toBe(404);
    // Another organization's note, asked for under one's own organization's connection: 404.
    await connect(origin, true, otherAdmin, otherOrgId);
    const [{ id: foreignConnection }] = await query<{ id: string }>(`select id from tsr_connections where org_id = $1`, [otherOrgId]);
    const [foreign] = await t.ctx.database.db.transaction((tx) =>
      enqueueDeliveries(tx, t.clock.now(), [{ orgId: otherOrgId, kind: 'tsr', connectionId: foreignConnection, eventType: 'tsr.servicenow.work_note', url: `${origin}/x`, body: '{}' }]),
    );
    await query(`update webhook_deliveries set status = 'failed' where id = $1`, [foreign]);
    expect((await call('POST', `/tsr-connections/servicenow/deliveries/${foreign}/redeliver`, admin)).status).toBe(404);
    expect((await log()).items).toEqual([]);
  });

  it('lists each work note with its booking, latest first; a refused one with its code and next attempt', async () => {
    await connect();
    const first = await booking();
    await move(first.id, 'approved');
    expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 1 });
    t.clock.advance(60_000);
    const second = await booking();
    receiver.respondWith(401);
    await move(second.id, 'approved');
    expect(await drainWebhooks(t.ctx)).toMatchObject({ retried: 1 });

    const { items, total } = await log();
    expect(total).toBe(2);
    expect(items[0]).toMatchObject({
      eventType: 'tsr.servicenow.work_note',
      status: 'pending',
      attempts: 1,
      lastStatusCode: 401,
      lastError: expect.any(String),
      nextAttemptAt: new Date(Date.parse(NOW) + 60_000 + webhookRetryDelayMs(1)).toISOString(),
      booking: { id: second.id, tsrNumber: second.tsrNumber },
    });
    expect(items[1]).toMatchObject({ status: 'delivered', lastStatusCode: 200, nextAttemptAt: null, booking: { id: first.id, tsrNumber: first.tsrNumber } });
    expect(receiver.received[0]!.path).toBe(`/api/now/table/sc_task/${SYS_ID}?sysparm_fields=sys_id`);
    // The booking is named in the log, not sent to the TSR system.
    expect(receiver.received[0]!.headers['baywise-booking']).toBeUndefined();
  });

  it('pages the log, 20 a page, and names no booking for a note that carries none', async () => {
    await connect();
    const [{ id: connectionId }] = await query<{ id: string }>(`select id from tsr_connections where org_id = $1`, [orgId]);
    await t.ctx.database.db.transaction((tx) =>
      enqueueDeliveries(
        tx,
        t.clock.now(),
        Array.from({ length: WEBHOOK_DELIVERY_PAGE_SIZE + 1 }, () => ({
          orgId,
          kind: 'tsr' as const,
          connectionId,
          eventType: 'tsr.servicenow.work_note',
          url: `${origin}/api/now/table/sc_task/${SYS_ID}`,
          body: '{"work_notes":"x"}',
        })),
      ),
    );
    const page1 = await log();
    expect(page1).toMatchObject({ page: 1, pageSize: WEBHOOK_DELIVERY_PAGE_SIZE, total: WEBHOOK_DELIVERY_PAGE_SIZE + 1 });
    expect(page1.items).toHaveLength(WEBHOOK_DELIVERY_PAGE_SIZE);
    expect(page1.items[0]!.booking).toBeNull();
    expect((await log(2)).items).toHaveLength(1);
  });

  it('sends a failed note again: a new delivery of the same note, audited; not while pending', async () => {
    await connect();
    const { booking: b, delivery } = await failedNote();
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 500, booking: { tsrNumber: b.tsrNumber } });
    const before = receiver.received.length;
    t.clock.advance(60_000);

    const again = await call('POST', `/tsr-connections/servicenow/deliveries/${delivery.id}/redeliver`, admin);
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    expect(again.body).toMatchObject({ status: 'pending', redeliveryOf: delivery.id, eventId: delivery.eventId, booking: { id: b.id, tsrNumber: b.tsrNumber } });
    expect((await call('POST', `/tsr-connections/servicenow/deliveries/${again.body.id}/redeliver`, admin)).status).toBe(400);
    expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 1 });
    const [original, copy] = [receiver.received[before - 1]!, receiver.received[before]!];
    expect(copy.body).toBe(original.body);
    expect(copy.path).toBe(original.path);
    expect(copy.headers.authorization).toBe(`Basic ${Buffer.from('integration:pw').toString('base64')}`);
    expect((await log()).items[0]).toMatchObject({ id: again.body.id, status: 'delivered' });
    const [entry] = await query<{ actor_email: string; org_id: string; details: Record<string, unknown> }>(
      `select actor_email, org_id, details from audit_log where action = 'tsr_connection.redelivered'`,
    );
    expect(entry).toMatchObject({ actor_email: 'log-admin@example.test', org_id: orgId, details: { delivery_id: delivery.id, new_delivery_id: again.body.id, booking_id: b.id } });
  });

  it('refuses to send a note again while the connection is off, or to a connection that now points elsewhere', async () => {
    await connect();
    const { delivery } = await failedNote();
    const redeliver = () => call('POST', `/tsr-connections/servicenow/deliveries/${delivery.id}/redeliver`, admin);
    await connect(origin, false);
    expect((await redeliver()).status).toBe(409);
    await connect('https://93.184.215.14');
    const moved = await redeliver();
    expect(moved.status).toBe(409);
    expect(moved.body.error.message).toBe(TSR_CONNECTION_MOVED);
    expect(await query(`select count(*)::int as n from webhook_deliveries where redelivery_of = $1`, [delivery.id])).toEqual([{ n: 0 }]);
  });
});
