import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RealtimeEvent } from '../../../domain/realtime';
import { signAccessToken, hashToken } from '../../auth/tokens';
import { addMember, createBay, createOrg, createSite, createUser } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { manageTokenFor } from './manage-token';

// Running late through the manage link (issue 26 item 5, decision 043): the ETA is recorded,
// audited and published; a truck that no longer fits its slot is offered the nearest free slots
// that day and moved to the one it accepts. The site is in Sydney (UTC+11 in November) and the
// clock is frozen at 09:00 there on Tuesday 24 November.

const NOW = '2026-11-23T22:00:00Z'; // Tue 24 Nov 2026, 09:00 in Sydney
const TZ = 'Australia/Sydney';
/** An instant at the site today from its wall-clock time. */
const local = (time: string) => {
  const [h, m] = time.split(':').map(Number);
  return new Date(Date.parse('2026-11-23T13:00:00Z') + (h! * 60 + m!) * 60_000); // 00:00 Sydney = 13:00Z the day before
};

describe.each(databaseKinds)('running late on %s', (kind) => {
  let t: TestApp;
  let org: { id: string };
  let site: { id: string; orgId: string };
  let other: { id: string; orgId: string };
  let bay1: { id: string; name: string };
  let bay2: { id: string; name: string };
  let dock: Record<string, string>;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  /** A booking with a working manage link, from `start` (site time today, or an instant) for `minutes`. */
  const booking = async (status: string, start: string | Date, options: { minutes?: number; bay?: { id: string }; siteId?: string } = {}) => {
    seq += 1;
    const id = crypto.randomUUID();
    const token = manageTokenFor(t.ctx.authSecret, id);
    const from = typeof start === 'string' ? local(start) : start;
    const to = new Date(from.getTime() + (options.minutes ?? 60) * 60_000);
    await query(
      `insert into bookings (id, org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min, manage_token_hash,
                             approved_at, checked_in_at)
       values ($1, $2, $3, $4, $5, 'Late Freight', 'jo@late.example', $6, $7, $6, $7, 'rigid', $8, 3500, 3.5, $9, 'portal', $10, $11, $12, $13)`,
      [
        id,
        org.id,
        options.siteId ?? site.id,
        (options.bay ?? bay1).id,
        `TSR-LATE-${seq}`,
        from.toISOString(),
        to.toISOString(),
        `LATE${seq}`,
        status,
        options.minutes ?? 60,
        hashToken(token),
        status === 'approved' ? NOW : null,
        status === 'checked_in' ? NOW : null,
      ],
    );
    return { id, token, reference: `TSR-LATE-${seq}` };
  };
  const row = async (id: string) =>
    (
      await query<{ status: string; start_time: Date; bay_id: string; late_eta: Date | null; late_reported_at: Date | null; version: number }>(
        `select status, start_time, bay_id, late_eta, late_reported_at, version from bookings where id = $1`,
        [id],
      )
    )[0]!;
  const audits = (id: string) =>
    query<{ action: string; actor_role: string; details: Record<string, unknown> }>(`select action, actor_role, details from audit_log where resource_id = $1 order by created_at, id`, [id]);
  const late = (token: string, payload: unknown) => t.app.inject({ method: 'POST', url: `/api/public/manage/${token}/late`, payload: payload as never });
  const accept = (token: string, payload: unknown) => t.app.inject({ method: 'POST', url: `/api/public/manage/${token}/late/accept`, payload: payload as never });
  /** What the services publish, as they publish it (the hub fans out asynchronously). */
  const listen = () => {
    const heard: RealtimeEvent[] = [];
    const hub = t.ctx.realtime!;
    const original = hub.publish;
    hub.publish = (event) => {
      heard.push(event);
      original(event);
    };
    return { heard, stop: () => (hub.publish = original) };
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    org = await createOrg(db, { name: 'Late Org' });
    site = await createSite(db, org.id, { name: 'Harbour Dock', timeZone: TZ });
    other = await createSite(db, org.id, { name: 'Other Dock', timeZone: TZ });
    bay1 = await createBay(db, site, { name: 'H-01', heightClearanceM: 5 });
    bay2 = await createBay(db, site, { name: 'H-02', heightClearanceM: 5 });
    await createBay(db, other, { name: 'O-01', heightClearanceM: 5 });
    const user = await createUser(db, { email: 'dock@late.example' });
    await addMember(db, org.id, user.id, 'dockmaster', { employeeId: 'D-LATE' });
    const [session] = await query<{ id: string }>(`insert into auth_sessions (user_id, expires_at) values ($1, '2030-01-01T00:00:00Z') returning id`, [user.id]);
    const { token } = await signAccessToken(t.ctx, { userId: user.id, sessionId: session!.id, email: 'dock@late.example' });
    dock = { authorization: `Bearer ${token}` };
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.set(NOW);
    await query('delete from bookings');
  });

  it('records an ETA that still fits, audits it and tells the dock screens', async () => {
    const b = await booking('approved', '10:00');
    const { heard, stop } = listen();
    const res = await late(b.token, { eta: '10:40' });
    stop();
    expect(res.statusCode, res.body).toBe(200);
    // Check-in for a 10:00 slot closes at 10:45 (start + 30 min booking window + 15 min grace).
    expect(res.json()).toEqual({
      eta: local('10:40').toISOString(),
      etaTime: '10:40',
      timeZone: TZ,
      fitsSlot: true,
      checkInClosesAt: local('10:45').toISOString(),
      offers: [],
    });
    const after = await row(b.id);
    expect(after.late_eta?.toISOString()).toBe(local('10:40').toISOString());
    expect(after.late_reported_at?.toISOString()).toBe(new Date(NOW).toISOString());
    expect(after.status).toBe('approved');
    const [entry, ...more] = await audits(b.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'booking.late_reported',
      actor_role: 'public',
      details: { eta: local('10:40').toISOString(), eta_local: '10:40', previous_eta: null, fits_slot: true, actor: 'haulier', source: 'manage_link', tsr_number: b.reference },
    });
    expect(heard.map((e) => [e.entity, e.action, e.id, e.siteId])).toEqual([['booking', 'late_reported', b.id, site.id]]);

    // The gate's screen shows it on the upcoming arrival.
    const overview = await t.app.inject({ method: 'GET', url: `/api/sites/${site.id}/gate/overview`, headers: dock });
    expect(overview.statusCode, overview.body).toBe(200);
    expect(overview.json().upcoming.find((u: { id: string }) => u.id === b.id)).toMatchObject({ lateEta: local('10:40').toISOString() });

    // The manage page, opened again, still says what was reported.
    const manage = await t.app.inject({ method: 'GET', url: `/api/public/manage/${b.token}` });
    expect(manage.statusCode, manage.body).toBe(200);
    expect(manage.json().lateEta).toBe(local('10:40').toISOString());
  });

  it('fits up to the check-in close exactly, and a later report replaces the earlier ETA (each audited)', async () => {
    const b = await booking('pending', '10:00');
    expect((await late(b.token, { eta: '10:45' })).json()).toMatchObject({ fitsSlot: true, offers: [] });
    t.clock.advance(10 * 60_000);
    const second = await late(b.token, { eta: '10:46' });
    expect(second.json()).toMatchObject({ fitsSlot: false, etaTime: '10:46' });
    expect((await row(b.id)).late_eta?.toISOString()).toBe(local('10:46').toISOString());
    expect((await audits(b.id)).map((a) => [a.action, a.details.eta_local, a.details.previous_eta, a.details.fits_slot])).toEqual([
      ['booking.late_reported', '10:45', null, true],
      ['booking.late_reported', '10:46', local('10:45').toISOString(), false],
    ]);
  });

  it('offers the nearest free slots from the ETA on, earliest first, at most five, only free ones', async () => {
    const b = await booking('approved', '10:00'); // on H-01
    // H-01 is taken 11:00–12:00, H-02 11:30–12:30: a 60-minute truck fits neither at 11:00 nor 11:30.
    await booking('approved', '11:00', { bay: bay1 });
    await booking('approved', '11:30', { bay: bay2 });
    const res = await late(b.token, { eta: '10:50' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ fitsSlot: false, etaTime: '10:50' });
    // 10:30 is free on H-02 but starts before the ETA; 11:00 and 11:30 are not free.
    expect(body.offers.map((o: { time: string }) => o.time)).toEqual(['12:00', '12:30', '13:00', '13:30', '14:00']);
    expect(body.offers[0]).toEqual({ time: '12:00', start: local('12:00').toISOString(), end: local('13:00').toISOString() });
    // Offered only: nothing moved yet.
    expect((await row(b.id)).start_time.toISOString()).toBe(local('10:00').toISOString());
  });

  it('moves the booking to the accepted slot through the one move function, e-mailing the haulier once', async () => {
    const b = await booking('approved', '10:00');
    await booking('approved', '11:00', { bay: bay1 });
    await booking('approved', '11:30', { bay: bay2 });
    const offers = (await late(b.token, { eta: '10:50' })).json().offers as Array<{ time: string; start: string }>;
    const mailsBefore = (await t.outbox()).length;
    const { heard, stop } = listen();
    const res = await accept(b.token, { startTime: offers[0]!.start });
    stop();
    expect(res.statusCode, res.body).toBe(200);
    // The haulier's own move is reviewed again (domain statusAfterMove).
    expect(res.json()).toMatchObject({ slot: '12:00', status: 'pending', bayName: 'H-01', siteName: 'Harbour Dock' });
    const after = await row(b.id);
    expect(after.start_time.toISOString()).toBe(local('12:00').toISOString());
    expect(after.late_eta).toBeNull();
    expect(after.late_reported_at?.toISOString()).toBe(new Date(NOW).toISOString());
    const moved = (await audits(b.id)).at(-1)!;
    expect(moved).toMatchObject({
      action: 'booking.rescheduled',
      actor_role: 'public',
      details: { mover: 'haulier', source: 'late_report', previous_start: local('10:00').toISOString(), new_start: local('12:00').toISOString(), eta: local('10:50').toISOString() },
    });
    const mails = (await t.outbox()).slice(mailsBefore).filter((m) => m.text?.includes(b.reference));
    expect(mails).toHaveLength(1);
    expect(heard.map((e) => [e.action, e.id])).toContainEqual(['rescheduled', b.id]);
    // No two bookings of the bay overlap (the exclusion constraint would refuse it anyway).
    const overlaps = await query(
      `select a.id from bookings a join bookings c on a.bay_id = c.bay_id and a.id < c.id and a.start_time < c.end_time and c.start_time < a.end_time
       where a.status not in ('cancelled', 'declined', 'no_show') and c.status not in ('cancelled', 'declined', 'no_show')`,
    );
    expect(overlaps).toEqual([]);
  });

  it('refuses a stale offer with a clear 409 and changes nothing', async () => {
    const b = await booking('approved', '10:00');
    const offers = (await late(b.token, { eta: '11:00' })).json().offers as Array<{ time: string; start: string }>;
    expect(offers[0]!.time).toBe('11:00');
    // Both bays are taken at 11:00 since the offer was made.
    await booking('approved', '11:00', { bay: bay1 });
    await booking('approved', '11:00', { bay: bay2 });
    const res = await accept(b.token, { startTime: offers[0]!.start });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'offer_taken', message: 'The 11:00 slot is no longer free. Report your arrival time again to see the slots still free.' });
    const after = await row(b.id);
    expect(after.start_time.toISOString()).toBe(local('10:00').toISOString());
    expect(after.status).toBe('approved');
    expect(after.late_eta?.toISOString()).toBe(local('11:00').toISOString());
  });

  it('refuses a slot before the ETA, another day, a move while the ETA still fits, and a move with no report', async () => {
    const b = await booking('approved', '10:00');
    const none = await accept(b.token, { startTime: local('12:00').toISOString() });
    expect([none.statusCode, none.json().error.code]).toEqual([409, 'no_late_report']);
    await late(b.token, { eta: '10:30' });
    const fits = await accept(b.token, { startTime: local('12:00').toISOString() });
    expect([fits.statusCode, fits.json().error.code]).toEqual([409, 'still_fits']);
    await late(b.token, { eta: '11:10' });
    const early = await accept(b.token, { startTime: local('11:00').toISOString() });
    expect(early.statusCode).toBe(422);
    expect(early.json().error).toMatchObject({ code: 'before_eta', message: 'That slot starts before your expected arrival at 11:10. Choose one of the offered slots.' });
    const tomorrow = await accept(b.token, { startTime: new Date(local('12:00').getTime() + 86_400_000).toISOString() });
    expect([tomorrow.statusCode, tomorrow.json().error.code]).toEqual([422, 'not_booking_day']);
    const garbage = await accept(b.token, { startTime: 'noon' });
    expect(garbage.statusCode).toBe(400);
    expect((await row(b.id)).start_time.toISOString()).toBe(local('10:00').toISOString());
  });

  it('refuses another day, a called-off or arrived booking, an unknown link, a past or malformed ETA', async () => {
    const tomorrow = await booking('approved', new Date(local('10:00').getTime() + 86_400_000));
    const wrongDay = await late(tomorrow.token, { eta: '10:30' });
    expect(wrongDay.statusCode).toBe(409);
    expect(wrongDay.json().error).toMatchObject({
      code: 'not_booking_day',
      message: 'Running late can only be reported on the day of the booking (Wednesday 25 November). To change the day, move the booking.',
    });
    const cancelled = await booking('cancelled', '10:00');
    const refused = await late(cancelled.token, { eta: '10:30' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'not_late_reportable', message: 'This booking is cancelled: running late can no longer be reported. Please contact Harbour Dock directly.' });
    const arrived = await booking('checked_in', '08:30', { bay: bay2, minutes: 30 });
    expect((await late(arrived.token, { eta: '10:30' })).json().error.code).toBe('not_late_reportable');
    const unknown = await late(manageTokenFor(t.ctx.authSecret, crypto.randomUUID()), { eta: '10:30' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('This booking link is invalid or has expired');

    const b = await booking('approved', '10:00');
    const past = await late(b.token, { eta: '08:30' });
    expect(past.statusCode).toBe(422);
    expect(past.json().error).toMatchObject({ code: 'eta_in_past', message: '08:30 has already passed at Harbour Dock (it is 09:00 there now). Enter the time you now expect to arrive.' });
    expect((await late(b.token, { eta: '09:00' })).statusCode).toBe(200); // this minute: arriving now
    expect((await late(b.token, { eta: '25:99' })).statusCode).toBe(400);
    expect((await late(b.token, {})).statusCode).toBe(400);
    for (const id of [tomorrow.id, cancelled.id, arrived.id]) {
      expect((await row(id)).late_eta).toBeNull();
      expect(await audits(id)).toEqual([]);
    }
  });

  it('offers nothing when the rest of the day is full, and only at the booking’s own site', async () => {
    const b = await booking('approved', '20:00', { minutes: 30 });
    t.clock.set(local('20:30'));
    // Both bays taken until closing (22:00): the other site's free bay is not offered.
    await booking('approved', '20:00', { bay: bay2, minutes: 120 });
    await booking('approved', '21:00', { bay: bay1, minutes: 60 });
    const res = await late(b.token, { eta: '21:00' });
    expect(res.json()).toMatchObject({ fitsSlot: false, offers: [] });
  });
});
