import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SSC_PROBLEM_TITLES, appointmentStatusOf } from '../../../domain/ssc';
import { NO_AVAILABLE_BAY } from '../../../domain/booking-messages';
import { orgRules } from '../bookings/org-rules';
import { addMember, createBay, createOrg, createSite, createUser } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { createApiKey } from '../api-keys/api-keys.service';
import { countOverlaps } from '../availability/availability.repo';

// The SSC schedule-appointment's one-statement path (ssc.service.ts scheduleFast →
// public-booking-fast.ts submitChannelBookingFast → book-slot-sql.ts BOOK_CHANNEL_SQL) against
// the full path it stands in for. A tenant with a daily limit always takes the full path (its
// count is taken under a lock there), so the same request answered with and without a (never
// reached) daily limit compares the two: the same rows, the same answers, the same refusals. A
// trigger records which statement inserted each booking, so the tests know which path booked.

const NOW = '2026-11-23T00:00:00Z'; // Monday 11:00 in Sydney (UTC+11)
const at = (localTime: string, date = '2026-11-25') => `${date}T${localTime}:00+11:00`;

type Res = { status: number; body: any };

describe.each(databaseKinds)('SSC schedule-appointment fast path on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let siteId: string;
  let otherSiteId: string;
  let tenantId: string;
  let keyId: string;
  let secret: string;
  let endpointId: string;
  let seq = 0;

  const query = <T = Record<string, any>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const reference = () => `LOAD-F${++seq}`;
  const schedule = async (start: string, extra: Record<string, unknown> = {}, identifiers: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Res> => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/ssc/appointments/v1/schedule-appointment',
      headers: { authorization: `Bearer ${secret}`, ...headers },
      payload: {
        identifiers: { primaryReferenceNumber: reference(), stopSequenceNumber: 1, locationId: siteId, ...identifiers },
        preferredAppointment: { arrivalWindow: { startDateTime: start, duration: 'PT1H' }, loadingType: 'LIVE' },
        equipment: { equipmentType: 'STRAIGHT_TRUCK', heightMeters: 3.5 },
        ...extra,
      } as never,
    });
    return { status: response.statusCode, body: response.json() };
  };
  /** Which path inserted the booking: the one statement, or the full path's insert. */
  const pathOf = async (bookingId: string) => {
    const [row] = await query<{ statement: string }>(`select statement from booked_by where booking_id = $1`, [bookingId]);
    return /with gate as|baywise_book_channel_slot/i.test(row!.statement) ? 'fast' : 'full';
  };
  const fullPathOnly = (on: boolean) => query(`update tenants set max_bookings_per_day = $2 where id = $1`, [tenantId, on ? 1000 : null]);
  const liveBookings = async () => (await query<{ n: number }>(`select count(*)::int as n from bookings where status not in ('cancelled', 'declined', 'no_show')`))[0]!.n;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    orgId = (await createOrg(db, { name: 'Fast Lane Org' })).id;
    const site = await createSite(db, orgId, { name: 'North Yard', timeZone: 'Australia/Sydney', address: '1 Wharf Rd, Sydney' });
    siteId = site.id;
    // Best fit: the lowest sufficient clearance first.
    await createBay(db, site, { name: 'N-3', heightClearanceM: 5 });
    await createBay(db, site, { name: 'N-1', heightClearanceM: 4 });
    await createBay(db, site, { name: 'N-2', heightClearanceM: 4.5 });
    const other = await createSite(db, orgId, { name: 'South Yard', timeZone: 'Australia/Sydney' });
    otherSiteId = other.id;
    await createBay(db, other, { name: 'S-1', heightClearanceM: 6 });
    [{ id: tenantId }] = await query<{ id: string }>(
      `insert into tenants (org_id, name, contact_name, contact_emails, phone) values ($1, 'Carrier Co', 'Dispatch', '{tms@carrier.example}', '+61 2 5550 1000') returning id`,
      [orgId],
    );
    const admin = await createUser(db, { email: 'admin@fastlane.example' });
    await addMember(db, orgId, admin.id, 'org_admin');
    const scope = { orgId, userId: admin.id, role: 'org_admin', isPlatformAdmin: false, actor: 'org_admin' as const, auditActor: { id: admin.id, email: 'admin@fastlane.example', role: 'org_admin' } };
    const key = await createApiKey(t.ctx, scope as never, { name: 'Carrier TMS', tenantId, scopes: ['appointments:schedule'], expiresAt: null, rateLimitPerMinute: 100_000 }, null);
    keyId = key.id;
    secret = key.secret;
    [{ id: endpointId }] = await query<{ id: string }>(
      `insert into webhook_endpoints (org_id, url, events, secret_enc, secret_hint) values ($1, 'https://hooks.example/baywise', '{booking.created}', 'sealed', 'abcd') returning id`,
      [orgId],
    );
    await query(`create table booked_by (booking_id uuid primary key, statement text not null)`);
    await query(`create function record_booked_by() returns trigger language plpgsql as $$
      begin insert into booked_by values (new.id, current_query()); return null; end $$`);
    await query(`create trigger bookings_booked_by after insert on bookings for each row execute function record_booked_by()`);
  });

  afterAll(async () => {
    await t?.close();
  });

  beforeEach(async () => {
    await query(`delete from bookings`);
    await query(`delete from blackouts`);
    await query(`update tenants set auto_approve = false, status = 'active', allowed_site_ids = null, max_bookings_per_day = null`);
    await query(`update organizations set settings = '{}'::jsonb where id = $1`, [orgId]);
    await query(`update sites set emergency_at = null`);
    // Any change to a site moves the organization's config_version: the cached site rules are then
    // refused by the statement (that request takes the full path). Read afresh, as a booking would.
    await orgRules(t.ctx.database, orgId, true);
  });

  it('books in one statement, with the rows and the answer the full path gives', async () => {
    const fast = await schedule(at('10:00'), { comment: 'Dock 4 please', reasonCode: 'NEW' }, { poNumber: 'PO-1', bolNumber: 'BOL-1' });
    await fullPathOnly(true);
    const full = await schedule(at('10:00', '2026-11-26'), { comment: 'Dock 4 please', reasonCode: 'NEW' }, { poNumber: 'PO-1', bolNumber: 'BOL-1' });
    await fullPathOnly(false);
    expect(fast.status, JSON.stringify(fast.body)).toBe(200);
    expect(full.status, JSON.stringify(full.body)).toBe(200);
    const [fastId, fullId] = [fast.body.appointment.id as string, full.body.appointment.id as string];
    expect(await pathOf(fastId)).toBe('fast');
    expect(await pathOf(fullId)).toBe('full');

    // The answer: the same but for the booking's id and day.
    const answer = (body: any) => ({ ...body, appointment: { ...body.appointment, id: '…', arrivalWindow: { ...body.appointment.arrivalWindow, startDateTime: body.appointment.arrivalWindow.startDateTime.slice(10) } }, appointmentConfirmationNumber: '…' });
    expect(answer(fast.body)).toEqual(answer(full.body));
    expect(fast.body).toMatchObject({
      status: 'SUCCESS',
      appointmentStatus: 'PENDING',
      appointment: { arrivalWindow: { startDateTime: '2026-11-25T10:00:00+11:00', duration: 'PT1H' }, dockDoor: { name: 'N-1' }, loadingType: 'LIVE' },
      locationId: siteId,
      locationAddress: { streetAddress: '1 Wharf Rd, Sydney' },
    });

    // The booking rows: every column but the identity, the day and the per-request values.
    const bookingRow = async (id: string) => {
      const [row] = await query(`select * from bookings where id = $1`, [id]);
      const { id: _id, start_time, end_time, window_start, window_end, tsr_number, vehicle_registration, manage_token_hash, ...rest } = row!;
      expect(window_start).toEqual(start_time);
      expect(window_end).toEqual(end_time);
      expect(new Date(end_time).getTime() - new Date(start_time).getTime()).toBe(3_600_000);
      expect(manage_token_hash).toBeTruthy();
      expect(vehicle_registration).toMatch(/^SSC-[0-9A-F]{12}$/);
      expect(tsr_number).toMatch(/^LOAD-F/);
      return rest;
    };
    const fastBooking = await bookingRow(fastId);
    expect(fastBooking).toEqual(await bookingRow(fullId));
    expect(fastBooking).toMatchObject({ source: 'ssc', tenant_id: tenantId, status: 'pending', org_id: orgId, site_id: siteId, version: 1 });

    // The SSC row.
    const sscRow = async (id: string) => {
      const [row] = await query(`select * from ssc_appointments where booking_id = $1`, [id]);
      const { booking_id, primary_reference_number: _reference, ...rest } = row!;
      expect(booking_id).toBe(id);
      return rest;
    };
    const fastSsc = await sscRow(fastId);
    expect(fastSsc).toEqual(await sscRow(fullId));
    expect(fastSsc).toMatchObject({ tenant_id: tenantId, api_key_id: keyId, po_number: 'PO-1', bol_number: 'BOL-1', stop_sequence_number: 1, loading_type: 'LIVE', equipment_type: 'STRAIGHT_TRUCK', last_reason_code: 'NEW', last_comment: 'Dock 4 please' });

    // The audit entry: the API key is the actor.
    const auditRow = async (id: string) => {
      const rows = await query(`select * from audit_log where action = 'booking.created' and resource_id = $1`, [id]);
      expect(rows).toHaveLength(1);
      const { id: _id, created_at: _at, resource_id: _resource, details, ...rest } = rows[0]!;
      const { tsr_number: _tsr, ...facts } = details;
      return { ...rest, details: facts };
    };
    const fastAudit = await auditRow(fastId);
    expect(fastAudit).toEqual(await auditRow(fullId));
    expect(fastAudit).toMatchObject({
      actor_id: keyId,
      actor_email: null,
      actor_role: 'api_key',
      resource_type: 'booking',
      details: { source: 'ssc', api_key_id: keyId, api_key_name: 'Carrier TMS', loading_type: 'LIVE', equipment_type: 'STRAIGHT_TRUCK', status: 'pending', tenant_id: tenantId, auto_approved: null, documents: 0 },
    });

    // The mail: the haulier's receipt and the admins' notice.
    const mailRows = async (id: string) =>
      (await query<{ kind: string; recipients: string[]; payload: Record<string, unknown> }>(`select kind, recipients, payload, status, attempts, next_attempt_at, created_at from mail_outbox where payload ->> 'bookingId' = $1 order by kind`, [id])).map((row) => ({ ...row, payload: { ...row.payload, bookingId: '…' } }));
    const fastMail = await mailRows(fastId);
    expect(fastMail).toEqual(await mailRows(fullId));
    expect(fastMail.map((m) => [m.kind, m.recipients])).toEqual([['booking.new_request', []], ['booking.received', ['tms@carrier.example']]]);

    // The webhook delivery of booking.created, with the same envelope.
    const hookRows = async (id: string) => {
      const rows = await query(`select * from webhook_deliveries where body::jsonb -> 'data' -> 'booking' ->> 'id' = $1`, [id]);
      expect(rows).toHaveLength(1);
      const { id: _id, event_id, body, ...rest } = rows[0]!;
      const envelope = JSON.parse(body);
      expect(envelope.id).toBe(event_id);
      const { id: _b, reference: _r, startTime, endTime, vehicleRegistration: _v, ...booking } = envelope.data.booking;
      expect([startTime, endTime].every((s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(s))).toBe(true);
      return { ...rest, envelope: { ...envelope, id: '…', data: { booking } } };
    };
    const fastHook = await hookRows(fastId);
    expect(fastHook).toEqual(await hookRows(fullId));
    expect(fastHook).toMatchObject({ kind: 'webhook', endpoint_id: endpointId, event_type: 'booking.created', url: 'https://hooks.example/baywise', envelope: { type: 'booking.created', organizationId: orgId } });
  });

  it('approves at once under the tenant’s or the organization’s policy, else waits for review', async () => {
    const pending = await schedule(at('10:00'));
    expect(pending.body.appointmentStatus).toBe('PENDING');

    await query(`update tenants set auto_approve = true where id = $1`, [tenantId]);
    const byTenant = await schedule(at('11:00'));
    expect(byTenant.body.appointmentStatus).toBe(appointmentStatusOf('approved'));
    await query(`update tenants set auto_approve = false where id = $1`, [tenantId]);

    await query(`update organizations set settings = '{"booking":{"autoApprove":true}}'::jsonb where id = $1`, [orgId]);
    const byOrg = await schedule(at('12:00'));
    expect(byOrg.body.appointmentStatus).toBe(appointmentStatusOf('approved'));

    const rows = await query<{ id: string; status: string; approved_at: Date | null; auto: string | null; kinds: string[] }>(
      `select b.id, b.status, b.approved_at, a.details ->> 'auto_approved' as auto,
              (select array_agg(m.kind order by m.kind) from mail_outbox m where m.payload ->> 'bookingId' = b.id::text) as kinds
         from bookings b join audit_log a on a.resource_id = b.id::text and a.action = 'booking.created'
        where b.id = any($1::uuid[]) order by b.start_time`,
      [[pending.body.appointment.id, byTenant.body.appointment.id, byOrg.body.appointment.id]],
    );
    expect(rows.map((r) => [r.status, r.approved_at === null ? null : new Date(r.approved_at).toISOString(), r.auto, r.kinds])).toEqual([
      ['pending', null, null, ['booking.new_request', 'booking.received']],
      ['approved', NOW.replace('Z', '.000Z'), 'tenant', ['booking.changed']],
      ['approved', NOW.replace('Z', '.000Z'), 'organization', ['booking.changed']],
    ]);
    for (const row of rows) expect(await pathOf(row.id)).toBe('fast');
  });

  it('never double-books: concurrent schedules for one slot fill its three bays, best fit first, and refuse the rest', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => schedule(at('14:00'))));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const booked = answers.filter((a) => a.body.status === 'SUCCESS');
    expect(booked).toHaveLength(3);
    expect(booked.map((a) => a.body.appointment.dockDoor.name).sort()).toEqual(['N-1', 'N-2', 'N-3']);
    // Booked by the one statement (a winner may also come through the full path after a lost race).
    expect(await Promise.all(booked.map((a) => pathOf(a.body.appointment.id)))).toContain('fast');
    for (const refused of answers.filter((a) => a.body.status !== 'SUCCESS')) {
      expect(refused.body.problemDetails[0]).toMatchObject({ title: SSC_PROBLEM_TITLES.appointmentError, detail: NO_AVAILABLE_BAY });
    }
    expect(await countOverlaps(t.ctx.database.db)).toBe(0);
    expect(await liveBookings()).toBe(3);
    expect((await query<{ n: number }>(`select count(*)::int as n from ssc_appointments`))[0]!.n).toBe(3);
    expect((await query<{ n: number }>(`select count(*)::int as n from audit_log where action = 'booking.created' and resource_id in (select id::text from bookings)`))[0]!.n).toBe(3);
  });

  it('books a load once when concurrent requests schedule it at different times, on either path', async () => {
    for (const full of [false, true]) {
      await fullPathOnly(full);
      const load = `LOAD-RACE-${full ? 'FULL' : 'FAST'}`;
      const times = ['08:00', '09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00'];
      const answers = await Promise.all(times.map((time) => schedule(at(time), {}, { primaryReferenceNumber: load })));
      const booked = answers.filter((a) => a.body.status === 'SUCCESS');
      expect(booked, JSON.stringify(answers.map((a) => a.body.problemDetails?.[0]?.detail))).toHaveLength(1);
      for (const refused of answers.filter((a) => a.body.status !== 'SUCCESS')) {
        expect(refused.body.problemDetails[0]).toMatchObject({
          title: SSC_PROBLEM_TITLES.appointmentError,
          detail: `Load ${load} already has an appointment at North Yard (${booked[0]!.body.appointment.id}): reschedule or cancel it instead`,
        });
      }
      const rows = await query<{ n: number }>(`select count(*)::int as n from bookings where tsr_number = $1`, [load]);
      expect(rows[0]!.n).toBe(1);
      expect((await query<{ n: number }>(`select count(*)::int as n from ssc_appointments where primary_reference_number = $1`, [load]))[0]!.n).toBe(1);
    }
    await fullPathOnly(false);
  });

  it('refuses what the full path refuses, with the same answer, and books nothing', async () => {
    await query(`insert into blackouts (org_id, site_id, start_time, end_time, reason) values ($1, $2, $3, $4, 'Maintenance')`, [orgId, siteId, at('12:00'), at('13:00')]);
    const taken = await schedule(at('16:00'), {}, { primaryReferenceNumber: 'LOAD-TAKEN' });
    expect(taken.body.status).toBe('SUCCESS');
    const truck = await schedule(at('17:00'), { equipment: { equipmentType: 'STRAIGHT_TRUCK', heightMeters: 3.5, registration: 'TRUCK1' } });
    expect(truck.body.status).toBe('SUCCESS');
    const cases: [string, () => Promise<unknown>, () => Promise<Res>, () => Promise<unknown>][] = [
      ['in a blackout', async () => {}, () => schedule(at('12:30')), async () => {}],
      ['out of hours', async () => {}, () => schedule(at('23:00')), async () => {}],
      ['between two slots', async () => {}, () => schedule(at('10:15')), async () => {}],
      ['in the past', async () => {}, () => schedule(at('10:00', '2026-11-20')), async () => {}],
      ['within the minimum advance', async () => {}, () => schedule(at('12:00', '2026-11-23')), async () => {}],
      ['beyond the horizon', async () => {}, () => schedule(at('10:00', '2027-06-02')), async () => {}],
      ['too tall for every bay of the site', async () => {}, () => schedule(at('10:00'), { equipment: { equipmentType: 'B_DOUBLE', heightMeters: 5.5 } }), async () => {}],
      ['needing features no bay has', async () => {}, () => schedule(at('10:00'), { equipment: { equipmentType: 'REEFER' } }), async () => {}],
      ['a load already booked at the site', async () => {}, () => schedule(at('10:00'), {}, { primaryReferenceNumber: 'LOAD-TAKEN' }), async () => {}],
      ['a vehicle already booked at that time', async () => {}, () => schedule(at('17:00'), { equipment: { equipmentType: 'STRAIGHT_TRUCK', heightMeters: 3.5, registration: 'TRUCK1' } }), async () => {}],
      ['a blocked tenant', () => query(`update tenants set status = 'blocked' where id = $1`, [tenantId]), () => schedule(at('10:00')), () => query(`update tenants set status = 'active'`)],
      ['a site the tenant may not use', () => query(`update tenants set allowed_site_ids = $2 where id = $1`, [tenantId, [otherSiteId]]), () => schedule(at('10:00')), () => query(`update tenants set allowed_site_ids = null`)],
      ['a stopped site', () => query(`update sites set emergency_at = now() where id = $1`, [siteId]), () => schedule(at('10:00')), () => query(`update sites set emergency_at = null`)],
      ['an unknown location', async () => {}, () => schedule(at('10:00'), {}, { locationId: '00000000-0000-4000-8000-000000000000' }), async () => {}],
    ];
    const before = await liveBookings();
    for (const [name, setUp, request, tearDown] of cases) {
      await setUp();
      const viaFast = await request();
      await fullPathOnly(true);
      const viaFull = await request();
      await fullPathOnly(false);
      await tearDown();
      expect(viaFast.body.status, `${name}: ${JSON.stringify(viaFast.body)}`).toBe('FAILURE');
      // The reference differs between the two requests; the answer is otherwise the same.
      const plain = (res: Res) => JSON.stringify(res).replace(/LOAD-F\d+/g, 'LOAD-F');
      expect(plain(viaFast), name).toBe(plain(viaFull));
    }
    expect(await liveBookings()).toBe(before);
  });

  it('answers a retry with the same Idempotency-Key with the same appointment, and a reused key with another request as the full path does', async () => {
    const body = { identifiers: { primaryReferenceNumber: 'LOAD-IDEM', stopSequenceNumber: 1, locationId: siteId }, preferredAppointment: { arrivalWindow: { startDateTime: at('09:00'), duration: 'PT1H' } } };
    const send = async (payload: unknown) => {
      const response = await t.app.inject({ method: 'POST', url: '/api/ssc/appointments/v1/schedule-appointment', headers: { authorization: `Bearer ${secret}`, 'idempotency-key': 'retry-1' }, payload: payload as never });
      return { status: response.statusCode, body: response.json() };
    };
    const first = await send(body);
    const again = await send(body);
    expect(first.body.status).toBe('SUCCESS');
    expect(await pathOf(first.body.appointment.id)).toBe('fast');
    expect(again).toEqual(first);
    expect(await liveBookings()).toBe(1);
    const other = await send({ ...body, identifiers: { ...body.identifiers, primaryReferenceNumber: 'LOAD-OTHER' } });
    expect(other.body.status).toBe('FAILURE');
    expect(await liveBookings()).toBe(1);
  });

  it('counts towards the plan’s monthly limit and is refused past it, as the full path refuses it', async () => {
    const [plan] = await query<{ id: string }>(`insert into plans (name, price_cents, max_bookings_per_month) values ('Tight', 100, 2) returning id`);
    await query(`insert into billing (org_id, plan_id) values ($1, $2)`, [orgId, plan!.id]);
    try {
      expect((await schedule(at('10:00'))).body.status).toBe('SUCCESS');
      expect((await schedule(at('11:00'))).body.status).toBe('SUCCESS');
      const refused = await schedule(at('12:00', '2026-11-26'));
      expect(refused.body.status).toBe('FAILURE');
      expect(refused.body.problemDetails[0].title).toBe(SSC_PROBLEM_TITLES.appointmentError);
      expect(await liveBookings()).toBe(2);
    } finally {
      await query(`delete from billing where org_id = $1`, [orgId]);
    }
    // Without the plan: the one statement again.
    const free = await schedule(at('13:00'));
    expect(await pathOf(free.body.appointment.id)).toBe('fast');
  });
});
