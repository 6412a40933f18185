import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrivalQrText, formatArrivalCode } from '../../domain/arrival-code';
import { hashToken } from '../auth/tokens';
import type { AppContext } from '../context';
import { openDatabase } from '../db/client';
import { seedDemoDataIfEmpty } from '../db/seed';
import { arrivalCodeFor } from '../modules/bookings/arrival-code';
import { arrivalQrPng } from '../modules/bookings/arrival-qr';
import { findBookingView } from '../modules/bookings/booking-records';
import { manageTokenFor } from '../modules/bookings/manage-token';
import { moveBookingInTx } from '../modules/bookings/move-booking';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import { dueReminderOffset, sendDueReminders } from './booking-reminders';

// Reminders before the slot with a frozen clock: the nearest due offset once per booking and
// channel, through the mail (and SMS) outbox, also when two processes run the job at once.

const NOW = '2026-12-01T00:00:00Z';
const H = 3_600_000;

describe('dueReminderOffset', () => {
  const start = new Date('2026-12-10T10:00:00Z');
  const at = (hoursBefore: number) => new Date(start.getTime() - hoursBefore * H);
  const hoursBefore = [24, 2];
  it('is the offset nearest to the start whose moment has passed', () => {
    expect(dueReminderOffset({ startTime: start, confirmedAt: at(100), hoursBefore }, at(25))).toBeNull();
    expect(dueReminderOffset({ startTime: start, confirmedAt: at(100), hoursBefore }, at(24))).toBe(24 * 60);
    expect(dueReminderOffset({ startTime: start, confirmedAt: at(100), hoursBefore }, at(3))).toBe(24 * 60);
    expect(dueReminderOffset({ startTime: start, confirmedAt: at(100), hoursBefore }, at(2))).toBe(120);
    expect(dueReminderOffset({ startTime: start, confirmedAt: at(100), hoursBefore }, at(0.1))).toBe(120);
  });
  it('skips a moment that passed before the booking was confirmed, and anything once the slot started', () => {
    expect(dueReminderOffset({ startTime: start, confirmedAt: at(3), hoursBefore }, at(3))).toBeNull();
    expect(dueReminderOffset({ startTime: start, confirmedAt: at(3), hoursBefore }, at(2))).toBe(120);
    expect(dueReminderOffset({ startTime: start, confirmedAt: at(100), hoursBefore }, start)).toBeNull();
    expect(dueReminderOffset({ startTime: start, confirmedAt: at(100), hoursBefore: [] }, at(1))).toBeNull();
  });
});

describe.each(databaseKinds)('booking reminders on %s', (kind) => {
  let t: TestApp;
  let acmeId: string;
  let otherOrgId: string;
  let siteId: string;
  let otherSiteId: string;
  let seq = 0;
  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  type Options = { status?: string; createdAt?: string; approvedAt?: string | null; phone?: string | null; org?: 'acme' | 'other' };
  const booking = async (start: string, options: Options = {}) => {
    const n = ++seq;
    const end = new Date(Date.parse(start) + 60 * 60_000).toISOString();
    const isOther = options.org === 'other';
    // A bay of its own: bookings of one bay may not overlap.
    const [bay] = await query<{ id: string }>(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, $3, 5) returning id`, [
      isOther ? otherOrgId : acmeId,
      isOther ? otherSiteId : siteId,
      `RM-${n}`,
    ]);
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, tenant_phone, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, created_at, approved_at)
       values ($1, $2, $3, $4, 'Remind Freight', $5, $6, $7, $8, $7, $8, 'rigid', $9, 3500, 3.5, $10, 'admin', $11, $12) returning id`,
      [
        isOther ? otherOrgId : acmeId,
        isOther ? otherSiteId : siteId,
        bay!.id,
        `TSR-REM-${n}`,
        `remind${n}@example.test`,
        options.phone ?? null,
        start,
        end,
        `RM${n}`,
        options.status ?? 'approved',
        options.createdAt ?? NOW,
        options.approvedAt === undefined ? null : options.approvedAt,
      ],
    );
    const id = row!.id;
    await query(`update bookings set manage_token_hash = $2 where id = $1`, [id, hashToken(manageTokenFor(t.ctx.authSecret, id))]);
    return id;
  };
  const remindersOf = (id: string) =>
    query<{ offset_minutes: number; channel: string }>(`select offset_minutes, channel from booking_reminders where booking_id = $1 order by channel, offset_minutes`, [id]);
  const mailRowsOf = async (id: string) =>
    (await query<{ kind: string; payload: Record<string, unknown> }>(`select kind, payload from mail_outbox where kind = 'booking.reminder'`)).filter((r) => r.payload.bookingId === id);
  const smsRowsOf = (phone: string) => query<{ kind: string; body: string; to_phone: string }>(`select kind, body, to_phone from sms_outbox where to_phone = $1`, [phone]);

  beforeAll(async () => {
    t = await createTestApp(kind, {
      now: NOW,
      env: { SMS_URL: 'http://127.0.0.1:9/sms', SMS_ACCOUNT_SID: 'AC123', SMS_AUTH_TOKEN: 'token', SMS_FROM: '+15550001111' },
    });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
    siteId = (await query<{ id: string }>(`insert into sites (org_id, name, address) values ($1, 'Remind Yard', '1 Quay St, Port Town') returning id`, [acmeId]))[0]!.id;
    otherOrgId = (
      await query<{ id: string }>(`insert into organizations (name, slug, settings) values ('Two Day Ports', 'two-day-ports', $1) returning id`, [
        JSON.stringify({ reminders: { hoursBefore: [48] } }),
      ])
    )[0]!.id;
    otherSiteId = (await query<{ id: string }>(`insert into sites (org_id, name) values ($1, 'Far Yard') returning id`, [otherOrgId]))[0]!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends the 24 h and the 2 h reminder once each, with the slot in site time, the manage link, "Running late?" and the arrival code and QR', async () => {
    const id = await booking('2026-12-03T08:00:00Z');
    t.clock.set('2026-12-02T07:59:00Z');
    await sendDueReminders(t.ctx);
    expect(await remindersOf(id)).toEqual([]);
    t.clock.set('2026-12-02T08:00:00Z');
    await sendDueReminders(t.ctx);
    t.clock.set('2026-12-02T08:01:00Z');
    await sendDueReminders(t.ctx);
    expect(await remindersOf(id)).toEqual([{ offset_minutes: 1440, channel: 'email' }]);
    t.clock.set('2026-12-03T06:00:00Z');
    await sendDueReminders(t.ctx);
    await sendDueReminders(t.ctx);
    expect(await remindersOf(id)).toEqual([
      { offset_minutes: 120, channel: 'email' },
      { offset_minutes: 1440, channel: 'email' },
    ]);
    expect(await mailRowsOf(id)).toHaveLength(2);

    const [{ tsr_number: ref }] = (await query<{ tsr_number: string }>(`select tsr_number from bookings where id = $1`, [id])) as [{ tsr_number: string }];
    const mails = (await t.outbox()).filter((m) => m.subject?.includes(ref));
    expect(mails.map((m) => m.subject)).toEqual([`Reminder: booking ${ref} tomorrow – Remind Yard`, `Reminder: booking ${ref} in 2 hours – Remind Yard`]);
    const mail = mails[1]!;
    const manageUrl = `http://localhost:3000/book/manage/${manageTokenFor(t.ctx.authSecret, id)}`;
    const code = arrivalCodeFor(t.ctx.authSecret, id);
    expect(mail.text).toContain(`When: Thu 3 Dec 2026, 08:00–09:00 (UTC)`);
    expect(mail.text).toContain('Site: Remind Yard, 1 Quay St, Port Town');
    expect(mail.text).toContain(`Running late? Tell the site when you will arrive:\n${manageUrl}?late=1`);
    expect(mail.text).toContain(`${manageUrl}\n`.trimEnd());
    expect(mail.text).toContain(`Arrival code: ${formatArrivalCode(code)}`);
    expect(mail.html).toContain(formatArrivalCode(code));
    // The HTML shows the inline QR part (the parser turns its cid: reference into the image data).
    expect(mail.html).toContain(`alt="QR code of arrival code ${formatArrivalCode(code)}"`);
    expect(mail.html).toContain(`href="${manageUrl}?late=1"`);
    const qr = mail.attachments.find((a) => a.cid === 'arrival-qr@baywise');
    expect(qr).toMatchObject({ contentType: 'image/png', related: true });
    // The QR code holds the arrival text, not the manage link.
    expect(Buffer.compare(qr!.content, await arrivalQrPng(code))).toBe(0);
    expect(arrivalQrText(code)).not.toContain(manageUrl);
  });

  it('sends a reminder exactly once when two processes run the job at the same moment', async () => {
    const ids = await Promise.all([booking('2026-12-05T12:00:00Z'), booking('2026-12-05T12:15:00Z'), booking('2026-12-05T12:30:00Z')]);
    t.clock.set('2026-12-05T10:45:00Z');
    // A second process: its own connection pool on PostgreSQL; on PGlite, the one embedded session.
    const second = t.ctx.database.pool
      ? await openDatabase({ databaseUrl: String((t.ctx.database.pool as unknown as { options: { connectionString: string } }).options.connectionString) })
      : t.ctx.database;
    const other: AppContext = { ...t.ctx, database: second };
    try {
      const mailBefore = (await query<{ n: number }>(`select count(*)::int as n from mail_outbox where kind = 'booking.reminder'`))[0]!.n;
      const runs = await Promise.all([sendDueReminders(t.ctx), sendDueReminders(other), sendDueReminders(t.ctx), sendDueReminders(other)]);
      // Every reminder queued by one run only (the demo data's bookings due now count too).
      const queued = runs.reduce((n, r) => n + r.email, 0);
      expect(queued).toBeGreaterThanOrEqual(3);
      const mailAfter = (await query<{ n: number }>(`select count(*)::int as n from mail_outbox where kind = 'booking.reminder'`))[0]!.n;
      expect(mailAfter - mailBefore).toBe(queued);
      expect(runs.filter((r) => r.email > 0).length).toBeGreaterThanOrEqual(1);
    } finally {
      if (second !== t.ctx.database) await second.close();
    }
    for (const id of ids) {
      expect(await remindersOf(id)).toEqual([{ offset_minutes: 120, channel: 'email' }]);
      expect(await mailRowsOf(id)).toHaveLength(1);
    }
  });

  it('sends none for cancelled, declined, pending, checked-in or past bookings', async () => {
    const ids = await Promise.all([
      booking('2026-12-06T10:00:00Z', { status: 'cancelled' }),
      booking('2026-12-06T10:00:00Z', { status: 'declined' }),
      booking('2026-12-06T10:00:00Z', { status: 'pending' }),
      booking('2026-12-06T10:00:00Z', { status: 'checked_in' }),
      booking('2026-12-06T07:00:00Z'),
    ]);
    t.clock.set('2026-12-06T09:00:00Z');
    await sendDueReminders(t.ctx);
    for (const id of ids) expect(await mailRowsOf(id)).toHaveLength(0);
  });

  it('drops a reminder queued for a booking cancelled before delivery', async () => {
    const id = await booking('2026-12-06T20:00:00Z');
    t.clock.set('2026-12-06T18:00:00Z');
    await sendDueReminders(t.ctx);
    expect(await mailRowsOf(id)).toHaveLength(1);
    await query(`update bookings set status = 'cancelled' where id = $1`, [id]);
    const [{ tsr_number: ref }] = (await query<{ tsr_number: string }>(`select tsr_number from bookings where id = $1`, [id])) as [{ tsr_number: string }];
    expect((await t.outbox()).filter((m) => m.subject?.includes(ref))).toHaveLength(0);
  });

  it('sends only the nearest reminder for a booking confirmed after an earlier reminder’s moment', async () => {
    // Booked 3 h ahead: the 24 h moment passed before it existed.
    const late = await booking('2026-12-07T12:00:00Z', { createdAt: '2026-12-07T09:00:00Z' });
    // Requested days ahead but approved 5 h before: no "24 h" reminder right after the approval.
    const approvedLate = await booking('2026-12-07T12:00:00Z', { createdAt: '2026-12-01T00:00:00Z', approvedAt: '2026-12-07T07:00:00Z' });
    t.clock.set('2026-12-07T09:00:00Z');
    await sendDueReminders(t.ctx);
    expect(await remindersOf(late)).toEqual([]);
    expect(await remindersOf(approvedLate)).toEqual([]);
    t.clock.set('2026-12-07T10:00:00Z');
    await sendDueReminders(t.ctx);
    expect(await remindersOf(late)).toEqual([{ offset_minutes: 120, channel: 'email' }]);
    expect(await remindersOf(approvedLate)).toEqual([{ offset_minutes: 120, channel: 'email' }]);
    // A job that was down through both moments sends the nearest one only.
    const missed = await booking('2026-12-08T12:00:00Z');
    t.clock.set('2026-12-08T11:00:00Z');
    await sendDueReminders(t.ctx);
    expect(await remindersOf(missed)).toEqual([{ offset_minutes: 120, channel: 'email' }]);
  });

  it('owes a moved booking the reminders of its new time, not those already sent for the old one', async () => {
    const id = await booking('2026-12-09T12:00:00Z');
    t.clock.set('2026-12-08T12:00:00Z');
    await sendDueReminders(t.ctx);
    expect(await remindersOf(id)).toEqual([{ offset_minutes: 1440, channel: 'email' }]);
    const move = (start: string) =>
      t.ctx.database.db.transaction(async (tx) => {
        const current = (await findBookingView(tx, { orgId: acmeId, id }, true))!;
        await moveBookingInTx(tx, t.ctx.clock.now(), {
          current,
          candidates: [{ ...current.booking, bayName: current.bayName, siteName: current.siteName, start: new Date(start), end: new Date(Date.parse(start) + H) }],
          mover: 'org_admin',
          audit: { actor: null, ip: null },
        });
      });
    // Two days later: the 24 h reminder of the new time is owed again, and sent with it.
    await move('2026-12-11T12:00:00Z');
    expect(await remindersOf(id)).toEqual([]);
    t.clock.set('2026-12-10T12:00:00Z');
    await sendDueReminders(t.ctx);
    expect(await remindersOf(id)).toEqual([{ offset_minutes: 1440, channel: 'email' }]);
    // Moved to three hours away: the 24 h moment of the new time has passed, so only the 2 h one comes.
    await move('2026-12-10T15:00:00Z');
    expect((await remindersOf(id)).filter((r) => r.channel === 'email')).toEqual([{ offset_minutes: 1440, channel: 'email' }]);
    const before = (await mailRowsOf(id)).length;
    await sendDueReminders(t.ctx);
    expect(await mailRowsOf(id)).toHaveLength(before);
    t.clock.set('2026-12-10T13:00:00Z');
    await sendDueReminders(t.ctx);
    expect((await remindersOf(id)).filter((r) => r.channel === 'email').map((r) => r.offset_minutes)).toEqual([120, 1440]);
    expect(await mailRowsOf(id)).toHaveLength(before + 1);
  });

  it('follows each organization’s own offsets', async () => {
    const acme = await booking('2026-12-12T10:00:00Z');
    const other = await booking('2026-12-12T10:00:00Z', { org: 'other' });
    t.clock.set('2026-12-10T10:00:00Z'); // 48 h before
    await sendDueReminders(t.ctx);
    expect(await remindersOf(acme)).toEqual([]);
    expect(await remindersOf(other)).toEqual([{ offset_minutes: 2880, channel: 'email' }]);
    t.clock.set('2026-12-12T08:00:00Z'); // 2 h before: the other organization has no 2 h reminder
    await sendDueReminders(t.ctx);
    expect(await remindersOf(acme)).toEqual([{ offset_minutes: 120, channel: 'email' }]);
    expect(await remindersOf(other)).toEqual([{ offset_minutes: 2880, channel: 'email' }]);
    // No reminders at all when the organization lists none.
    await query(`update organizations set settings = $2 where id = $1`, [otherOrgId, JSON.stringify({ reminders: { hoursBefore: [] } })]);
    const none = await booking('2026-12-14T10:00:00Z', { org: 'other' });
    t.clock.set('2026-12-14T09:30:00Z');
    await sendDueReminders(t.ctx);
    expect(await remindersOf(none)).toEqual([]);
  });

  it('queues a text reminder with the arrival code when the booking has an international phone number, once', async () => {
    const withPhone = await booking('2026-12-15T10:00:00Z', { phone: '+61 412 345-678' });
    const localPhone = await booking('2026-12-15T10:00:00Z', { phone: '0412 345 679' });
    t.clock.set('2026-12-15T08:00:00Z');
    await Promise.all([sendDueReminders(t.ctx), sendDueReminders(t.ctx)]);
    expect(await remindersOf(withPhone)).toEqual([
      { offset_minutes: 120, channel: 'email' },
      { offset_minutes: 120, channel: 'sms' },
    ]);
    expect(await remindersOf(localPhone)).toEqual([{ offset_minutes: 120, channel: 'email' }]);
    const sms = await smsRowsOf('+61412345678');
    expect(sms).toHaveLength(1);
    expect(sms[0]!.body).toContain(`Arrival code ${formatArrivalCode(arrivalCodeFor(t.ctx.authSecret, withPhone))}`);
    expect(sms[0]!.body).toContain('Tue 15 Dec 2026, 10:00–11:00 (UTC)');
    expect(sms[0]!.body).not.toContain('/book/manage/');
  });
});
