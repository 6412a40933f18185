import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SSC_PROBLEM_TITLES } from '../../../domain/ssc';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { getDayAvailability } from '../availability/availability.service';

// The SSC appointment API on both databases: keys and scopes, revoked and expired keys, the rate
// limit, the schedule → reschedule → cancel round trip through the portal's booking path (source
// ssc, the tenant's policy, no double booking, blackouts and hours respected), the tenant boundary
// (another tenant's appointment is 404), bad input in the standard's error shape, and webhook
// subscriptions with their callback-URL check.

const NOW = '2026-11-23T00:00:00Z'; // Monday 11:00 in Sydney (UTC+11)
const WEDNESDAY = '2026-11-25';
const at = (localTime: string, date = WEDNESDAY) => `${date}T${localTime}:00+11:00`;

type Res = { status: number; body: any; headers: Record<string, unknown> };

describe.each(databaseKinds)('SSC appointment API on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let siteId: string;
  let otherSiteId: string;
  let tenantId: string;
  let otherTenantId: string;
  let admin: Record<string, string>;
  let fullKey: string;
  let otherTenantKey: string;
  let foreignKey: string;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const ssc = async (path: string, key: string | null, payload?: unknown, method: 'POST' | 'GET' | 'PUT' | 'DELETE' = 'POST', headers: Record<string, string> = {}): Promise<Res> => {
    const response = await t.app.inject({
      method,
      url: `/api/ssc${path}`,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
      ...(payload === undefined ? {} : { payload: payload as never }),
    });
    return { status: response.statusCode, body: response.body ? response.json() : undefined, headers: response.headers };
  };
  const appt = (op: string, key: string, payload: unknown, headers?: Record<string, string>) => ssc(`/appointments/v1/${op}`, key, payload, 'POST', headers);
  const makeKey = async (body: Record<string, unknown>, org = orgId, headers = admin) => {
    const response = await t.app.inject({ method: 'POST', url: `/api/orgs/${org}/api-keys`, headers, payload: body as never });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; secret: string };
  };
  const bookingCount = async () => (await query<{ n: number }>(`select count(*)::int as n from bookings where status not in ('cancelled', 'declined')`))[0]!.n;
  const reference = () => `LOAD-${++seq}`;
  const schedule = (key: string, start: string, extra: Record<string, unknown> = {}, identifiers: Record<string, unknown> = {}) =>
    appt('schedule-appointment', key, {
      identifiers: { primaryReferenceNumber: reference(), locationId: siteId, ...identifiers },
      preferredAppointment: { arrivalWindow: { startDateTime: start, duration: 'PT1H' }, loadingType: 'LIVE' },
      ...extra,
    });
  const failure = (res: Res, status: number, title: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.status).toBe('FAILURE');
    expect(res.body.problemDetails.map((p: { title: string }) => p.title)).toContain(title);
    return res.body.problemDetails[0] as { title: string; detail: string; arguments?: { key: string; detail: string }[] };
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    orgId = (await createOrg(db, { name: 'SSC Org' })).id;
    const site = await createSite(db, orgId, { name: 'North Yard', timeZone: 'Australia/Sydney', address: '1 Wharf Rd, Sydney' });
    siteId = site.id;
    await createBay(db, site, { name: 'N-1', heightClearanceM: 4.5 });
    await createBay(db, site, { name: 'N-2', heightClearanceM: 4.5 });
    // A second site with a taller bay: the location decides, not the organization.
    const other = await createSite(db, orgId, { name: 'South Yard', timeZone: 'Australia/Sydney' });
    otherSiteId = other.id;
    await createBay(db, other, { name: 'S-1', heightClearanceM: 6 });
    [{ id: tenantId }] = await query<{ id: string }>(`insert into tenants (org_id, name, contact_emails) values ($1, 'Fast Freight', '{ops@fastfreight.example}') returning id`, [orgId]);
    [{ id: otherTenantId }] = await query<{ id: string }>(`insert into tenants (org_id, name, contact_emails) values ($1, 'Slow Freight', '{ops@slowfreight.example}') returning id`, [orgId]);
    const user = await createUser(db, { email: 'admin@ssc.example' });
    await addMember(db, orgId, user.id, 'org_admin');
    admin = bearer(await signIn(t.app, 'admin@ssc.example'));
    const all = ['availability:read', 'appointments:schedule', 'appointments:reschedule', 'appointments:cancel', 'webhooks'];
    fullKey = (await makeKey({ name: 'TMS', tenantId, scopes: all })).secret;
    otherTenantKey = (await makeKey({ name: 'Other TMS', tenantId: otherTenantId, scopes: all })).secret;
    const foreignOrg = (await createOrg(db, { name: 'Foreign Org' })).id;
    const [{ id: foreignTenant }] = await query<{ id: string }>(`insert into tenants (org_id, name, contact_emails) values ($1, 'Fast Freight', '{ops@fastfreight.example}') returning id`, [foreignOrg]);
    const foreignAdmin = await createUser(db, { email: 'admin@foreign.example' });
    await addMember(db, foreignOrg, foreignAdmin.id, 'org_admin');
    foreignKey = (await makeKey({ name: 'Foreign TMS', tenantId: foreignTenant, scopes: all }, foreignOrg, bearer(await signIn(t.app, 'admin@foreign.example')))).secret;
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await query('delete from bookings');
    await query('delete from blackouts');
    await query(`update tenants set auto_approve = false`);
  });

  it('offers the portal’s slots at the location, in the site’s offset', async () => {
    const res = await appt('fetch-available-appointments', fullKey, { identifiers: { locationId: siteId }, dateRestrictions: { exactDate: WEDNESDAY } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'SUCCESS', locationId: siteId, locationAddress: { streetAddress: '1 Wharf Rd, Sydney' } });
    const day = await getDayAvailability(t.ctx.database.db, { orgId, date: WEDNESDAY, durationMin: 60, vehicleHeightM: 4.1 }, t.clock.now());
    const portal = day.slots.filter((s) => s.bookable && s.candidates.some((c) => c.siteId === siteId)).map((s) => s.time);
    expect(portal.length).toBeGreaterThan(10);
    expect(res.body.appointments.map((a: { arrivalWindow: { startDateTime: string } }) => a.arrivalWindow.startDateTime.slice(11, 16))).toEqual(portal);
    expect(res.body.appointments[0]).toMatchObject({ appointmentType: 'DEFERRED', arrivalWindow: { startDateTime: at('06:00'), duration: 'PT1H' }, loadingType: 'LIVE' });
    // The key's call is audited with the key as the actor.
    const [entry] = await query<{ actor_role: string; actor_id: string; details: Record<string, unknown> }>(
      `select actor_role, actor_id, details from audit_log where action = 'ssc.availability_fetched' order by created_at desc limit 1`,
    );
    expect(entry).toMatchObject({ actor_role: 'api_key', details: { api_key_name: 'TMS', source: 'ssc' } });
  });

  it('schedules → reschedules → cancels: a portal booking with source ssc, the tenant’s policy, the key audited', async () => {
    const load = 'LOAD-ROUND-TRIP';
    const scheduled = await appt('schedule-appointment', fullKey, {
      identifiers: { primaryReferenceNumber: load, poNumber: 'PO-77', stopSequenceNumber: 1, locationId: siteId },
      preferredAppointment: { arrivalWindow: { startDateTime: at('10:00'), duration: 'PT1H' }, loadingType: 'LIVE' },
      equipment: { equipmentType: 'VAN', registration: 'ABC 123' },
      comment: 'Door on the left',
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    expect(scheduled.body).toMatchObject({
      status: 'SUCCESS',
      appointmentStatus: 'PENDING',
      appointment: { arrivalWindow: { startDateTime: at('10:00'), duration: 'PT1H' }, loadingType: 'LIVE', dockDoor: { name: 'N-1' } },
      locationId: siteId,
    });
    const id = scheduled.body.appointment.id as string;
    expect(scheduled.body.appointmentConfirmationNumber).toMatch(/^BW-[0-9A-F]{10}$/);
    const [booking] = await query<Record<string, unknown>>(`select * from bookings where id = $1`, [id]);
    expect(booking).toMatchObject({ source: 'ssc', status: 'pending', tenant_id: tenantId, tsr_number: load, vehicle_type: 'semi', vehicle_registration: 'ABC 123', expected_duration_min: 60, tenant_email: 'ops@fastfreight.example' });
    expect(booking!.notes).toContain('PO PO-77');
    const [created] = await query<{ actor_role: string; actor_id: string; details: Record<string, unknown> }>(`select actor_role, actor_id, details from audit_log where action = 'booking.created' and resource_id = $1`, [id]);
    expect(created).toMatchObject({ actor_role: 'api_key', details: { source: 'ssc', api_key_name: 'TMS', status: 'pending' } });

    // It shows in the organization's bookings like a portal booking.
    const listed = await t.app.inject({ method: 'GET', url: `/api/orgs/${orgId}/bookings`, headers: admin });
    expect(JSON.stringify(listed.json())).toContain(id);

    // Rescheduled by the load's reference, after the tenant was set to auto-approve: confirmed at once.
    await query(`update tenants set auto_approve = true where id = $1`, [tenantId]);
    const moved = await appt('reschedule-appointment', fullKey, {
      identifiers: { primaryReferenceNumber: load, stopSequenceNumber: 1 },
      preferredAppointment: { arrivalWindow: { startDateTime: at('14:00'), duration: 'PT90M' } },
      reasonCode: 'LATE_PICKUP',
      comment: 'Running late',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ status: 'SUCCESS', appointmentStatus: 'CONFIRMED', appointment: { id, arrivalWindow: { startDateTime: at('14:00'), duration: 'PT1H30M' } } });
    const details = await appt('fetch-appointment-details', fullKey, { identifiers: { appointmentId: id } });
    expect(details.body).toMatchObject({ status: 'SUCCESS', appointmentStatus: 'CONFIRMED', mostRecentReasonCode: 'LATE_PICKUP', mostRecentComment: 'Running late', locationId: siteId });

    const cancelled = await appt('cancel-appointment', fullKey, { identifiers: { appointmentId: id }, reasonCode: 'LOAD_CANCELLED' });
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'SUCCESS' } });
    const after = await appt('fetch-appointment-details', fullKey, { identifiers: { primaryReferenceNumber: load } });
    expect(after.body).toMatchObject({ status: 'SUCCESS', appointmentStatus: 'CANCELED', mostRecentReasonCode: 'LOAD_CANCELLED' });
    const actions = await query<{ action: string; actor_role: string }>(`select action, actor_role from audit_log where resource_id = $1 order by created_at, action`, [id]);
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['booking.created', 'booking.rescheduled', 'booking.cancelled']));
    expect(actions.filter((a) => a.action.startsWith('booking.')).every((a) => a.actor_role === 'api_key')).toBe(true);
    // Cancelled once: cancelling again is the standard's appointment error.
    failure(await appt('cancel-appointment', fullKey, { identifiers: { appointmentId: id } }), 200, SSC_PROBLEM_TITLES.appointmentError);
  });

  it('schedules an offered appointment by its id, and answers the same booking to a retried Idempotency-Key', async () => {
    const offered = await appt('fetch-available-appointments', fullKey, { identifiers: { locationId: siteId }, dateRestrictions: { startDate: WEDNESDAY, endDate: WEDNESDAY }, equipment: { equipmentType: 'CARGO_VAN' } });
    const pick = offered.body.appointments[4];
    const body = { identifiers: { primaryReferenceNumber: 'LOAD-BY-ID' }, preferredAppointment: { id: pick.id }, equipment: { equipmentType: 'CARGO_VAN' } };
    const first = await appt('schedule-appointment', fullKey, body, { 'idempotency-key': 'retry-1' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.appointment.arrivalWindow.startDateTime).toBe(pick.arrivalWindow.startDateTime);
    const again = await appt('schedule-appointment', fullKey, body, { 'idempotency-key': 'retry-1' });
    expect(again.body.appointment.id).toBe(first.body.appointment.id);
    expect(await bookingCount()).toBe(1);
    // Without the key, a second appointment for the same load and stop is refused: reschedule it.
    failure(await appt('schedule-appointment', fullKey, body), 200, SSC_PROBLEM_TITLES.appointmentError);
  });

  it('never double-books and never lands in a blackout, out of hours, in the past or on a too-small bay', async () => {
    expect((await schedule(fullKey, at('09:00'))).body.status).toBe('SUCCESS');
    expect((await schedule(fullKey, at('09:00'))).body.status).toBe('SUCCESS');
    // Both bays taken at 09:00: refused, nothing booked.
    const full = failure(await schedule(fullKey, at('09:00')), 200, SSC_PROBLEM_TITLES.appointmentError);
    expect(full.detail).toContain('No compatible bay is available');
    expect(await bookingCount()).toBe(2);

    await query(`insert into blackouts (org_id, site_id, start_time, end_time, reason) values ($1, $2, $3, $4, 'Maintenance')`, [orgId, siteId, at('12:00'), at('13:00')]);
    failure(await schedule(fullKey, at('12:30')), 200, SSC_PROBLEM_TITLES.appointmentError);
    const night = failure(await schedule(fullKey, at('23:00')), 200, SSC_PROBLEM_TITLES.appointmentError);
    expect(night.detail).toBe('The selected time slot is outside operating hours');
    failure(await schedule(fullKey, '2026-11-22T10:00:00+11:00'), 200, SSC_PROBLEM_TITLES.appointmentError);
    // Too tall for North Yard's 4.5 m bays (South Yard's 6 m bay does not count).
    const tall = failure(await schedule(fullKey, at('15:00'), { equipment: { equipmentType: 'B_DOUBLE', heightMeters: 5 } }), 200, SSC_PROBLEM_TITLES.appointmentError);
    expect(tall.detail).toContain('5 m tall and the highest clearance is 4.5 m');
    // Refrigerated equipment needs a refrigerated bay.
    failure(await schedule(fullKey, at('15:00'), { equipment: { equipmentType: 'REEFER' } }), 200, SSC_PROBLEM_TITLES.appointmentError);
    expect(await bookingCount()).toBe(2);
    // The tall vehicle fits at South Yard.
    expect((await schedule(fullKey, at('15:00'), { equipment: { equipmentType: 'B_DOUBLE', heightMeters: 5 } }, { locationId: otherSiteId })).body.status).toBe('SUCCESS');
  });

  it('answers bad input in the standard’s error shape, every problem listed, nothing booked', async () => {
    const bad = await appt('schedule-appointment', fullKey, {
      identifiers: { primaryReferenceNumber: 42, carrier: 'x' },
      preferredAppointment: { arrivalWindow: { startDateTime: 'tomorrow', duration: 'an hour' }, loadingType: 'LIVE_UNLOAD' },
    });
    const problem = failure(bad, 400, SSC_PROBLEM_TITLES.invalidArgument);
    expect(problem.arguments!.map((a) => a.key)).toEqual(
      expect.arrayContaining(['identifiers.primaryReferenceNumber', 'identifiers', 'preferredAppointment.arrivalWindow.startDateTime', 'preferredAppointment.arrivalWindow.duration', 'preferredAppointment.loadingType']),
    );
    failure(await appt('schedule-appointment', fullKey, {}), 400, SSC_PROBLEM_TITLES.invalidArgument);
    const notJson = await t.app.inject({ method: 'POST', url: '/api/ssc/appointments/v1/schedule-appointment', headers: { authorization: `Bearer ${fullKey}`, 'content-type': 'application/json' }, payload: '{nope' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().status).toBe('FAILURE');

    const unknownPlace = failure(await schedule(fullKey, at('10:00'), {}, { locationId: '00000000-0000-4000-8000-000000000000' }), 404, SSC_PROBLEM_TITLES.entityNotFound);
    expect(unknownPlace.detail).toContain('No location');
    const impossible = failure(await schedule(fullKey, at('10:00'), { equipment: { equipmentType: 'SPACESHIP' } }), 200, SSC_PROBLEM_TITLES.invalidArgument);
    expect(impossible.arguments![0]!.key).toBe('equipment.equipmentType');
    failure(await appt('schedule-appointment', fullKey, { identifiers: { locationId: siteId }, preferredAppointment: { arrivalWindow: { startDateTime: at('10:00'), duration: 'PT1H' } } }), 200, SSC_PROBLEM_TITLES.invalidArgument);
    failure(await appt('schedule-appointment', fullKey, { identifiers: { primaryReferenceNumber: 'X', locationId: siteId }, preferredAppointment: { arrivalWindow: { startDateTime: at('10:00'), duration: 'PT9H' } } }), 200, SSC_PROBLEM_TITLES.invalidArgument);
    failure(await appt('fetch-available-appointments', fullKey, { identifiers: { requestIdentifier: 'R1' } }), 200, SSC_PROBLEM_TITLES.capabilityNotSupported);
    // Texts PostgreSQL or a one-line field cannot hold: refused, never a 500.
    const nul = failure(await schedule(fullKey, at('10:00'), { comment: 'a\u0000b', reasonCode: 'x\ny' }, { primaryReferenceNumber: 'LOAD\u0000' }), 200, SSC_PROBLEM_TITLES.invalidArgument);
    expect(nul.arguments!.map((a) => a.key)).toEqual(['identifiers.primaryReferenceNumber', 'reasonCode', 'comment']);
    failure(await appt('cancel-appointment', fullKey, { identifiers: { primaryReferenceNumber: '\u0000' } }), 200, SSC_PROBLEM_TITLES.invalidArgument);
    failure(await ssc('/webhooks/v1/subscriptions/not-a-uuid', fullKey, undefined, 'DELETE'), 404, SSC_PROBLEM_TITLES.entityNotFound);
    failure(await ssc('/webhooks/v1/subscriptions/not-a-uuid', fullKey, { eventTypes: [] }, 'PUT'), 404, SSC_PROBLEM_TITLES.entityNotFound);
    expect(await bookingCount()).toBe(0);
  });

  it('keeps tenants apart: another tenant’s or organization’s appointment answers 404', async () => {
    const mine = await schedule(fullKey, at('11:00'), {}, { primaryReferenceNumber: 'LOAD-MINE' });
    const id = mine.body.appointment.id;
    for (const key of [otherTenantKey, foreignKey]) {
      failure(await appt('fetch-appointment-details', key, { identifiers: { appointmentId: id } }), 404, SSC_PROBLEM_TITLES.entityNotFound);
      failure(await appt('fetch-appointment-details', key, { identifiers: { primaryReferenceNumber: 'LOAD-MINE' } }), 404, SSC_PROBLEM_TITLES.entityNotFound);
      failure(await appt('cancel-appointment', key, { identifiers: { appointmentId: id } }), 404, SSC_PROBLEM_TITLES.entityNotFound);
      failure(
        await appt('reschedule-appointment', key, { identifiers: { appointmentId: id }, preferredAppointment: { arrivalWindow: { startDateTime: at('16:00'), duration: 'PT1H' } } }),
        404,
        SSC_PROBLEM_TITLES.entityNotFound,
      );
    }
    // Another organization's key cannot book at this organization's site either.
    failure(await schedule(foreignKey, at('12:00')), 404, SSC_PROBLEM_TITLES.entityNotFound);
    const [row] = await query<{ status: string; start_time: Date }>(`select status, start_time from bookings where id = $1`, [id]);
    expect(row!.status).toBe('pending');
  });

  it('enforces scopes (403), refuses missing, revoked and expired keys (401)', async () => {
    const readOnly = await makeKey({ name: 'Read only', tenantId, scopes: ['availability:read'] });
    failure(await schedule(readOnly.secret, at('10:00')), 403, 'Forbidden');
    failure(await appt('cancel-appointment', readOnly.secret, { identifiers: { appointmentId: 'x' } }), 403, 'Forbidden');
    failure(await ssc('/webhooks/v1/subscriptions', readOnly.secret, undefined, 'GET'), 403, 'Forbidden');
    expect((await appt('fetch-available-appointments', readOnly.secret, { identifiers: { locationId: siteId } })).body.status).toBe('SUCCESS');

    failure(await appt('fetch-available-appointments', null as never, { identifiers: { locationId: siteId } }), 401, 'Unauthorized');
    failure(await appt('fetch-available-appointments', 'bw_live_not-a-key', { identifiers: { locationId: siteId } }), 401, 'Unauthorized');
    await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/api-keys/${readOnly.id}/revoke`, headers: admin });
    const revoked = failure(await appt('fetch-available-appointments', readOnly.secret, { identifiers: { locationId: siteId } }), 401, 'Unauthorized');
    expect(revoked.detail).toBe('This API key was revoked');

    const shortLived = await makeKey({ name: 'Short', tenantId, scopes: ['availability:read'], expiresAt: '2026-11-23T00:05:00Z' });
    t.clock.set('2026-11-23T00:05:00Z');
    try {
      const expired = failure(await appt('fetch-available-appointments', shortLived.secret, { identifiers: { locationId: siteId } }), 401, 'Unauthorized');
      expect(expired.detail).toContain('expired');
    } finally {
      t.clock.set(NOW);
    }
    expect(await bookingCount()).toBe(0);
  });

  it('rate-limits per key: 429 with Retry-After, other keys unaffected', async () => {
    const limited = await makeKey({ name: 'Limited', tenantId, scopes: ['availability:read'], rateLimitPerMinute: 2 });
    const body = { identifiers: { locationId: siteId }, dateRestrictions: { exactDate: WEDNESDAY } };
    expect((await appt('fetch-available-appointments', limited.secret, body)).status).toBe(200);
    expect((await appt('fetch-appointment-details', limited.secret, { identifiers: { appointmentId: 'x' } })).status).toBe(404);
    const third = await appt('fetch-available-appointments', limited.secret, body);
    failure(third, 429, 'Too Many Requests');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect((await appt('fetch-available-appointments', fullKey, body)).status).toBe(200);
  });

  it('stores webhook subscriptions per tenant, with callback URLs checked against SSRF', async () => {
    const created = await ssc('/webhooks/v1/subscriptions', fullKey, { eventTypes: ['appointment-changed'], callbackUrl: 'https://93.184.215.14/hooks/ssc' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.subscriptionId;
    expect(created.body).toEqual({ subscriptionId: id, eventTypes: ['appointment-changed'], callbackUrl: 'https://93.184.215.14/hooks/ssc' });
    expect(created.headers.location).toBe(`http://localhost:3000/api/ssc/webhooks/v1/subscriptions/${id}`);
    expect((await ssc('/webhooks/v1/subscriptions', fullKey, undefined, 'GET')).body).toEqual({ subscriptions: [created.body] });
    expect((await ssc(`/webhooks/v1/subscriptions/${id}`, fullKey, undefined, 'GET')).body).toEqual(created.body);
    const updated = await ssc(`/webhooks/v1/subscriptions/${id}`, fullKey, { eventTypes: ['appointment-changed', 'fetch-available-appointments'] }, 'PUT');
    expect(updated.body.eventTypes).toEqual(['appointment-changed', 'fetch-available-appointments']);

    for (const url of ['http://127.0.0.1/hook', 'http://localhost:8080/x', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.5/', 'http://[::1]/', 'ftp://tms.example.com/x', 'http://[::ffff:7f00:1]/', 'http://[2002:7f00:1::]/', 'http://[64:ff9b::7f00:1]/', 'http://[2001::7f00:1]/']) {
      failure(await ssc('/webhooks/v1/subscriptions', fullKey, { eventTypes: ['appointment-changed'], callbackUrl: url }), 422, SSC_PROBLEM_TITLES.invalidArgument);
    }
    failure(await ssc('/webhooks/v1/subscriptions', fullKey, { callbackUrl: 'https://93.184.215.14' }), 400, SSC_PROBLEM_TITLES.invalidArgument);
    // The platform setting lets a test rig use a private address.
    const allowPrivate = (on: boolean) => query(`insert into platform_settings (key, value) values ('platform.config', $1::jsonb) on conflict (key) do update set value = platform_settings.value || excluded.value`, [JSON.stringify({ allowPrivateWebhookTargets: on })]);
    await allowPrivate(true);
    try {
      expect((await ssc(`/webhooks/v1/subscriptions/${id}`, fullKey, { callbackUrl: 'http://127.0.0.1:9999/hook' }, 'PUT')).status).toBe(200);
    } finally {
      await allowPrivate(false);
    }

    // Another tenant sees none of it.
    expect((await ssc('/webhooks/v1/subscriptions', otherTenantKey, undefined, 'GET')).body).toEqual({ subscriptions: [] });
    failure(await ssc(`/webhooks/v1/subscriptions/${id}`, otherTenantKey, undefined, 'GET'), 404, SSC_PROBLEM_TITLES.entityNotFound);
    failure(await ssc(`/webhooks/v1/subscriptions/${id}`, otherTenantKey, undefined, 'DELETE'), 404, SSC_PROBLEM_TITLES.entityNotFound);
    expect((await ssc(`/webhooks/v1/subscriptions/${id}`, fullKey, undefined, 'DELETE')).status).toBe(204);
    failure(await ssc(`/webhooks/v1/subscriptions/${id}`, fullKey, undefined, 'GET'), 404, SSC_PROBLEM_TITLES.entityNotFound);
    const actions = (await query<{ action: string }>(`select action from audit_log where resource_id = $1 order by created_at`, [id])).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['ssc.subscription_created', 'ssc.subscription_updated', 'ssc.subscription_deleted']));
  });
});
