import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BOOKING_REQUEST_MESSAGES } from '../../../domain/booking-request';
import { addMember, createBay, createOrg, createSite, createUser } from '../../test/fixtures';
import { EXE_BYTES, PDF_BYTES, PNG_BYTES } from '../../test/files';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { linkKeysOf } from '../../../domain/org-tenants';
import { countOverlaps } from '../availability/availability.repo';
import { lateFoundFull } from './book-slot-fast';
import { orgRules } from './org-rules';
import { bookableWindows } from './slot-windows';

// Frozen at Monday 2026-11-23 11:00 in Sydney (00:00 UTC). Bookings go to Tuesday 2026-11-24.
const NOW = '2026-11-23T00:00:00Z';
const DATE = '2026-11-24';

describe.each(databaseKinds)('public booking API on %s', (kind) => {
  let t: TestApp;
  let org: { id: string };
  let site: { id: string; orgId: string };
  let low: { id: string };

  const valid = (overrides: Record<string, unknown> = {}) => ({
    orgId: org.id,
    tsrNumber: 'TSR-2026-0042',
    tsrSystemType: 'servicenow',
    tsrUrl: '',
    tenantName: 'Fast Freight Pty Ltd',
    contactName: 'Jo Driver',
    tenantEmail: 'jo@fastfreight.example',
    tenantPhone: '',
    bookingType: 'delivery',
    date: DATE,
    slot: '09:00',
    expectedDurationMin: 60,
    vehicleType: 'rigid',
    vehicleRegistration: 'abc123',
    vehicleHeightM: 3.9,
    vehicleLengthM: 12.34,
    specialAccessNeeds: [],
    goodsDescription: 'Pallets',
    driverInductionCompleted: true,
    termsAccepted: true,
    notes: '',
    ...overrides,
  });

  const submit = (data: unknown, files: Array<[string, Buffer]> = [], headers: Record<string, string> = {}) => {
    const form = new FormData();
    form.append('data', JSON.stringify(data));
    for (const [name, bytes] of files) form.append('documents', new Blob([new Uint8Array(bytes)]), name);
    return t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: form as never, headers });
  };
  const availability = (body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/public/availability', payload: { orgId: org.id, date: DATE, durationMin: 30, ...body } });
  const bookingCount = async () => Number((await t.ctx.database.query<{ n: number }>('select count(*)::int as n from bookings'))[0]!.n);
  const storedFiles = () => {
    const root = path.join(t.dataDir, 'storage');
    return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true }).filter((f) => String(f).includes('.')) : [];
  };
  let filesBefore: unknown[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    org = await createOrg(db, { name: 'Portal Org' });
    site = await createSite(db, org.id, { name: 'Dock One', timeZone: 'Australia/Sydney' });
    await createBay(db, site, { name: 'B-10', heightClearanceM: 5.5 });
    low = await createBay(db, site, { name: 'B-2', heightClearanceM: 4.2 });
    await createBay(db, site, { name: 'B-1', heightClearanceM: 3.5 });
    await createBay(db, site, { name: 'Retired', heightClearanceM: 5.5, active: false });
    const admin = await createUser(db, { email: 'admin@portal.example' });
    await addMember(db, org.id, admin.id, 'org_admin');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.ctx.database.query('delete from bookings');
    filesBefore = storedFiles();
  });

  describe('availability', () => {
    it("returns the site's day grid with free compatible bays per slot", async () => {
      const res = await availability({ vehicleHeightM: 3.9 });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ date: DATE, timeZone: 'Australia/Sydney', compatibleBays: 2 });
      expect(body.slots).toHaveLength(32);
      expect(body.slots[0]).toMatchObject({ time: '06:00', start: '2026-11-23T19:00:00.000Z', freeBays: 2, available: true });
      expect(body.slots.at(-1).time).toBe('21:30');
    });

    it('counts a bay busy when a booking overlaps any part of the requested duration', async () => {
      expect((await submit(valid({ slot: '10:00', expectedDurationMin: 30 }))).statusCode).toBe(201); // takes B-2 10:00–10:30
      const res = await availability({ vehicleHeightM: 3.9, durationMin: 240 });
      const slot = (time: string) => res.json().slots.find((s: { time: string }) => s.time === time);
      expect(slot('06:00').freeBays).toBe(2); // 06:00–10:00 ends as the booking starts
      expect(slot('06:30').freeBays).toBe(1); // 06:30–10:30 overlaps its first half hour
      expect(slot('10:00').freeBays).toBe(1);
      expect(slot('10:30').freeBays).toBe(2);
    });

    it('drops bays lower than the vehicle and reports none compatible', async () => {
      const res = await availability({ vehicleHeightM: 6 });
      expect(res.json().compatibleBays).toBe(0);
      expect(res.json().slots).toEqual([]);
    });

    it('rejects bad queries with a clear message', async () => {
      for (const body of [{ durationMin: 14 }, { durationMin: 481 }, { date: '2026-02-30' }, { vehicleHeightM: -1 }, { orgId: 'x' }]) {
        const res = await availability(body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error.message).toBeTruthy();
      }
      const unknown = await availability({ orgId: '00000000-0000-4000-8000-000000000000' });
      expect(unknown.statusCode).toBe(404);
    });
  });

  describe('submitting', () => {
    it('books the best-fit bay as pending, with every field of the record, documents, audit and mail', async () => {
      const res = await submit(valid(), [['Delivery note.pdf', PDF_BYTES], ['photo.png', PNG_BYTES]]);
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ reference: 'TSR-2026-0042', status: 'pending', bayName: 'B-2', siteName: 'Dock One', documents: 2 });
      const [row] = await t.ctx.database.query<Record<string, unknown>>('select * from bookings where id = $1', [body.id]);
      expect(row).toMatchObject({
        org_id: org.id,
        site_id: site.id,
        bay_id: low.id,
        status: 'pending',
        vehicle_registration: 'ABC123',
        vehicle_height_mm: 3900,
        vehicle_length_mm: 12340,
        vehicle_height_m: 3.9,
        vehicle_length_m: 12.34,
        tsr_url: null,
        tenant_phone: null,
        notes: null,
        special_access_needs: null,
        expected_duration_min: 60,
        driver_induction_completed: true,
      });
      expect(new Date(row!.start_time as string).toISOString()).toBe('2026-11-23T22:00:00.000Z'); // 09:00 Sydney
      expect(new Date(row!.end_time as string).toISOString()).toBe('2026-11-23T23:00:00.000Z');
      expect(row!.window_start).toEqual(row!.start_time);
      expect(row!.window_end).toEqual(row!.end_time);

      const docs = await t.ctx.database.query<{ storage_key: string; content_type: string }>(
        'select storage_key, content_type from booking_documents where booking_id = $1 order by file_name',
        [body.id],
      );
      expect(docs.map((d) => d.storage_key)).toEqual([
        `${org.id}/${body.id}/${Date.parse(NOW)}-Delivery_note.pdf`,
        `${org.id}/${body.id}/${Date.parse(NOW)}-photo.png`,
      ]);
      expect(fs.readFileSync(path.join(t.dataDir, 'storage', 'booking-documents', docs[0]!.storage_key))).toEqual(PDF_BYTES);

      const [audit] = await t.ctx.database.query<{ action: string; details: Record<string, unknown>; site_id: string }>(
        "select action, details, site_id from audit_log where resource_id = $1 and action = 'booking.created'",
        [body.id],
      );
      expect(audit).toMatchObject({
        site_id: site.id,
        details: { tsr_number: 'TSR-2026-0042', tenant_name: 'Fast Freight Pty Ltd', vehicle_type: 'rigid', status: 'pending', source: 'portal' },
      });

      const mails = await t.outbox();
      const confirmation = mails.find((m) => m.subject === 'Booking request received – TSR-2026-0042' && m.text?.includes(body.manageUrl));
      expect(confirmation?.text).toContain('Tue 24 Nov 2026, 09:00–10:00 (Australia/Sydney)');
      expect(confirmation?.text).toContain('Bay: B-2');
      const ics = confirmation?.attachments.find((a) => a.filename === 'booking.ics');
      expect(ics?.content.toString()).toContain('DTSTART:20261123T220000Z');
      // And the arrival code (decision 042), typed and as the inline QR code.
      expect(confirmation?.text).toMatch(/Arrival code: [0-9A-Z]{4}-[0-9A-Z]{4}/);
      expect(confirmation?.attachments.some((a) => a.cid === 'arrival-qr@baywise' && a.contentType === 'image/png')).toBe(true);
      expect(confirmation?.text).toContain(body.manageUrl);
      expect(mails.some((m) => m.subject?.startsWith('New booking request TSR-2026-0042') && (m.to as { text: string }).text.includes('admin@portal.example'))).toBe(true);
    });

    it('answers every spec validation message for the empty form, in order, and writes nothing', async () => {
      const res = await submit({ orgId: org.id });
      expect(res.statusCode).toBe(400);
      const messages: string[] = res.json().error.details.messages;
      const spec = Object.values(BOOKING_REQUEST_MESSAGES).filter((m) => m !== 'Please enter a valid email address');
      expect(messages.slice(0, spec.length)).toEqual(spec);
      expect(res.json().error.message.startsWith(spec.join(', '))).toBe(true);
      expect(await bookingCount()).toBe(0);
    });

    it.each([
      ['an invalid e-mail', { tenantEmail: 'jo at example' }, 400],
      ['a zero height', { vehicleHeightM: 0 }, 400],
      ['a negative height', { vehicleHeightM: -2 }, 400],
      ['a height as text', { vehicleHeightM: 'tall' }, 400],
      ['duration 14', { expectedDurationMin: 14 }, 400],
      ['duration 481', { expectedDurationMin: 481 }, 400],
      ['duration NaN', { expectedDurationMin: 'NaN' }, 400],
      ['a 10 MB string', { notes: 'x'.repeat(10 * 1024 * 1024 + 1) }, 400],
      ['a past date', { date: '2026-11-20' }, 400],
      ['today inside the minimum advance', { date: '2026-11-23', slot: '12:00' }, 400],
      ['a slot outside hours', { slot: '23:00' }, 400],
      ['a slot off the grid', { slot: '09:15' }, 400],
      ['an unknown vehicle type', { vehicleType: 'spaceship' }, 400],
      ['an unknown organization', { orgId: '00000000-0000-4000-8000-000000000000' }, 404],
      ['terms as a string', { termsAccepted: 'yes' }, 400],
    ])('refuses %s with a clear message and writes nothing', async (_label, overrides, status) => {
      const res = await submit(valid(overrides), [['note.pdf', PDF_BYTES]]);
      expect(res.statusCode).toBe(status);
      expect(res.json().error.message.length).toBeGreaterThan(5);
      expect(await bookingCount()).toBe(0);
      expect(storedFiles()).toEqual(filesBefore);
    });

    it('refuses a suspended organization', async () => {
      const suspended = await createOrg(t.ctx.database, { status: 'suspended' });
      const s = await createSite(t.ctx.database, suspended.id);
      await createBay(t.ctx.database, s);
      expect((await submit(valid({ orgId: suspended.id }))).statusCode).toBe(404);
      expect((await availability({ orgId: suspended.id })).statusCode).toBe(404);
    });

    it('refuses a renamed executable, an oversize file and an eleventh file, leaving nothing behind', async () => {
      const exe = await submit(valid(), [['ok.pdf', PDF_BYTES], ['invoice.pdf', EXE_BYTES]]);
      expect(exe.statusCode).toBe(400);
      expect(exe.json().error).toMatchObject({ code: 'upload_failed' });
      expect(exe.json().error.message).toMatch(/^Failed to upload invoice\.pdf/);
      const big = await submit(valid(), [['big.pdf', Buffer.concat([PDF_BYTES, Buffer.alloc(10 * 1024 * 1024)])]]);
      expect(big.statusCode).toBe(400);
      expect(big.json().error.message).toMatch(/^Failed to upload big\.pdf/);
      const many = await submit(valid(), Array.from({ length: 11 }, (_, i) => [`f${i}.pdf`, PDF_BYTES] as [string, Buffer]));
      expect(many.statusCode).toBe(400);
      expect(await bookingCount()).toBe(0);
      expect(storedFiles()).toEqual(filesBefore);
    });

    it('rolls the booking back and removes stored files when a later upload fails', async () => {
      const put = t.ctx.storage.put;
      let calls = 0;
      t.ctx.storage.put = async (...args) => {
        if (++calls === 2) throw new Error('disk full');
        return put(...args);
      };
      try {
        const res = await submit(valid(), [['a.pdf', PDF_BYTES], ['b.png', PNG_BYTES]]);
        expect(res.statusCode).toBe(502);
        expect(res.json().error.message).toBe('Failed to upload b.png');
      } finally {
        t.ctx.storage.put = put;
      }
      expect(await bookingCount()).toBe(0);
      expect(storedFiles()).toEqual(filesBefore);
    });

    it('creates one booking for a repeated idempotency key and answers the replay as the first time', async () => {
      const headers = { 'idempotency-key': 'form-fill-7f3a9c' };
      const first = await submit(valid(), [['a.pdf', PDF_BYTES]], headers);
      const again = await submit(valid(), [['a.pdf', PDF_BYTES]], headers);
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(first.headers['idempotent-replayed']).toBe('false');
      expect(again.json()).toEqual(first.json());
      // The replayed manage link works.
      const token = again.json().manageUrl.split('/book/manage/')[1] as string;
      const view = await t.app.inject({ method: 'GET', url: `/api/public/manage/${token}` });
      expect(view.statusCode).toBe(200);
      expect(await bookingCount()).toBe(1);
    });

    it('refuses the same idempotency key with a different request (422) and changes nothing', async () => {
      const headers = { 'idempotency-key': 'form-fill-reused-1' };
      expect((await submit(valid(), [], headers)).statusCode).toBe(201);
      const other = await submit(valid({ tsrNumber: 'TSR-OTHER-1', vehicleRegistration: 'OTHER1' }), [], headers);
      expect(other.statusCode).toBe(422);
      expect(other.json().error.code).toBe('idempotency_key_reused');
      const otherFile = await submit(valid(), [['a.pdf', PDF_BYTES]], headers);
      expect(otherFile.statusCode).toBe(422);
      expect(await bookingCount()).toBe(1);
    });

    it('refuses a second live booking of the same vehicle at an overlapping time, on any bay', async () => {
      expect((await submit(valid({ vehicleRegistration: 'ab 12-cd' }))).statusCode).toBe(201);
      const twice = await submit(valid({ slot: '09:30', vehicleRegistration: 'AB12CD', tsrNumber: 'TSR-TWICE' }));
      expect(twice.statusCode).toBe(409);
      expect(twice.json().error).toEqual(
        expect.objectContaining({ code: 'vehicle_already_booked', message: expect.stringContaining('Vehicle AB12CD already has a booking') }),
      );
      expect(await bookingCount()).toBe(1);
      // Another time is fine.
      expect((await submit(valid({ slot: '14:00', vehicleRegistration: 'AB12CD' }))).statusCode).toBe(201);
    });

    it('says so when no bay of the organization can take the vehicle at all, unlike a full slot', async () => {
      const res = await submit(valid({ vehicleHeightM: 9.5 }));
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('no_compatible_bay');
      expect(res.json().error.message).not.toBe('No compatible bay is available at the selected time. Please choose a different time slot.');
      expect(await bookingCount()).toBe(0);
    });

    it('queues the e-mail in the booking transaction: a refused booking queues none', async () => {
      const queued = async () => (await t.ctx.database.query('select id from mail_outbox')).length;
      const before = await queued();
      expect((await submit(valid({ vehicleHeightM: 9.5 }))).statusCode).toBe(422);
      expect((await submit(valid({ tenantEmail: 'not-an-email' }))).statusCode).toBe(400);
      expect(await queued()).toBe(before);
      const ok = await submit(valid());
      const rows = await t.ctx.database.query<{ kind: string; status: string }>(
        "select kind, status from mail_outbox where payload->>'bookingId' = $1 order by kind",
        [ok.json().id],
      );
      expect(rows).toEqual([
        { kind: 'booking.new_request', status: 'pending' },
        { kind: 'booking.received', status: 'pending' },
      ]);
      const mails = await t.outbox();
      const received = mails.filter((m) => m.text?.includes(ok.json().manageUrl));
      expect(received.map((m) => m.subject)).toEqual([`Booking request received – ${ok.json().reference}`]);
      const sent = await t.ctx.database.query<{ status: string }>("select status from mail_outbox where payload->>'bookingId' = $1", [ok.json().id]);
      expect(sent.every((r) => r.status === 'sent')).toBe(true);
    });

    it("answers 'No Available Bay' once every compatible bay is taken", async () => {
      expect((await submit(valid({ vehicleRegistration: 'VEH1' }))).json().bayName).toBe('B-2');
      expect((await submit(valid({ vehicleRegistration: 'VEH2' }))).json().bayName).toBe('B-10');
      const third = await submit(valid({ vehicleRegistration: 'VEH3' }));
      expect(third.statusCode).toBe(409);
      expect(third.json().error).toEqual(
        expect.objectContaining({ code: 'no_available_bay', message: 'No compatible bay is available at the selected time. Please choose a different time slot.' }),
      );
    });

    it('refuses a slot found full through the read-only check, and books it again at once after a cancellation, a decline, a move or a blackout removed', async () => {
      const rules = (await orgRules(t.ctx.database, org.id))!;
      const question = {
        rules,
        windows: bookableWindows(rules.sites, DATE, '11:00', 60, new Date(NOW)),
        vehicle: { heightM: 3.9, lengthM: 12.34, needs: [] },
        link: linkKeysOf('jo@fastfreight.example', 'Fast Freight Pty Ltd'),
      };
      let n = 0;
      const attempt = () => submit(valid({ slot: '11:00', vehicleRegistration: `FULL${++n}` }));
      /** Both compatible bays (B-2, B-10) taken, then refused twice: by the statement, then by the check. */
      const fill = async () => {
        const taken = [await attempt(), await attempt()];
        expect(taken.map((r) => r.statusCode)).toEqual([201, 201]);
        for (let i = 0; i < 2; i++) {
          const refused = await attempt();
          expect(refused.statusCode).toBe(409);
          expect(refused.json().error).toEqual(
            expect.objectContaining({ code: 'no_available_bay', message: 'No compatible bay is available at the selected time. Please choose a different time slot.' }),
          );
          expect(lateFoundFull(t.ctx.database, question)).toBe(true);
        }
        return taken.map((r) => r.json() as { id: string; manageUrl: string });
      };
      const bookedAgain = async () => {
        const res = await attempt();
        expect(res.statusCode).toBe(201);
        expect(await countOverlaps(t.ctx.database.db)).toBe(0);
        await t.ctx.database.query("update bookings set status = 'cancelled' where status in ('pending', 'approved')");
      };

      // Cancelled by the haulier through the manage link.
      const [first] = await fill();
      const token = first!.manageUrl.split('/book/manage/')[1]!;
      expect((await t.app.inject({ method: 'POST', url: `/api/public/manage/${token}/cancel`, payload: {} })).statusCode).toBe(200);
      await bookedAgain();
      // Declined, or moved to another time, by another process (no word to this one).
      const [second] = await fill();
      await t.ctx.database.query("update bookings set status = 'declined' where id = $1", [second!.id]);
      await bookedAgain();
      const [third] = await fill();
      await t.ctx.database.query("update bookings set start_time = start_time + interval '3 hours', end_time = end_time + interval '3 hours' where id = $1", [third!.id]);
      await bookedAgain();
      // A blackout over both bays: full; removed: bookable.
      await t.ctx.database.query("insert into blackouts (org_id, site_id, start_time, end_time, reason) values ($1, $2, '2026-11-24T00:00:00Z', '2026-11-24T01:00:00Z', 'Storm test')", [org.id, site.id]);
      expect((await attempt()).statusCode).toBe(409);
      expect((await attempt()).statusCode).toBe(409);
      expect(lateFoundFull(t.ctx.database, question)).toBe(true);
      await t.ctx.database.query("delete from blackouts where reason = 'Storm test'");
      await bookedAgain();
    });

    it('never double-books: 50 concurrent submissions for one slot at 3 compatible bays give exactly 3 bookings', async () => {
      const raceOrg = await createOrg(t.ctx.database, { name: 'Race Org' });
      const raceSite = await createSite(t.ctx.database, raceOrg.id, { name: 'Race Site', timeZone: 'Australia/Sydney' });
      for (const name of ['R-1', 'R-2', 'R-3']) await createBay(t.ctx.database, raceSite, { name, heightClearanceM: 4.5 });
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => submit(valid({ orgId: raceOrg.id, tsrNumber: `TSR-RACE-${i}`, vehicleRegistration: `RACE${i}` }))),
      );
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 201)).toHaveLength(3);
      expect(codes.filter((c) => c === 409)).toHaveLength(47);
      expect(await bookingCount()).toBe(3);
      expect(await countOverlaps(t.ctx.database.db)).toBe(0);
    });
  });

  describe('manage link', () => {
    const manage = async () => {
      const res = await submit(valid());
      const token = res.json().manageUrl.split('/book/manage/')[1] as string;
      return { id: res.json().id as string, token };
    };

    it('shows the booking, moves it to another free slot and cancels it', async () => {
      const { token } = await manage();
      const view = await t.app.inject({ method: 'GET', url: `/api/public/manage/${token}` });
      expect(view.json()).toMatchObject({ reference: 'TSR-2026-0042', status: 'pending', date: DATE, slot: '09:00', canCancel: true, canReschedule: true });

      const grid = await t.app.inject({ method: 'POST', url: `/api/public/manage/${token}/availability`, payload: { date: DATE } });
      expect(grid.json().slots.find((s: { time: string }) => s.time === '09:00').freeBays).toBe(2); // its own time is not busy

      const moved = await t.app.inject({ method: 'POST', url: `/api/public/manage/${token}/reschedule`, payload: { date: DATE, slot: '14:30' } });
      expect(moved.statusCode).toBe(200);
      expect(moved.json()).toMatchObject({ slot: '14:30', status: 'pending' });

      const cancelled = await t.app.inject({ method: 'POST', url: `/api/public/manage/${token}/cancel`, payload: { reason: 'Truck broke down' } });
      expect(cancelled.json()).toMatchObject({ status: 'cancelled', canCancel: false });
      const again = await t.app.inject({ method: 'POST', url: `/api/public/manage/${token}/cancel`, payload: {} });
      expect(again.statusCode).toBe(409);
      const actions = await t.ctx.database.query<{ action: string }>("select action from audit_log where action like 'booking.%' order by created_at");
      expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['booking.rescheduled', 'booking.cancelled']));
    });

    it('refuses to move onto a taken slot and answers 404 for an unknown link', async () => {
      const { token } = await manage();
      await submit(valid({ slot: '15:00', vehicleRegistration: 'OTHER1' }));
      await submit(valid({ slot: '15:00', vehicleRegistration: 'OTHER2' }));
      const res = await t.app.inject({ method: 'POST', url: `/api/public/manage/${token}/reschedule`, payload: { date: DATE, slot: '15:00' } });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('no_available_bay');
      const unknown = await t.app.inject({ method: 'GET', url: `/api/public/manage/${'x'.repeat(43)}` });
      expect(unknown.statusCode).toBe(404);
    });
  });
});
