import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addMember, createBay, createOrg, createSite, createUser } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { orgRules } from './org-rules';

// The portal's one-statement SQL path (book-slot-sql.ts BOOK_SLOT_SQL) against the shared creation
// function it stands in for (create-booking.ts createBookingInTx, the portal's full path). A tenant
// with a daily limit always takes the full path (its count is taken under a lock there), so the
// same request answered with and without a (never reached) daily limit compares the two: the same
// booking, audit, outbox and webhook rows. A trigger records which statement inserted each booking.

const NOW = '2026-11-23T00:00:00Z'; // Monday 11:00 in Sydney

describe.each(databaseKinds)('booking creation: one-statement path = createBookingInTx on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let siteId: string;
  let tenantId: string;
  let endpointId: string;
  let seq = 0;

  const query = <T = Record<string, any>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const request = (date: string) => ({
    orgId,
    tsrNumber: `TSR-PAR-${++seq}`,
    tsrSystemType: 'servicenow',
    tsrUrl: 'https://tsr.example/1',
    tenantName: 'Parity Freight',
    contactName: 'Jo Driver',
    tenantEmail: 'jo@parity.example',
    tenantPhone: '+61 2 5550 0000',
    bookingType: 'delivery',
    date,
    slot: '09:00',
    expectedDurationMin: 60,
    vehicleType: 'rigid',
    vehicleRegistration: `PAR${seq}`,
    vehicleHeightM: 3.9,
    vehicleLengthM: 12.5,
    specialAccessNeeds: [],
    goodsDescription: 'Pallets',
    driverInductionCompleted: true,
    termsAccepted: true,
    notes: 'Side door',
  });
  const submit = async (data: unknown) => {
    const form = new FormData();
    form.append('data', JSON.stringify(data));
    const res = await t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: form as never });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; status: string };
  };
  const fullPathOnly = (on: boolean) => query(`update tenants set max_bookings_per_day = $2 where id = $1`, [tenantId, on ? 1000 : null]);
  const pathOf = async (bookingId: string) => {
    const [row] = await query<{ statement: string }>(`select statement from booked_by where booking_id = $1`, [bookingId]);
    return /baywise_book_slot|with t as/i.test(row!.statement) ? 'one statement' : 'createBookingInTx';
  };

  /** Every row the booking wrote, without what differs by identity and day. */
  const rowsOf = async (id: string) => {
    const [booking] = await query(`select * from bookings where id = $1`, [id]);
    const { id: _id, start_time, end_time, window_start, window_end, tsr_number: _tsr, vehicle_registration: _reg, manage_token_hash, ...bookingRest } = booking!;
    expect(window_start).toEqual(start_time);
    expect(window_end).toEqual(end_time);
    expect(new Date(end_time).getTime() - new Date(start_time).getTime()).toBe(3_600_000);
    expect(manage_token_hash).toBeTruthy();

    const audits = await query(`select * from audit_log where action = 'booking.created' and resource_id = $1`, [id]);
    expect(audits).toHaveLength(1);
    const { id: _aid, created_at: _at, resource_id: _rid, details, ...auditRest } = audits[0]!;
    const { tsr_number: _dtsr, ...auditDetails } = details;

    const mail = (
      await query<{ kind: string; recipients: string[]; payload: Record<string, unknown> }>(
        `select kind, recipients, payload, status, attempts, next_attempt_at, created_at from mail_outbox where payload ->> 'bookingId' = $1 order by kind`,
        [id],
      )
    ).map((row) => {
      expect(row.payload.bookingId).toBe(id);
      return { ...row, payload: { ...row.payload, bookingId: '…' } };
    });

    const hooks = (await query(`select * from webhook_deliveries where body::jsonb -> 'data' -> 'booking' ->> 'id' = $1`, [id])).map((row) => {
      const { id: _hid, event_id, body, ...rest } = row;
      const envelope = JSON.parse(body);
      expect(envelope.id).toBe(event_id);
      const { id: _b, reference: _r, startTime, endTime, vehicleRegistration: _v, ...b } = envelope.data.booking;
      expect([startTime, endTime].every((s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(s))).toBe(true);
      return { ...rest, envelope: { ...envelope, id: '…', data: { booking: b } } };
    });
    expect(hooks).toHaveLength(1);
    return { booking: bookingRest, audit: { ...auditRest, details: auditDetails }, mail, hooks };
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    orgId = (await createOrg(db, { name: 'Parity Org' })).id;
    const site = await createSite(db, orgId, { name: 'Parity Dock', timeZone: 'Australia/Sydney' });
    siteId = site.id;
    await createBay(db, site, { name: 'P-10', heightClearanceM: 5 });
    await createBay(db, site, { name: 'P-2', heightClearanceM: 4.5 });
    const admin = await createUser(db, { email: 'admin@parity.example' });
    await addMember(db, orgId, admin.id, 'org_admin');
    [{ id: tenantId }] = await query<{ id: string }>(
      `insert into tenants (org_id, name, contact_name, email_domains, phone) values ($1, 'Parity Freight', 'Dispatch', '{parity.example}', '+61 2 5550 1000') returning id`,
      [orgId],
    );
    [{ id: endpointId }] = await query<{ id: string }>(
      `insert into webhook_endpoints (org_id, url, events, secret_enc, secret_hint) values ($1, 'https://hooks.example/parity', '{booking.created}', 'sealed', 'abcd') returning id`,
      [orgId],
    );
    await query(`create table booked_by (booking_id uuid primary key, statement text not null)`);
    await query(`create function record_booked_by() returns trigger language plpgsql as $$
      begin insert into booked_by values (new.id, current_query()); return null; end $$`);
    await query(`create trigger bookings_booked_by after insert on bookings for each row execute function record_booked_by()`);
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await query(`delete from bookings`);
    await query(`update tenants set auto_approve = false, max_bookings_per_day = null`);
    await query(`update organizations set settings = '{}'::jsonb where id = $1`, [orgId]);
    await orgRules(t.ctx.database, orgId, true);
  });

  it.each([
    ['pending', false, [['booking.new_request', []], ['booking.received', ['jo@parity.example']]]],
    ['approved', true, [['booking.changed', ['jo@parity.example']]]],
  ] as const)('writes the same rows for a %s booking', async (status, autoApprove, mailKinds) => {
    await query(`update tenants set auto_approve = $2 where id = $1`, [tenantId, autoApprove]);
    const fast = await submit(request('2026-11-24'));
    await fullPathOnly(true);
    const full = await submit(request('2026-11-25'));
    await fullPathOnly(false);
    expect(await pathOf(fast.id)).toBe('one statement');
    expect(await pathOf(full.id)).toBe('createBookingInTx');
    expect([fast.status, full.status]).toEqual([status, status]);

    const fastRows = await rowsOf(fast.id);
    expect(fastRows).toEqual(await rowsOf(full.id));
    expect(fastRows.booking).toMatchObject({ status, source: 'portal', tenant_id: tenantId, org_id: orgId, site_id: siteId, version: 1 });
    expect(fastRows.audit).toMatchObject({ actor_role: 'public', details: { status, source: 'portal', documents: 0, tenant_id: tenantId, auto_approved: autoApprove ? 'tenant' : null } });
    expect(fastRows.mail.map((m) => [m.kind, m.recipients])).toEqual(mailKinds);
    expect(fastRows.hooks[0]).toMatchObject({ endpoint_id: endpointId, event_type: 'booking.created', envelope: { data: { booking: { status, bayName: 'P-2' } } } });
  });
});
