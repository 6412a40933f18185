import fs from 'node:fs';
import path from 'node:path';
import addFormats from 'ajv-formats';
import OpenAPIBackend, { type Document } from 'openapi-backend';
import { ValidationContext } from 'openapi-backend/validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn } from '../../test/fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { startTestReceiver } from '../../delivery/test-receiver';
import { drainWebhooks } from '../../delivery/webhook-delivery';
import { createSscClient } from '../../../examples/carrier/carrier';

// The contract: every request this suite sends and every answer Baywise gives, for success and for
// each error case of each operation, is checked against the Scheduling Standards Consortium's own
// OpenAPI document (docs/ssc/ssc-appointments-openapi-v1.1.yaml) by an OpenAPI validator
// (openapi-backend, ajv with formats) — no hand-written shape checks. Requests the standard
// refuses must be refused by us (400) with a body the standard accepts as a failure.
// Answers with a status the standard does not list (400, 401, 403, 404, 429: protocol semantics
// per its "HTTP Status Codes" section) are checked against the operation's 200 schema, whose
// responseInfoFailure branch is the standard's failure shape (docs/decisions/020-carrier-api.md).
// Baywise's own profile (/api/ssc/openapi.json, generated from the routes' zod schemas) is held to
// the same calls: it accepts and refuses exactly the requests the standard does, and every answer
// matches it at its real status. The typed client generated from that profile (openapi-fetch,
// examples/carrier) makes its own round trip, every answer checked against the standard.

const SPEC = path.resolve(__dirname, '../../../docs/ssc/ssc-appointments-openapi-v1.1.yaml');
const NOW = '2026-11-23T00:00:00Z';
const at = (time: string) => `2026-11-25T${time}:00+11:00`;

type Operation =
  | 'fetch-available-appointments'
  | 'schedule-appointment'
  | 'reschedule-appointment'
  | 'cancel-appointment'
  | 'fetch-appointment-details'
  | 'get-subscriptions'
  | 'subscribe'
  | 'get-subscription'
  | 'update-subscription'
  | 'delete-subscription';

/**
 * OpenAPI 3.0 writes an exclusive bound as `minimum: n, exclusiveMinimum: true` (as the profile
 * does); openapi-backend's Ajv reads JSON Schema's `exclusiveMinimum: n`. The same bound, rewritten.
 */
function ajvBounds<T>(node: T): T {
  if (Array.isArray(node)) return node.map(ajvBounds) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(node)) out[name] = ajvBounds(value);
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (out[exclusive] === true) {
      out[exclusive] = out[bound];
      delete out[bound];
    }
  }
  return out as T;
}

describe('SSC contract against the standard’s OpenAPI document', () => {
  let api: OpenAPIBackend;
  /** Baywise's profile, as /api/ssc/openapi.json serves it. */
  let profile: OpenAPIBackend;
  let t: TestApp;
  let siteId: string;
  let key: string;
  let readOnlyKey: string;
  let limitedKey: string;
  /** Operation → the statuses seen, so the last test can tell every operation was exercised. */
  const seen = new Map<Operation, Set<number>>();

  /**
   * Sends one call: the request is validated against the standard (valid unless `requestValid`
   * says otherwise), then the answer, whatever its status.
   */
  async function call(operationId: Operation, options: { body?: unknown; rawBody?: string; params?: Record<string, string>; apiKey?: string | null; requestValid?: boolean }) {
    const operation = api.getOperation(operationId)!;
    const url = `/api/ssc${operation.path.replace(/\{(\w+)\}/g, (_, name: string) => options.params![name]!)}`;
    const method = operation.method.toUpperCase();
    let profileRefused = false;
    if (options.rawBody === undefined) {
      const verdict = api.validateRequest({ method, path: operation.path.replace(/\{(\w+)\}/g, (_, name: string) => options.params![name]!), headers: { 'content-type': 'application/json' }, body: options.body }, operation);
      expect(verdict.valid, `request of ${operationId} per the standard: ${JSON.stringify(verdict.errors)}`).toBe(options.requestValid ?? true);
      // The profile refuses whatever the standard refuses; it may refuse more only where it is
      // stricter about Baywise's own extensions (equipment, stopType), and Baywise then refuses too.
      const ours = profile.validateRequest({ method, path: operation.path.replace(/\{(\w+)\}/g, (_, name: string) => options.params![name]!), headers: { 'content-type': 'application/json' }, body: options.body }, operationId);
      if (!(options.requestValid ?? true)) expect(ours.valid, `request of ${operationId} per Baywise's profile: ${JSON.stringify(options.body)}`).toBe(false);
      else if (!ours.valid) {
        expect(ours.errors?.every((e) => /^\/requestBody\/(equipment|stopType)\b/.test(e.instancePath)), `request of ${operationId} per Baywise's profile: ${JSON.stringify(ours.errors)}`).toBe(true);
        profileRefused = true;
      }
    }
    const apiKey = options.apiKey === undefined ? key : options.apiKey;
    const response = await t.app.inject({
      method: method as 'POST',
      url,
      headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...(options.rawBody !== undefined || options.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(options.rawBody !== undefined ? { payload: options.rawBody } : options.body !== undefined ? { payload: JSON.stringify(options.body) } : {}),
    });
    const body = response.body ? response.json() : undefined;
    const listed = Object.keys(operation.responses ?? {}).map(Number);
    const checkedAs = listed.includes(response.statusCode) ? response.statusCode : (listed.find((code) => code >= 200 && code < 300) ?? 200);
    if (response.statusCode !== 204) {
      const isWebhookOperation = operation.path.startsWith('/webhooks/');
      const verdict = checkedAs === response.statusCode || !isWebhookOperation ? api.validateResponse(body, operation, checkedAs) : failureValidator(body);
      expect(verdict.valid, `answer ${response.statusCode} of ${operationId} per the standard: ${JSON.stringify(verdict.errors)} ${JSON.stringify(body)}`).toBe(true);
      const ourOperation = profile.getOperation(operationId)!;
      expect(Object.keys(ourOperation.responses ?? {}), `${operationId} answered ${response.statusCode}, which Baywise's profile does not list`).toContain(String(response.statusCode));
      const ours = profile.validateResponse(body, ourOperation, response.statusCode);
      expect(ours.valid, `answer ${response.statusCode} of ${operationId} per Baywise's profile: ${JSON.stringify(ours.errors)} ${JSON.stringify(body)}`).toBe(true);
    }
    if (profileRefused) expect(body?.status, `${operationId}: Baywise's profile refuses the request, so must Baywise`).toBe('FAILURE');
    seen.set(operationId, new Set([...(seen.get(operationId) ?? []), response.statusCode]));
    return { status: response.statusCode, body, headers: response.headers };
  }

  /** The webhook operations list no failure schema: their errors are checked against responseInfoFailure. */
  let failureValidator: (body: unknown) => { valid: boolean; errors?: unknown };
  /** The standard's "Appointment Changed Event Payload" (webhooks › appointment-changed › requestBody). */
  let eventValidator: (body: unknown) => { valid: boolean; errors?: unknown };
  let orgId: string;
  let admin: Record<string, string>;
  /** What the site's admin does in the portal: approve a booking, accept or refuse a carrier's reschedule request. */
  const portal = async (bookingId: string, action: 'approve' | 'accept' | 'refuse') => {
    const db = t.ctx.database;
    const [row] = await db.query<{ version: number }>(`select version from bookings where id = $1`, [bookingId]);
    const [url, payload] =
      action === 'approve' ? [`/bookings/${bookingId}/transitions`, { to: 'approved', version: row!.version }] : [`/bookings/${bookingId}/reschedule-request/${action}`, action === 'refuse' ? { reason: 'Dock full' } : undefined];
    const response = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}${url}`, headers: admin, ...(payload ? { payload } : {}) });
    expect(response.statusCode, response.body).toBe(200);
  };

  beforeAll(async () => {
    const definition = parseYaml(fs.readFileSync(SPEC, 'utf8')) as Document;
    api = new OpenAPIBackend({ definition, quick: true, validate: true, customizeAjv: (ajv) => addFormats(ajv, { mode: 'full' }) as never });
    await api.init();
    const ajv = api.validator.getAjv(ValidationContext.Response);
    const dereferenced = api.definition as unknown as { components: { schemas: Record<string, object> } };
    const validateFailure = ajv.compile(dereferenced.components.schemas.responseInfoFailure!);
    failureValidator = (body) => ({ valid: validateFailure(body) as boolean, errors: validateFailure.errors });
    const webhooks = (api.definition as unknown as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }> }).webhooks;
    const validateEvent = ajv.compile(webhooks['appointment-changed']!.post.requestBody.content['application/json']!.schema);
    eventValidator = (body) => ({ valid: validateEvent(body) as boolean, errors: validateEvent.errors });

    t = await createTestApp('pglite', { now: NOW });
    profile = new OpenAPIBackend({ definition: ajvBounds((await t.app.inject({ url: '/api/ssc/openapi.json' })).json()), quick: true, validate: true, customizeAjv: (ajv) => addFormats(ajv, { mode: 'full' }) as never });
    await profile.init();
    const db = t.ctx.database;
    orgId = (await createOrg(db, { name: 'Contract Org' })).id;
    const site = await createSite(db, orgId, { name: 'Contract Yard', timeZone: 'Australia/Sydney', address: '2 Quay St' });
    siteId = site.id;
    await createBay(db, site, { name: 'C-1', heightClearanceM: 4.5 });
    const [{ id: tenantId }] = await db.query<{ id: string }>(`insert into tenants (org_id, name, contact_emails) values ($1, 'Contract Freight', '{ops@contract.example}') returning id`, [orgId]);
    const user = await createUser(db, { email: 'admin@contract.example' });
    await addMember(db, orgId, user.id, 'org_admin');
    admin = bearer(await signIn(t.app, 'admin@contract.example'));
    const make = async (body: Record<string, unknown>) => (await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/api-keys`, headers: admin, payload: body as never })).json().secret as string;
    key = await make({ name: 'Contract TMS', tenantId, scopes: ['availability:read', 'appointments:schedule', 'appointments:reschedule', 'appointments:cancel', 'webhooks'] });
    readOnlyKey = await make({ name: 'Read only', tenantId, scopes: ['availability:read'] });
    limitedKey = await make({ name: 'Limited', tenantId, scopes: ['availability:read'], rateLimitPerMinute: 1 });
  });
  afterAll(() => t?.close());

  it('fetch-available-appointments: success, each date form, the failures', async () => {
    const ok = await call('fetch-available-appointments', { body: { identifiers: { locationId: siteId }, dateRestrictions: { exactDate: '2026-11-25' } } });
    expect(ok.body.appointments.length).toBeGreaterThan(0);
    await call('fetch-available-appointments', { body: { identifiers: { locationId: siteId }, dateRestrictions: { startDate: '2026-11-24', endDate: '2026-11-26' } } });
    await call('fetch-available-appointments', { body: { identifiers: { locationId: siteId } } });
    // Failures the standard accepts as requests.
    expect((await call('fetch-available-appointments', { body: { identifiers: { requestIdentifier: 'R1' } } })).status).toBe(200);
    expect((await call('fetch-available-appointments', { body: { identifiers: { locationId: '00000000-0000-4000-8000-000000000000' } } })).status).toBe(404);
    expect((await call('fetch-available-appointments', { body: { identifiers: { primaryReferenceNumber: 'X' } } })).body.status).toBe('FAILURE');
    expect((await call('fetch-available-appointments', { body: { identifiers: { locationId: siteId }, equipment: { equipmentType: 'ROCKET' } } })).body.status).toBe('FAILURE');
    expect((await call('fetch-available-appointments', { body: { identifiers: { locationId: siteId }, dateRestrictions: { startDate: '2026-11-24', endDate: '2027-01-30' } } })).body.status).toBe('FAILURE');
    // Requests the standard refuses: 400 with the failure shape.
    for (const body of [
      {},
      { identifiers: { locationId: siteId, carrierCode: 'X' } },
      { identifiers: { appointmentId: 'a', requestIdentifier: 'b' } },
      { identifiers: { locationId: siteId }, dateRestrictions: { exactDate: '25/11/2026' } },
      { identifiers: { locationId: siteId }, dateRestrictions: { startDate: '2026-11-24' } },
      { identifiers: { stopSequenceNumber: -1 } },
    ]) {
      expect((await call('fetch-available-appointments', { body, requestValid: false })).status).toBe(400);
    }
    expect((await call('fetch-available-appointments', { rawBody: '{"identifiers":' })).status).toBe(400);
    // The protocol's own refusals.
    expect((await call('fetch-available-appointments', { body: { identifiers: { locationId: siteId } }, apiKey: null })).status).toBe(401);
    expect((await call('fetch-available-appointments', { body: { identifiers: { locationId: siteId } }, apiKey: limitedKey })).status).toBe(200);
    expect((await call('fetch-available-appointments', { body: { identifiers: { locationId: siteId } }, apiKey: limitedKey })).status).toBe(429);
  });

  it('schedule, reschedule, details and cancel: success and each failure', async () => {
    const scheduled = await call('schedule-appointment', {
      body: { identifiers: { primaryReferenceNumber: 'C-LOAD-1', stopSequenceNumber: 1, locationId: siteId }, preferredAppointment: { arrivalWindow: { startDateTime: at('10:00'), duration: 'PT1H' }, loadingType: 'LIVE' } },
    });
    expect(scheduled.body.status).toBe('SUCCESS');
    const id = scheduled.body.appointment.id as string;
    const offered = await call('fetch-available-appointments', { body: { identifiers: { appointmentId: id }, dateRestrictions: { exactDate: '2026-11-25' } } });
    const byId = await call('reschedule-appointment', { body: { identifiers: { appointmentId: id }, preferredAppointment: { id: offered.body.appointments.at(-1).id, loadingType: 'DROP' }, reasonCode: 'CARRIER' } });
    expect(byId.body.status).toBe('SUCCESS');
    const byWindow = await call('reschedule-appointment', { body: { identifiers: { primaryReferenceNumber: 'C-LOAD-1' }, preferredAppointment: { arrivalWindow: { startDateTime: at('11:00'), duration: 'PT30M' } } } });
    expect(byWindow.body.status).toBe('SUCCESS');
    expect((await call('fetch-appointment-details', { body: { identifiers: { appointmentId: id } } })).body.appointmentStatus).toBe('PENDING');
    expect((await call('fetch-appointment-details', { body: { identifiers: { primaryReferenceNumber: 'C-LOAD-1', locationId: siteId } } })).body.status).toBe('SUCCESS');
    // A confirmed appointment's reschedule awaits the site: PENDING (the standard's pending response), and so do its details.
    await portal(id, 'approve');
    expect((await call('fetch-appointment-details', { body: { identifiers: { appointmentId: id } } })).body.appointmentStatus).toBe('CONFIRMED');
    const pending = await call('reschedule-appointment', { body: { identifiers: { appointmentId: id }, preferredAppointment: { arrivalWindow: { startDateTime: at('12:00'), duration: 'PT1H' } } } });
    expect(pending.body).toEqual({ status: 'PENDING' });
    const waiting = await call('fetch-appointment-details', { body: { identifiers: { appointmentId: id } } });
    expect(waiting.body).toMatchObject({ appointmentStatus: 'PENDING', appointment: { arrivalWindow: { startDateTime: at('11:00') } } });
    await portal(id, 'accept');
    expect((await call('fetch-appointment-details', { body: { identifiers: { appointmentId: id } } })).body).toMatchObject({ appointmentStatus: 'CONFIRMED', appointment: { arrivalWindow: { startDateTime: at('12:00') } } });

    // Refusals the standard answers with FAILURE.
    const slotTaken = await call('schedule-appointment', { body: { identifiers: { primaryReferenceNumber: 'C-LOAD-2', locationId: siteId }, preferredAppointment: { arrivalWindow: { startDateTime: at('12:00'), duration: 'PT1H' } } } });
    expect(slotTaken.body.status).toBe('FAILURE');
    for (const body of [
      { identifiers: { primaryReferenceNumber: 'C-LOAD-3', locationId: siteId }, preferredAppointment: { arrivalWindow: { startDateTime: at('23:30'), duration: 'PT1H' } } },
      { identifiers: { primaryReferenceNumber: 'C-LOAD-3', locationId: siteId }, preferredAppointment: { arrivalWindow: { startDateTime: '2026-11-20T10:00:00+11:00', duration: 'PT1H' } } },
      { identifiers: { primaryReferenceNumber: 'C-LOAD-3', locationId: siteId }, preferredAppointment: { arrivalWindow: { startDateTime: at('13:00'), duration: 'PT1H' } }, equipment: { heightMeters: 5.5 } },
      { identifiers: { primaryReferenceNumber: 'C-LOAD-3', locationId: siteId }, preferredAppointment: { id: 'not-an-offer' } },
      { identifiers: { primaryReferenceNumber: 'C-LOAD-3', locationId: siteId }, preferredAppointment: { id: 'x', appointmentType: 'FCFS' } },
      { identifiers: { locationId: siteId }, preferredAppointment: { arrivalWindow: { startDateTime: at('13:00'), duration: 'PT1H' } } },
    ]) {
      const res = await call('schedule-appointment', { body });
      expect(res.body.status, JSON.stringify(res.body)).toBe('FAILURE');
    }
    expect((await call('schedule-appointment', { body: { identifiers: { primaryReferenceNumber: 'C-LOAD-3', locationId: '00000000-0000-4000-8000-000000000000' }, preferredAppointment: { arrivalWindow: { startDateTime: at('13:00'), duration: 'PT1H' } } } })).status).toBe(404);
    // Bodies the standard refuses.
    for (const body of [
      { identifiers: { primaryReferenceNumber: 'C' } },
      { identifiers: { appointmentId: id }, preferredAppointment: { id: 'x' } },
      { identifiers: { primaryReferenceNumber: 'C' }, preferredAppointment: { arrivalWindow: { startDateTime: '2026-11-25 10:00', duration: 'PT1H' } } },
      { identifiers: { primaryReferenceNumber: 'C' }, preferredAppointment: { id: 'x', arrivalWindow: { startDateTime: at('10:00'), duration: 'PT1H' } } },
      { identifiers: { primaryReferenceNumber: 'C' }, preferredAppointment: { id: 'x', loadingType: 'PRELOAD' } },
    ]) {
      expect((await call('schedule-appointment', { body, requestValid: false })).status).toBe(400);
    }
    expect((await call('reschedule-appointment', { body: { identifiers: { appointmentId: id } }, requestValid: false })).status).toBe(400);
    expect((await call('cancel-appointment', { body: { reasonCode: 'X' }, requestValid: false })).status).toBe(400);
    expect((await call('fetch-appointment-details', { body: { identifiers: 'abc' }, requestValid: false })).status).toBe(400);
    expect((await call('reschedule-appointment', { body: { identifiers: { appointmentId: '00000000-0000-4000-8000-000000000000' }, preferredAppointment: { arrivalWindow: { startDateTime: at('15:00'), duration: 'PT1H' } } } })).status).toBe(404);
    expect((await call('fetch-appointment-details', { body: { identifiers: { appointmentId: 'nope' } } })).status).toBe(404);
    expect((await call('schedule-appointment', { body: { identifiers: { primaryReferenceNumber: 'C-LOAD-4', locationId: siteId }, preferredAppointment: { arrivalWindow: { startDateTime: at('16:00'), duration: 'PT1H' } } }, apiKey: readOnlyKey })).status).toBe(403);
    expect((await call('cancel-appointment', { body: { identifiers: { appointmentId: id } }, apiKey: readOnlyKey })).status).toBe(403);
    expect((await call('cancel-appointment', { body: { identifiers: { appointmentId: id } }, apiKey: 'bw_live_wrong' })).status).toBe(401);

    expect((await call('cancel-appointment', { body: { identifiers: { appointmentId: id }, reasonCode: 'DONE', comment: 'No longer needed' } })).body.status).toBe('SUCCESS');
    expect((await call('cancel-appointment', { body: { identifiers: { appointmentId: id } } })).body.status).toBe('FAILURE');
    expect((await call('fetch-appointment-details', { body: { identifiers: { appointmentId: id } } })).body.appointmentStatus).toBe('CANCELED');
    expect((await call('cancel-appointment', { body: { identifiers: { appointmentId: '00000000-0000-4000-8000-000000000000' } } })).status).toBe(404);
  });

  it('webhook subscriptions: the collection and each failure', async () => {
    const created = await call('subscribe', { body: { eventTypes: ['appointment-changed'], callbackUrl: 'https://93.184.215.14/ssc' } });
    expect(created.status).toBe(201);
    const subscriptionId = created.body.subscriptionId as string;
    await call('get-subscriptions', {});
    await call('get-subscription', { params: { subscriptionId } });
    expect((await call('update-subscription', { params: { subscriptionId }, body: { subscriptionId, eventTypes: ['appointment-changed', 'fetch-available-appointments'], callbackUrl: 'https://93.184.215.14/ssc2' } })).status).toBe(200);
    const unsafe = await call('subscribe', { body: { eventTypes: ['appointment-changed'], callbackUrl: 'http://169.254.169.254/' } });
    expect([unsafe.status, unsafe.body.status]).toEqual([422, 'FAILURE']);
    expect((await call('subscribe', { body: { eventTypes: ['appointment-cancelled'] }, requestValid: false })).status).toBe(400);
    expect((await call('subscribe', { body: { callbackUrl: 'https://93.184.215.14' }, requestValid: false })).status).toBe(400);
    expect((await call('update-subscription', { params: { subscriptionId }, body: { eventTypes: 'appointment-changed' }, requestValid: false })).status).toBe(400);
    expect((await call('get-subscription', { params: { subscriptionId: '00000000-0000-4000-8000-000000000000' } })).status).toBe(404);
    expect((await call('get-subscriptions', { apiKey: readOnlyKey })).status).toBe(403);
    expect((await call('delete-subscription', { params: { subscriptionId } })).status).toBe(204);
    expect((await call('delete-subscription', { params: { subscriptionId } })).status).toBe(404);
  });

  it('appointment-changed events: every body the carrier receives is the standard’s payload', async () => {
    const receiver = await startTestReceiver();
    try {
      await t.ctx.database.query(`insert into platform_settings (key, value) values ('platform.config', '{"allowPrivateWebhookTargets": true}'::jsonb) on conflict (key) do update set value = platform_settings.value || excluded.value`);
      expect((await call('subscribe', { body: { eventTypes: ['appointment-changed'], callbackUrl: receiver.url } })).status).toBe(201);
      const scheduled = await call('schedule-appointment', {
        body: { identifiers: { primaryReferenceNumber: 'C-EVT-1', poNumber: 'PO-9', bolNumber: 'BOL-9', stopSequenceNumber: 0, locationId: siteId }, preferredAppointment: { arrivalWindow: { startDateTime: at('14:00'), duration: 'PT1H' }, loadingType: 'LIVE' } },
      });
      const id = scheduled.body.appointment.id as string;
      await call('reschedule-appointment', { body: { identifiers: { appointmentId: id }, preferredAppointment: { arrivalWindow: { startDateTime: at('15:00'), duration: 'PT30M' } } } });
      // Confirmed, then two reschedules awaiting the site: one refused (the appointment stays), one accepted.
      await portal(id, 'approve');
      const later = { identifiers: { appointmentId: id }, preferredAppointment: { arrivalWindow: { startDateTime: at('16:00'), duration: 'PT45M' } } };
      expect((await call('reschedule-appointment', { body: later })).body.status).toBe('PENDING');
      await portal(id, 'refuse');
      expect((await call('reschedule-appointment', { body: later })).body.status).toBe('PENDING');
      await portal(id, 'accept');
      await call('cancel-appointment', { body: { identifiers: { appointmentId: id }, reasonCode: 'DONE', comment: 'No longer needed' } });
      await drainWebhooks(t.ctx);
      const hooks = await receiver.waitFor(5);
      expect(hooks.map((h) => JSON.parse(h.body).reasonCode).sort()).toEqual(['APPROVED', 'CANCELLED', 'RESCHEDULED', 'RESCHEDULED', 'RESCHEDULE_REFUSED']);
      for (const hook of hooks) {
        const verdict = eventValidator(JSON.parse(hook.body));
        expect(verdict.valid, `appointment-changed per the standard: ${JSON.stringify(verdict.errors)} ${hook.body}`).toBe(true);
      }
      // And the validator does refuse what the standard refuses (no occurredAt; an unknown status).
      const sample = JSON.parse(hooks[0]!.body) as Record<string, unknown>;
      expect(eventValidator({ ...sample, occurredAt: undefined }).valid).toBe(false);
      expect(eventValidator({ ...sample, currentAppointment: { appointmentStatus: 'MOVED' } }).valid).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it('the typed client generated from /api/ssc/openapi.json: a round trip, each answer per the standard', async () => {
    /** openapi-fetch's requests, answered by the app in process. */
    const inject = async (request: Request) => {
      const url = new URL(request.url);
      const payload = await request.text();
      const answer = await t.app.inject({ method: request.method as 'POST', url: url.pathname + url.search, headers: Object.fromEntries(request.headers), ...(payload ? { payload } : {}) });
      return new Response(answer.statusCode === 204 ? null : answer.body, { status: answer.statusCode, headers: answer.headers as Record<string, string> });
    };
    const client = createSscClient('http://baywise.test', key, inject);
    const checked = <T>(operationId: Operation, status: number, body: T) => {
      const verdict = api.validateResponse(body, api.getOperation(operationId)!, status === 201 || status === 200 ? status : 200);
      expect(verdict.valid, `${operationId} per the standard: ${JSON.stringify(verdict.errors)}`).toBe(true);
      return body;
    };

    const offered = await client.POST('/appointments/v1/fetch-available-appointments', { body: { identifiers: { locationId: siteId }, dateRestrictions: { exactDate: '2026-11-26' } } });
    const offers = checked('fetch-available-appointments', offered.response.status, offered.data!);
    if (offers.status !== 'SUCCESS') throw new Error(JSON.stringify(offers));
    const scheduled = await client.POST('/appointments/v1/schedule-appointment', {
      params: { header: { 'Idempotency-Key': 'typed-client-1' } },
      body: { identifiers: { primaryReferenceNumber: 'C-TYPED-1', locationId: siteId }, preferredAppointment: { id: offers.appointments[0]!.id } },
    });
    const booked = checked('schedule-appointment', scheduled.response.status, scheduled.data!);
    if (booked.status !== 'SUCCESS') throw new Error(JSON.stringify(booked));
    // The Idempotency-Key the profile documents: the retry answers the same booking.
    const retried = await client.POST('/appointments/v1/schedule-appointment', {
      params: { header: { 'Idempotency-Key': 'typed-client-1' } },
      body: { identifiers: { primaryReferenceNumber: 'C-TYPED-1', locationId: siteId }, preferredAppointment: { id: offers.appointments[0]!.id } },
    });
    expect(retried.data?.status === 'SUCCESS' && retried.data.appointment.id).toBe(booked.appointment.id);
    const details = await client.POST('/appointments/v1/fetch-appointment-details', { body: { identifiers: { appointmentId: booked.appointment.id } } });
    expect(checked('fetch-appointment-details', details.response.status, details.data!)).toMatchObject({ status: 'SUCCESS', appointmentConfirmationNumber: booked.appointmentConfirmationNumber });
    const cancelled = await client.POST('/appointments/v1/cancel-appointment', { body: { identifiers: { appointmentId: booked.appointment.id } } });
    expect(checked('cancel-appointment', cancelled.response.status, cancelled.data!)).toEqual({ status: 'SUCCESS' });
    // A refusal arrives on the client's error branch, in the failure shape.
    const missing = await client.POST('/appointments/v1/fetch-appointment-details', { body: { identifiers: { appointmentId: '00000000-0000-4000-8000-000000000000' } } });
    expect(missing.response.status).toBe(404);
    expect(failureValidator(missing.error).valid).toBe(true);

    const created = await client.POST('/webhooks/v1/subscriptions', { body: { eventTypes: ['fetch-available-appointments'], callbackUrl: 'https://93.184.215.14/typed' } });
    expect(created.response.status).toBe(201);
    const subscriptionId = checked('subscribe', 201, created.data!).subscriptionId!;
    const listed = await client.GET('/webhooks/v1/subscriptions');
    expect(checked('get-subscriptions', 200, listed.data!).subscriptions?.map((s) => s.subscriptionId)).toContain(subscriptionId);
    const deleted = await client.DELETE('/webhooks/v1/subscriptions/{subscriptionId}', { params: { path: { subscriptionId } } });
    expect(deleted.response.status).toBe(204);
  });

  it('exercised every operation of the standard', () => {
    const operations = api.definition.paths ? Object.values(api.definition.paths).flatMap((item) => Object.values(item ?? {}).flatMap((op) => (op && typeof op === 'object' && 'operationId' in op ? [op.operationId as Operation] : []))) : [];
    expect(operations).toHaveLength(10);
    expect(operations.filter((op) => !seen.has(op))).toEqual([]);
  });
});
