import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import { openDatabase } from '../../db/client';
import { expandStandingBookings } from '../../jobs/standing-bookings';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

// Standing bookings (issue 27 item 2, decision 045) through the API and the job, on PGlite and
// PostgreSQL: occurrences placed through the booking path, conflicts listed (blackout, full),
// exactly once across two processes, series cancel (future cancelled, past untouched, one mail),
// approve / decline of a haulier's request, another organization's series is a 404, 400s.

const NOW = '2026-11-23T00:00:00Z'; // Monday; London is on UTC in winter.

describe.each(databaseKinds)('standing bookings on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let otherOrgId: string;
  let siteId: string;
  let admin: Record<string, string>;
  let otherAdmin: Record<string, string>;
  let dock: Record<string, string>;
  let seq = 0;
  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const org = (path: string, id = orgId) => `/api/orgs/${id}${path}`;
  const call = async (method: string, url: string, headers: Record<string, string>, payload?: unknown) => {
    const response = await t.app.inject({ method: method as 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: response.statusCode, body: response.json() };
  };
  const series = (overrides: Record<string, unknown> = {}) => ({
    siteId,
    weekdays: [2, 4],
    startLocal: '07:00',
    durationMin: 60,
    startsOn: '2026-11-24',
    weeksAhead: 2,
    tsrNumber: `STD-${++seq}`,
    tenantName: 'Weekly Freight',
    contactName: 'Ola',
    tenantEmail: `weekly${seq}@freight.example`,
    vehicleType: 'rigid',
    vehicleRegistration: `WK${seq} ABC`,
    vehicleHeightM: 3.5,
    language: 'pl',
    ...overrides,
  });
  const standingMails = (id: string) =>
    query<{ payload: Record<string, unknown> }>(`select payload from mail_outbox where kind = 'standing.changed'`).then((rows) => rows.filter((r) => r.payload.standingBookingId === id));
  const bookingMailsOf = (email: string) => query<{ kind: string }>(`select kind from mail_outbox where kind like 'booking.%' and $1 = any(recipients)`, [email]);

  /** Sessions are signed at the frozen clock's time: signed in again when the clock moves. */
  const signInAll = async () => {
    admin = bearer(await signIn(t.app, 'admin@standing.test'));
    dock = bearer(await signIn(t.app, 'dock@standing.test'));
    otherAdmin = bearer(await signIn(t.app, 'admin@elsewhere.test'));
  };
  const setClock = async (at: string) => {
    t.clock.set(at);
    await signInAll();
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    const o = await createOrg(db, { name: 'Standing Co' });
    orgId = o.id;
    otherOrgId = (await createOrg(db, { name: 'Elsewhere Co' })).id;
    const site = await createSite(db, orgId, { name: 'Weekly Yard', timeZone: 'Europe/London' });
    siteId = site.id;
    await createBay(db, site, { name: 'Bay 1' });
    const a = await createUser(db, { email: 'admin@standing.test' });
    await addMember(db, orgId, a.id, 'org_admin');
    const d = await createUser(db, { email: 'dock@standing.test' });
    await addMember(db, orgId, d.id, 'dockmaster', { employeeId: 'D-STD' });
    const b = await createUser(db, { email: 'admin@elsewhere.test' });
    await addMember(db, otherOrgId, b.id, 'org_admin');
    await signInAll();
    // A site-wide blackout on Tuesday 1 December, all day.
    await query(`insert into blackouts (org_id, site_id, start_time, end_time, reason) values ($1, $2, '2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z', 'Stocktake')`, [orgId, siteId]);
  });
  afterAll(async () => {
    await t?.close();
  });

  let firstId: string;

  it('creates a series and books its dates through the booking path; the blackout day is a conflict; one mail in the series’ language', async () => {
    const res = await call('POST', org('/standing-bookings'), admin, series());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    firstId = res.body.id;
    expect(res.body.status).toBe('active');
    expect(res.body.occurrences.map((o: { date: string; status: string }) => [o.date, o.status])).toEqual([
      ['2026-11-24', 'booked'],
      ['2026-11-26', 'booked'],
      ['2026-12-01', 'conflict'],
      ['2026-12-03', 'booked'],
    ]);
    const booked = res.body.occurrences.filter((o: { status: string }) => o.status === 'booked');
    expect(booked.map((o: { startTime: string; bayName: string }) => [o.startTime, o.bayName])).toEqual([
      ['2026-11-24T07:00:00.000Z', 'Bay 1'],
      ['2026-11-26T07:00:00.000Z', 'Bay 1'],
      ['2026-12-03T07:00:00.000Z', 'Bay 1'],
    ]);
    const rows = await query<{ status: string; source: string; language: string; standing_booking_id: string }>(
      `select status, source, language, standing_booking_id from bookings where standing_booking_id = $1`,
      [firstId],
    );
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => `${r.status}/${r.source}/${r.language}`))).toEqual(new Set(['approved/standing/pl']));
    const conflictRow = res.body.occurrences.find((o: { status: string }) => o.status === 'conflict');
    expect(conflictRow.conflictMessage).toBeTruthy();
    expect(res.body.nextOccurrence).toBe('2026-11-24');
    expect(res.body.openConflicts).toBe(1);

    // One mail for the series, none per occurrence; rendered in Polish with each date's manage link.
    expect(await standingMails(firstId)).toHaveLength(1);
    expect(await bookingMailsOf(res.body.tenantEmail)).toEqual([]);
    await t.deliverMail();
    const mail = (await t.outbox()).find((m) => m.subject === `Stała rezerwacja potwierdzona – ${res.body.tsrNumber}`);
    expect(mail, 'the Polish mail').toBeTruthy();
    expect(mail!.text).toContain('Dzień dobry Ola,');
    expect(mail!.text).toContain('/book/manage/');
    expect(mail!.text).toContain(conflictRow.conflictMessage);
    const audit = await query<{ action: string }>(`select action from audit_log where resource_id = $1`, [firstId]);
    expect(audit.map((a) => a.action)).toContain('standing_booking.created');
  });

  it('lists conflicts across the organization: the blackout, and a full slot', async () => {
    // Same days and time, another vehicle: the one bay is taken.
    const res = await call('POST', org('/standing-bookings'), admin, series({ weekdays: [4], startsOn: '2026-11-26', endsOn: '2026-11-26' }));
    expect(res.status).toBe(201);
    expect(res.body.occurrences).toEqual([expect.objectContaining({ date: '2026-11-26', status: 'conflict', conflictCode: 'no_available_bay', bookingId: null })]);
    const conflicts = await call('GET', org('/standing-bookings/conflicts'), admin);
    expect(conflicts.status).toBe(200);
    expect(conflicts.body.items.map((c: { date: string; standingBookingId: string }) => [c.date, c.standingBookingId === firstId ? 'first' : 'second'])).toEqual([
      ['2026-11-26', 'second'],
      ['2026-12-01', 'first'],
    ]);
    // Skipped: no longer listed.
    const skipped = await call('POST', org(`/standing-bookings/${res.body.id}/occurrences/2026-11-26/resolve`), admin, { action: 'skip' });
    expect(skipped.body.occurrences[0].status).toBe('skipped');
    expect((await call('GET', org('/standing-bookings/conflicts'), admin)).body.items).toHaveLength(1);
  });

  it('resolves a conflict by picking another time, through the booking path', async () => {
    // The blackout day is closed all day: another date that week.
    const refused = await call('POST', org(`/standing-bookings/${firstId}/occurrences/2026-12-01/resolve`), admin, { action: 'retry' });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    const res = await call('POST', org(`/standing-bookings/${firstId}/occurrences/2026-12-01/resolve`), admin, { action: 'pick', date: '2026-12-02', slot: '08:00' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const o = res.body.occurrences.find((x: { date: string }) => x.date === '2026-12-01');
    expect(o).toMatchObject({ status: 'booked', startTime: '2026-12-02T08:00:00.000Z' });
  });

  it('books each date exactly once when the job runs in two processes at once (and again later)', async () => {
    await setClock('2026-12-08T00:00:00Z');
    const [{ tenant_email: email }] = (await query<{ tenant_email: string }>(`select tenant_email from standing_bookings where id = $1`, [firstId])) as [{ tenant_email: string }];
    const mailsBefore = (await bookingMailsOf(email)).length;
    const second = t.ctx.database.pool
      ? await openDatabase({ databaseUrl: String((t.ctx.database.pool as unknown as { options: { connectionString: string } }).options.connectionString) })
      : t.ctx.database;
    const other: AppContext = { ...t.ctx, database: second };
    try {
      await Promise.all([expandStandingBookings(t.ctx), expandStandingBookings(other), expandStandingBookings(t.ctx), expandStandingBookings(other)]);
    } finally {
      if (second !== t.ctx.database) await second.close();
    }
    await expandStandingBookings(t.ctx);
    const perDate = await query<{ d: string; n: number }>(
      `select (start_time at time zone 'Europe/London')::date::text as d, count(*)::int as n from bookings where standing_booking_id = $1 group by 1 order by 1`,
      [firstId],
    );
    // Up to 8 Dec + 2 weeks: the 8th, 10th, 15th, 17th and 22nd are new, each booked once.
    expect(perDate.filter((r) => r.d >= '2026-12-08').map((r) => [r.d, r.n])).toEqual([
      ['2026-12-08', 1],
      ['2026-12-10', 1],
      ['2026-12-15', 1],
      ['2026-12-17', 1],
      ['2026-12-22', 1],
    ]);
    const occurrences = await query<{ n: number }>(`select count(*)::int as n from standing_booking_occurrences where standing_booking_id = $1 and status = 'booked'`, [firstId]);
    const bookingsOf = await query<{ n: number }>(`select count(*)::int as n from bookings where standing_booking_id = $1`, [firstId]);
    expect(occurrences[0]!.n).toBe(bookingsOf[0]!.n);
    // No per-occurrence mail from the job either.
    expect((await bookingMailsOf(email)).length).toBe(mailsBefore);
  });

  it('moves and cancels one date through the booking paths, each mailed once as usual', async () => {
    const moved = await call('POST', org(`/standing-bookings/${firstId}/occurrences/2026-12-10/move`), admin, { date: '2026-12-10', slot: '09:00' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.occurrences.find((o: { date: string }) => o.date === '2026-12-10').startTime).toBe('2026-12-10T09:00:00.000Z');
    const cancelled = await call('POST', org(`/standing-bookings/${firstId}/occurrences/2026-12-15/cancel`), admin, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.occurrences.find((o: { date: string }) => o.date === '2026-12-15')).toMatchObject({ status: 'cancelled', bookingStatus: 'cancelled' });
    // The resolved conflict's booking, then the move and the cancel: one mail each.
    const kinds = (await bookingMailsOf(moved.body.tenantEmail)).map((m) => m.kind);
    expect(kinds).toEqual(['booking.changed', 'booking.changed', 'booking.changed']);
  });

  it('cancels the series: upcoming bookings cancelled, past ones untouched, one mail', async () => {
    await setClock('2026-12-09T12:00:00Z');
    const before = await query<{ id: string; status: string; start_time: Date }>(`select id, status, start_time from bookings where standing_booking_id = $1 order by start_time`, [firstId]);
    const mailsBefore = (await bookingMailsOf('weekly1@freight.example')).length;
    const res = await call('POST', org(`/standing-bookings/${firstId}/cancel`), admin, { reason: 'Contract ended' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('cancelled');
    const after = new Map((await query<{ id: string; status: string }>(`select id, status from bookings where standing_booking_id = $1`, [firstId])).map((r) => [r.id, r.status]));
    for (const b of before) {
      if (new Date(b.start_time) < t.clock.now()) expect(after.get(b.id), 'past: untouched').toBe(b.status);
      else expect(after.get(b.id), 'upcoming: cancelled').toBe('cancelled');
    }
    expect(before.filter((b) => new Date(b.start_time) < t.clock.now()).every((b) => b.status === 'approved')).toBe(true);
    expect((await bookingMailsOf('weekly1@freight.example')).length).toBe(mailsBefore);
    const mails = await standingMails(firstId);
    expect(mails.map((m) => m.payload.change)).toEqual(['created', 'cancelled']);
    expect(mails[1]!.payload.count).toBe(3); // 10th (moved), 17th and 22nd
    // The job books nothing more for it.
    await setClock('2026-12-20T00:00:00Z');
    await expandStandingBookings(t.ctx);
    expect((await query<{ n: number }>(`select count(*)::int as n from bookings where standing_booking_id = $1 and status <> 'cancelled' and start_time > $2`, [firstId, t.clock.now()]))[0]!.n).toBe(0);
    expect((await call('POST', org(`/standing-bookings/${firstId}/cancel`), admin, {})).status).toBe(409);
    await setClock(NOW);
  });

  it('approves or declines a haulier’s request', async () => {
    const insert = async (tsr: string) =>
      (
        await query<{ id: string }>(
          `insert into standing_bookings (org_id, site_id, status, weekdays, start_local, duration_min, starts_on, weeks_ahead, tsr_number, tenant_name, contact_name,
             tenant_email, vehicle_type, vehicle_registration, vehicle_height_m, language)
           values ($1, $2, 'requested', '{3}', '10:00', 30, '2026-11-25', 1, $3, 'Asked Freight', 'Jan', 'asked@freight.example', 'van', $3, 2.5, 'de') returning id`,
          [orgId, siteId, tsr],
        )
      )[0]!.id;
    const asked = await insert('REQ-1');
    const list = await call('GET', org('/standing-bookings'), admin);
    expect(list.body.items[0]).toMatchObject({ id: asked, status: 'requested' });
    const approved = await call('POST', org(`/standing-bookings/${asked}/approve`), admin, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.status).toBe('active');
    expect(approved.body.occurrences.map((o: { date: string; status: string }) => [o.date, o.status])).toEqual([
      ['2026-11-25', 'booked'],
    ]);
    expect((await call('POST', org(`/standing-bookings/${asked}/approve`), admin, {})).status).toBe(409);

    const other = await insert('REQ-2');
    expect((await call('POST', org(`/standing-bookings/${other}/decline`), admin, {})).status).toBe(400);
    const declined = await call('POST', org(`/standing-bookings/${other}/decline`), admin, { reason: 'No room on Wednesdays' });
    expect(declined.body).toMatchObject({ status: 'declined', decisionReason: 'No room on Wednesdays', occurrences: [] });
    expect((await standingMails(other)).map((m) => m.payload.change)).toEqual(['declined']);
    await t.deliverMail();
    const mail = (await t.outbox()).find((m) => m.subject === 'Dauerbuchung abgelehnt – REQ-2');
    expect(mail?.text).toContain('Grund: No room on Wednesdays');
    const audit = await query<{ action: string }>(`select action from audit_log where resource_id in ($1, $2) order by created_at`, [asked, other]);
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['standing_booking.approved', 'standing_booking.declined']));
  });

  it('another organization’s series is a 404; dockmasters are refused', async () => {
    expect((await call('GET', org(`/standing-bookings/${firstId}`, otherOrgId), otherAdmin)).status).toBe(404);
    expect((await call('POST', org(`/standing-bookings/${firstId}/cancel`, otherOrgId), otherAdmin, {})).status).toBe(404);
    expect((await call('POST', org(`/standing-bookings/${firstId}/occurrences/2026-11-24/cancel`, otherOrgId), otherAdmin, {})).status).toBe(404);
    expect((await call('GET', org('/standing-bookings', otherOrgId), otherAdmin)).body.items).toEqual([]);
    expect((await call('GET', org(`/standing-bookings/not-a-uuid`), admin)).status).toBe(404);
    expect((await call('GET', org('/standing-bookings'), dock)).status).toBe(403);
    // A site of another organization is not found either.
    const [otherSite] = await query<{ id: string }>(`insert into sites (org_id, name) values ($1, 'Far Yard') returning id`, [otherOrgId]);
    expect((await call('POST', org('/standing-bookings'), admin, series({ siteId: otherSite!.id }))).status).toBe(404);
  });

  it('refuses invalid input with 400 and the form’s messages', async () => {
    const res = await call('POST', org('/standing-bookings'), admin, series({ weekdays: [], startLocal: '7am', endsOn: '2026-11-01', tenantEmail: 'nope', weeksAhead: 40 }));
    expect(res.status).toBe(400);
    const text = JSON.stringify(res.body);
    for (const message of ['Choose at least one weekday', 'Start time must be a time of day (HH:mm)', 'Please enter a valid email address', 'Weeks ahead must be a whole number from 1 to 26']) {
      expect(text).toContain(message);
    }
    expect((await call('POST', org('/standing-bookings'), admin, {})).status).toBe(400);
    const ends = await call('POST', org('/standing-bookings'), admin, series({ endsOn: '2026-11-01' }));
    expect(ends.status).toBe(400);
    expect(JSON.stringify(ends.body)).toContain('The end date must be on or after the start date');
  });
});
