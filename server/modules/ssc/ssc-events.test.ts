import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_HEADERS } from '../../../domain/webhooks';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { verifySignature } from '../../delivery/signature';
import { startTestReceiver, type TestReceiver } from '../../delivery/test-receiver';
import { drainWebhooks } from '../../delivery/webhook-delivery';

// SSC `appointment-changed` events on both databases: a carrier subscribes (the signing secret
// answered once), then schedules → reschedules → cancels through the API while the site approves,
// checks in, completes, declines and marks no-shows; the local receiver gets one signed event per
// change a carrier hears about, and the organization's generic webhook endpoint gets its own
// signed events for the same changes. Another tenant's subscription hears nothing; a failing
// callback is retried with back-off and then given up, the subscription kept.

const NOW = '2026-11-23T00:00:00Z'; // Monday 11:00 in Sydney
const at = (time: string, date = '2026-11-25') => `${date}T${time}:00+11:00`;
const NOW_SECONDS = Math.floor(Date.parse(NOW) / 1000);

type Res = { status: number; body: any; headers: Record<string, unknown> };
type Event = {
  identifiers: Record<string, unknown>;
  currentAppointment: { appointment: { id: string; arrivalWindow: { startDateTime: string; duration: string }; dockDoor?: { id: string; name: string }; loadingType: string }; appointmentStatus: string };
  previousAppointment?: { appointment?: { arrivalWindow: { startDateTime: string; duration: string } }; appointmentStatus: string };
  reasonCode: string;
  comment?: string;
  occurredAt: string;
};

describe.each(databaseKinds)('SSC appointment-changed events on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let siteId: string;
  let admin: Record<string, string>;
  let key: string;
  let otherTenantKey: string;
  let receiver: TestReceiver;
  let otherReceiver: TestReceiver;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const ssc = async (path: string, apiKey: string, payload?: unknown, method: 'POST' | 'GET' | 'PUT' | 'DELETE' = 'POST'): Promise<Res> => {
    const response = await t.app.inject({ method, url: `/api/ssc${path}`, headers: { authorization: `Bearer ${apiKey}` }, ...(payload === undefined ? {} : { payload: payload as never }) });
    return { status: response.statusCode, body: response.body ? response.json() : undefined, headers: response.headers };
  };
  const schedule = async (time: string, apiKey = key) => {
    const res = await ssc('/appointments/v1/schedule-appointment', apiKey, {
      identifiers: { primaryReferenceNumber: `EVT-${++seq}`, poNumber: `PO-${seq}`, stopSequenceNumber: 1, locationId: siteId },
      preferredAppointment: { arrivalWindow: { startDateTime: at(time), duration: 'PT1H' }, loadingType: 'DROP' },
    });
    expect(res.body.status, JSON.stringify(res.body)).toBe('SUCCESS');
    return res.body.appointment.id as string;
  };
  const move = async (bookingId: string, to: string, reason?: string) => {
    const [b] = await query<{ version: number }>(`select version from bookings where id = $1`, [bookingId]);
    const response = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/bookings/${bookingId}/transitions`, headers: admin, payload: { to, version: b!.version, ...(reason ? { reason } : {}) } });
    expect(response.statusCode, response.body).toBe(200);
  };
  const subscribe = async (callbackUrl: string, apiKey = key) => {
    const res = await ssc('/webhooks/v1/subscriptions', apiKey, { eventTypes: ['appointment-changed'], callbackUrl });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.subscriptionId as string, secret: String(res.headers['baywise-signing-secret']) };
  };
  const allowPrivateTargets = (on: boolean) =>
    query(
      `insert into platform_settings (key, value) values ('platform.config', $1::jsonb)
       on conflict (key) do update set value = platform_settings.value || excluded.value`,
      [JSON.stringify({ allowPrivateWebhookTargets: on })],
    );
  const events = (hooks: { body: string }[]) => hooks.map((h) => JSON.parse(h.body) as Event);

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    orgId = (await createOrg(db, { name: 'Events Org' })).id;
    const site = await createSite(db, orgId, { name: 'Event Yard', timeZone: 'Australia/Sydney' });
    siteId = site.id;
    await createBay(db, site, { name: 'E-1', heightClearanceM: 4.5 });
    await createBay(db, site, { name: 'E-2', heightClearanceM: 4.5 });
    const [{ id: tenantId }] = await query<{ id: string }>(`insert into tenants (org_id, name, contact_emails) values ($1, 'Event Freight', '{ops@event.example}') returning id`, [orgId]);
    const [{ id: otherTenantId }] = await query<{ id: string }>(`insert into tenants (org_id, name, contact_emails) values ($1, 'Quiet Freight', '{ops@quiet.example}') returning id`, [orgId]);
    const user = await createUser(db, { email: 'admin@events.example' });
    await addMember(db, orgId, user.id, 'org_admin');
    admin = bearer(await signIn(t.app, 'admin@events.example'));
    const make = async (tenant: string) => {
      const response = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/api-keys`, headers: admin, payload: { name: `TMS ${tenant}`, tenantId: tenant, scopes: ['availability:read', 'appointments:schedule', 'appointments:reschedule', 'appointments:cancel', 'webhooks'] } });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().secret as string;
    };
    key = await make(tenantId);
    otherTenantKey = await make(otherTenantId);
    receiver = await startTestReceiver();
    otherReceiver = await startTestReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await otherReceiver?.close();
    await t?.close();
  });
  beforeEach(async () => {
    await allowPrivateTargets(true);
  });
  afterEach(async () => {
    receiver.respondWith(200);
    receiver.reset();
    otherReceiver.reset();
    await query('delete from webhook_deliveries');
    await query('delete from ssc_webhook_subscriptions');
    await query('delete from webhook_endpoints');
    await query('delete from bookings');
    await query(`update tenants set auto_approve = false`);
  });

  it('schedule → approve → reschedule → cancel: one signed event per change, and the generic webhooks too', async () => {
    const { id: subscriptionId, secret } = await subscribe(receiver.url);
    expect(secret).toMatch(/^whsec_/);
    // The secret is answered once: never listed, never stored in clear.
    expect(JSON.stringify((await ssc(`/webhooks/v1/subscriptions/${subscriptionId}`, key, undefined, 'GET')).body)).not.toContain(secret);
    const [stored] = await query<{ signing_secret_enc: string }>(`select signing_secret_enc from ssc_webhook_subscriptions where id = $1`, [subscriptionId]);
    expect(stored!.signing_secret_enc).not.toContain(secret.slice(6));
    await subscribe(otherReceiver.url, otherTenantKey);
    // The organization's own endpoint hears the same changes in Baywise's envelope.
    const endpoint = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/webhooks`, headers: admin, payload: { url: otherReceiver.url.replace('/hooks', '/org'), events: ['booking.created', 'booking.status_changed', 'booking.rescheduled'] } });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const endpointSecret = endpoint.json().secret as string;

    const id = await schedule('10:00'); // pending: the tenant's policy asks the site
    await move(id, 'approved');
    // A confirmed appointment's reschedule (a longer stay too) waits for the site: PENDING, the appointment kept meanwhile.
    const requested = await ssc('/appointments/v1/reschedule-appointment', key, {
      identifiers: { appointmentId: id },
      preferredAppointment: { arrivalWindow: { startDateTime: at('13:00'), duration: 'PT2H' } },
      reasonCode: 'LATE_TRUCK',
    });
    expect(requested.body, JSON.stringify(requested.body)).toEqual({ status: 'PENDING' });
    const waiting = (await ssc('/appointments/v1/fetch-appointment-details', key, { identifiers: { appointmentId: id } })).body;
    expect(waiting).toMatchObject({ appointmentStatus: 'PENDING', appointment: { arrivalWindow: { startDateTime: at('10:00'), duration: 'PT1H' } } });
    const accepted = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/bookings/${id}/reschedule-request/accept`, headers: admin });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'approved', startTime: '2026-11-25T02:00:00.000Z', expectedDurationMin: 120, rescheduleRequest: null });
    expect((await ssc('/appointments/v1/cancel-appointment', key, { identifiers: { appointmentId: id }, reasonCode: 'NO_LOAD', comment: 'Load withdrawn' })).body.status).toBe('SUCCESS');

    expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 3 + 4, retried: 0, failed: 0 });
    const hooks = await receiver.waitFor(3);
    for (const hook of hooks) {
      expect(hook.headers[WEBHOOK_HEADERS.event]).toBe('appointment-changed');
      expect(hook.headers['content-type']).toBe('application/json');
      expect(verifySignature(secret, String(hook.headers[WEBHOOK_HEADERS.signature]), hook.body, NOW_SECONDS)).toBe(true);
      expect(verifySignature(endpointSecret, String(hook.headers[WEBHOOK_HEADERS.signature]), hook.body, NOW_SECONDS)).toBe(false);
    }
    // Posts go out in parallel: a receiver orders them by occurredAt (here one frozen instant), not by arrival.
    const byReason = (code: string) => events(hooks).find((e) => e.reasonCode === code)!;
    const [approved, rescheduled, cancelled] = [byReason('APPROVED'), byReason('RESCHEDULED'), byReason('CANCELLED')];
    expect(approved).toEqual({
      identifiers: { primaryReferenceNumber: 'EVT-1', poNumber: 'PO-1', stopSequenceNumber: 1, locationId: siteId },
      currentAppointment: {
        appointment: { id, arrivalWindow: { startDateTime: '2026-11-25T10:00:00+11:00', duration: 'PT1H' }, dockDoor: { id: expect.any(String), name: expect.stringMatching(/^E-/) }, loadingType: 'DROP' },
        appointmentStatus: 'CONFIRMED',
      },
      previousAppointment: { appointmentStatus: 'PENDING' },
      reasonCode: 'APPROVED',
      occurredAt: '2026-11-23T00:00:00.000Z',
    });
    // The site accepted the move: confirmed at the new slot, and the previous appointment as it was (its own duration).
    expect(rescheduled).toMatchObject({
      currentAppointment: { appointment: { arrivalWindow: { startDateTime: '2026-11-25T13:00:00+11:00', duration: 'PT2H' } }, appointmentStatus: 'CONFIRMED' },
      previousAppointment: { appointment: { arrivalWindow: { startDateTime: '2026-11-25T10:00:00+11:00', duration: 'PT1H' } }, appointmentStatus: 'CONFIRMED' },
      reasonCode: 'RESCHEDULED',
    });
    expect(cancelled).toMatchObject({ currentAppointment: { appointmentStatus: 'CANCELED' }, previousAppointment: { appointmentStatus: 'CONFIRMED' }, reasonCode: 'CANCELLED', comment: 'NO_LOAD: Load withdrawn' });

    // The other tenant's subscription heard nothing; the org endpoint got its four signed events.
    const org = otherReceiver.received.filter((h) => h.path === '/org');
    expect(otherReceiver.received.filter((h) => h.path !== '/org')).toEqual([]);
    expect(org.map((h) => JSON.parse(h.body).type).sort()).toEqual(['booking.created', 'booking.rescheduled', 'booking.status_changed', 'booking.status_changed']);
    for (const hook of org) expect(verifySignature(endpointSecret, String(hook.headers[WEBHOOK_HEADERS.signature]), hook.body, NOW_SECONDS)).toBe(true);

    const rows = await query<{ kind: string; subscription_id: string | null; status: string }>(`select kind, subscription_id, status from webhook_deliveries where kind = 'ssc'`);
    expect(rows).toEqual(Array(3).fill({ kind: 'ssc', subscription_id: subscriptionId, status: 'delivered' }));
  });

  it('a refused reschedule keeps the confirmed appointment and tells the carrier; a request with no free bay cannot be accepted', async () => {
    await subscribe(receiver.url);
    const id = await schedule('10:00');
    await move(id, 'approved');
    const reschedule = (time: string, duration = 'PT1H') =>
      ssc('/appointments/v1/reschedule-appointment', key, { identifiers: { appointmentId: id }, preferredAppointment: { arrivalWindow: { startDateTime: at(time), duration } }, comment: 'Truck late' });
    expect((await reschedule('15:00')).body).toEqual({ status: 'PENDING' });
    // The drawer shows the request; a dockmaster cannot settle it.
    const detail = (await t.app.inject({ url: `/api/orgs/${orgId}/bookings/${id}`, headers: admin })).json();
    expect(detail).toMatchObject({ status: 'approved', startTime: '2026-11-24T23:00:00.000Z', rescheduleRequest: { startTime: '2026-11-25T04:00:00.000Z', expectedDurationMin: 60, comment: 'Truck late' } });
    // Both bays taken at 15:00 meanwhile: accepting answers the usual message and the request still waits.
    await schedule('15:00');
    await schedule('15:00');
    const full = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/bookings/${id}/reschedule-request/accept`, headers: admin });
    expect(full.statusCode, full.body).toBe(409);
    expect(full.json().error.code).toBe('no_available_bay');
    const refused = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/bookings/${id}/reschedule-request/refuse`, headers: admin, payload: { reason: 'Dock full at 15:00' } });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({ status: 'approved', startTime: '2026-11-24T23:00:00.000Z', rescheduleRequest: null });
    const again = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/bookings/${id}/reschedule-request/refuse`, headers: admin, payload: {} });
    expect(again.statusCode).toBe(409);
    expect((await ssc('/appointments/v1/fetch-appointment-details', key, { identifiers: { appointmentId: id } })).body).toMatchObject({ appointmentStatus: 'CONFIRMED' });

    await drainWebhooks(t.ctx);
    const refusal = events(await receiver.waitFor(2)).find((e) => e.reasonCode === 'RESCHEDULE_REFUSED');
    expect(refusal).toEqual({
      identifiers: expect.objectContaining({ locationId: siteId }),
      currentAppointment: {
        appointment: { id, arrivalWindow: { startDateTime: at('10:00'), duration: 'PT1H' }, dockDoor: { id: expect.any(String), name: expect.stringMatching(/^E-/) }, loadingType: 'DROP' },
        appointmentStatus: 'CONFIRMED',
      },
      previousAppointment: { appointment: { id, arrivalWindow: { startDateTime: at('15:00'), duration: 'PT1H' }, loadingType: 'DROP' }, appointmentStatus: 'PENDING' },
      reasonCode: 'RESCHEDULE_REFUSED',
      comment: 'Dock full at 15:00',
      occurredAt: '2026-11-23T00:00:00.000Z',
    });
    const audit = await query<{ action: string }>(`select action from audit_log where resource_id = $1 and action like 'ssc.reschedule_%' order by created_at`, [id]);
    expect(audit.map((a) => a.action)).toEqual(['ssc.reschedule_requested', 'ssc.reschedule_refused']);
  });

  it('a request whose booking the site cancelled is moot: not shown, not accepted', async () => {
    const id = await schedule('10:00');
    await move(id, 'approved');
    expect((await ssc('/appointments/v1/reschedule-appointment', key, { identifiers: { appointmentId: id }, preferredAppointment: { arrivalWindow: { startDateTime: at('16:00'), duration: 'PT1H' } } })).body).toEqual({ status: 'PENDING' });
    await move(id, 'cancelled', 'Site closed');
    expect((await t.app.inject({ url: `/api/orgs/${orgId}/bookings/${id}`, headers: admin })).json()).toMatchObject({ status: 'cancelled', rescheduleRequest: null });
    const accepted = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/bookings/${id}/reschedule-request/accept`, headers: admin });
    expect([accepted.statusCode, accepted.json().error.code]).toEqual([409, 'not_reschedulable']);
  });

  it('moves a confirmed appointment at once when the tenant’s policy approves (RESCHEDULED, the previous duration)', async () => {
    await subscribe(receiver.url);
    const id = await schedule('10:00');
    await move(id, 'approved');
    await query(`update tenants set auto_approve = true`);
    const moved = await ssc('/appointments/v1/reschedule-appointment', key, { identifiers: { appointmentId: id }, preferredAppointment: { arrivalWindow: { startDateTime: at('12:00'), duration: 'PT90M' } } });
    expect(moved.body, JSON.stringify(moved.body)).toMatchObject({ status: 'SUCCESS', appointmentStatus: 'CONFIRMED', appointment: { arrivalWindow: { startDateTime: at('12:00'), duration: 'PT1H30M' } } });
    await drainWebhooks(t.ctx);
    const rescheduled = events(await receiver.waitFor(2)).find((e) => e.reasonCode === 'RESCHEDULED')!;
    expect(rescheduled.previousAppointment).toMatchObject({ appointment: { arrivalWindow: { startDateTime: at('10:00'), duration: 'PT1H' } }, appointmentStatus: 'CONFIRMED' });
    expect(rescheduled.currentAppointment).toMatchObject({ appointment: { arrivalWindow: { duration: 'PT1H30M' } }, appointmentStatus: 'CONFIRMED' });
  });

  it('tells the carrier of check-in, completion, a decline and a no-show; not of starting work', async () => {
    await query(`update tenants set auto_approve = true`);
    await subscribe(receiver.url);
    const worked = await schedule('09:00'); // approved at once: no event for the booking itself
    const declined = await schedule('11:00');
    const missed = await schedule('14:00');
    // Check-in, start and no-show wait for their time (the lifecycle's clock): the site works that day.
    const workAt = async (time: string) => {
      t.clock.set(at(time));
      admin = bearer(await signIn(t.app, 'admin@events.example'));
    };
    try {
      await workAt('09:00');
      await move(worked, 'checked_in');
      await move(worked, 'in_progress');
      await move(worked, 'completed');
      await workAt('14:30');
      await move(missed, 'no_show');
      await query(`update bookings set status = 'pending', approved_at = null where id = $1`, [declined]);
      await move(declined, 'declined', 'Dock closed for repairs');
      expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 4 });
    } finally {
      t.clock.set(NOW);
      admin = bearer(await signIn(t.app, 'admin@events.example'));
    }
    const got = events(await receiver.waitFor(4));
    expect(got.map((e) => [e.currentAppointment.appointment.id, e.reasonCode, e.currentAppointment.appointmentStatus])).toEqual(expect.arrayContaining([
      [worked, 'CHECKED_IN', 'CONFIRMED'],
      [worked, 'COMPLETED', 'CONFIRMED'],
      [missed, 'NO_SHOW', 'CANCELED'],
      [declined, 'DECLINED', 'REJECTED'],
    ]));
    expect(got.find((e) => e.reasonCode === 'DECLINED')!.comment).toBe('Dock closed for repairs');
  });

  it('retries a failing callback with back-off, then gives up; the subscription stays', async () => {
    const { id: subscriptionId } = await subscribe(receiver.url);
    receiver.respondWith(500);
    const id = await schedule('10:00');
    await move(id, 'approved');
    expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 0, retried: 1 });
    const [row] = await query<{ attempts: number; status: string; next_attempt_at: Date; last_status_code: number }>(`select attempts, status, next_attempt_at, last_status_code from webhook_deliveries where subscription_id = $1`, [subscriptionId]);
    expect(row).toMatchObject({ attempts: 1, status: 'pending', last_status_code: 500 });
    expect(new Date(row!.next_attempt_at).getTime()).toBeGreaterThan(Date.parse(NOW));
    // Each later attempt waits longer; after the cap the row fails for good.
    for (let i = 0; i < 20; i++) {
      const [due] = await query<{ next_attempt_at: Date; status: string }>(`select next_attempt_at, status from webhook_deliveries where subscription_id = $1`, [subscriptionId]);
      if (due!.status !== 'pending') break;
      t.clock.set(new Date(due!.next_attempt_at));
      await drainWebhooks(t.ctx);
    }
    t.clock.set(NOW);
    const [final] = await query<{ attempts: number; max_attempts: number; status: string }>(`select attempts, max_attempts, status from webhook_deliveries where subscription_id = $1`, [subscriptionId]);
    expect(final!.status).toBe('failed');
    expect(final!.attempts).toBe(final!.max_attempts);
    expect(receiver.received).toHaveLength(final!.max_attempts);
    expect((await ssc(`/webhooks/v1/subscriptions/${subscriptionId}`, key, undefined, 'GET')).status).toBe(200);
  });

  it('refuses callback URLs on private networks, by address or by name, unless the platform allows them', async () => {
    await allowPrivateTargets(false);
    for (const url of [receiver.url, 'http://localhost:8080/x', 'http://[::ffff:10.0.0.1]/', 'http://169.254.169.254/latest/meta-data']) {
      const res = await ssc('/webhooks/v1/subscriptions', key, { eventTypes: ['appointment-changed'], callbackUrl: url });
      expect(res.status, url).toBe(422);
      expect(res.body.problemDetails[0].arguments).toEqual([{ key: 'callbackUrl', detail: expect.stringContaining('private, loopback or link-local') }]);
    }
    expect(await query(`select id from ssc_webhook_subscriptions`)).toEqual([]);
    // Allowed while saved, then the setting goes off: the delivery is refused at connect time.
    await allowPrivateTargets(true);
    await subscribe(receiver.url);
    await allowPrivateTargets(false);
    const id = await schedule('10:00');
    await move(id, 'approved');
    expect(await drainWebhooks(t.ctx)).toMatchObject({ delivered: 0, retried: 1 });
    expect(receiver.received).toEqual([]);
  });
});
