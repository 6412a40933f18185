import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDataIfEmpty } from '../../db/seed';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { signAccessToken } from '../../auth/tokens';

// The organization's booking workspace API: list, detail, lifecycle moves with versions, Extend
// Time, documents — and nothing of it reachable from outside the organization.

const NOW = '2026-11-23T00:00:00Z';

describe.each(databaseKinds)('organization bookings API on %s', (kind) => {
  let t: TestApp;
  let acmeId: string;
  let harbourId: string;
  let siteId: string;
  let bayIds: string[];
  let admin: Record<string, string>;
  let dock: Record<string, string>;
  let security: Record<string, string>;
  let harbourAdmin: Record<string, string>;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  const signIn = async (email: string, expiresAt = `${NOW}`) => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [session] = await query<{ id: string }>(
      `insert into auth_sessions (user_id, expires_at) values ($1, $2::timestamptz + interval '1 day') returning id`,
      [user!.id, expiresAt],
    );
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: session!.id, email });
    return { authorization: `Bearer ${token}` };
  };

  const call = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: unknown) => {
    const response = await t.app.inject({ method, url, headers, payload: payload as never });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body, headers: response.headers };
  };

  /** A booking on the test site, in any status, at `hoursFromNow` for `minutes`. */
  const booking = async (status: string, hoursFromNow: number, options: { bay?: number; minutes?: number; tenant?: string } = {}) => {
    seq += 1;
    const start = new Date(Date.parse(NOW) + hoursFromNow * 3_600_000);
    const end = new Date(start.getTime() + (options.minutes ?? 60) * 60_000);
    const [row] = await query<{ id: string }>(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min)
       values ($1, $2, $3, $4, $5, 'haulier@example.test', $6, $7, $6, $7, 'rigid', $8, 3500, 3.5, $9, 'admin', $10) returning id`,
      [acmeId, siteId, bayIds[options.bay ?? 0], `TSR-ORG-${seq}`, options.tenant ?? `Tenant ${seq}`, start.toISOString(), end.toISOString(), `ORG${seq}`, status, options.minutes ?? 60],
    );
    return row!.id;
  };
  const versionOf = async (id: string) => (await query<{ version: number; status: string }>(`select version, status from bookings where id = $1`, [id]))[0]!;
  const url = (path: string, orgId = acmeId) => `/api/orgs/${orgId}${path}`;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
    harbourId = (await query<{ id: string }>(`select id from organizations where slug = 'harbour-foods'`))[0]!.id;
    siteId = (await query<{ id: string }>(`insert into sites (org_id, name, time_zone) values ($1, 'Test Yard', 'Australia/Sydney') returning id`, [acmeId]))[0]!.id;
    bayIds = [];
    for (const name of ['T-1', 'T-2']) {
      bayIds.push((await query<{ id: string }>(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, $3, 5) returning id`, [acmeId, siteId, name]))[0]!.id);
    }
    admin = await signIn('admin@acme.test');
    dock = await signIn('dock@acme.test');
    security = await signIn('security@acme.test');
    harbourAdmin = await signIn('admin@harbour.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('list', () => {
    it('pages, filters by status, site, day and free text, and sorts', async () => {
      const a = await booking('pending', 200, { tenant: 'Zebra Freight' });
      const b = await booking('approved', 201, { tenant: 'Alpha Haulage' });
      await booking('cancelled', 202, { tenant: 'Alpha Cancelled' });

      const pending = await call('GET', url(`/bookings?siteId=${siteId}&status=pending`), admin);
      expect(pending.status).toBe(200);
      expect(pending.body.items.map((i: { id: string }) => i.id)).toContain(a);
      expect(pending.body.items.every((i: { status: string }) => i.status === 'pending')).toBe(true);

      const text = await call('GET', url(`/bookings?siteId=${siteId}&q=alpha&sort=tenantName&order=asc`), admin);
      expect(text.body.items.map((i: { tenantName: string }) => i.tenantName)).toEqual(['Alpha Cancelled', 'Alpha Haulage']);
      expect(text.body.total).toBe(2);

      // 200 h after NOW is 2026-12-01 in Sydney (UTC+11): the site's own calendar day.
      const day = await call('GET', url(`/bookings?siteId=${siteId}&from=2026-12-01&to=2026-12-01&status=approved`), admin);
      expect(day.body.items.map((i: { id: string }) => i.id)).toEqual([b]);

      const page = await call('GET', url(`/bookings?pageSize=10&page=2&sort=startTime&order=desc`), admin);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(10);
      expect(page.body.total).toBeGreaterThan(10);
      expect(page.body.page).toBe(2);
    });

    it('treats % and _ in the search as plain characters, and refuses bad parameters with a 400', async () => {
      const none = await call('GET', url('/bookings?q=%25'), admin);
      expect(none.status).toBe(200);
      expect(none.body.total).toBe(0);
      const bad = await call('GET', url('/bookings?pageSize=7'), admin);
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('Page size must be 10, 25, 50 or 100');
      expect((await call('GET', url('/bookings?status=teleported'), admin)).status).toBe(400);
      expect((await call('GET', url('/bookings?from=2026-02-30'), admin)).status).toBe(400);
    });
  });

  describe('lifecycle moves', () => {
    it('approves with the version it saw: audit entry, the haulier’s e-mail, a new version', async () => {
      const id = await booking('pending', 30);
      const before = await versionOf(id);
      const res = await call('POST', url(`/bookings/${id}/transitions`), admin, { to: 'approved', version: before.version });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'approved', version: before.version + 1 });
      expect(res.body.approvedAt).toBe('2026-11-23T00:00:00.000Z');
      expect(res.body.history.at(-1)).toMatchObject({ action: 'booking.approved', actorEmail: 'admin@acme.test', fromStatus: 'pending', toStatus: 'approved' });
      // 30 hours ahead: check-in and no-show are not open yet, and the detail says when they open.
      expect(res.body.allowedTransitions).toEqual(['cancelled']);
      expect(res.body.upcomingTransitions).toEqual([
        { to: 'checked_in', opensAt: '2026-11-24T05:00:00.000Z' },
        { to: 'no_show', opensAt: '2026-11-24T06:30:00.000Z' },
      ]);
      const mail = (await t.outbox()).filter((m) => m.subject?.startsWith('Booking approved'));
      expect(mail.at(-1)?.text).toContain('is approved');
    });

    it('refuses a stale version with 409 and changes nothing', async () => {
      const id = await booking('pending', 31);
      const { version } = await versionOf(id);
      expect((await call('POST', url(`/bookings/${id}/transitions`), admin, { to: 'approved', version })).status).toBe(200);
      const stale = await call('POST', url(`/bookings/${id}/transitions`), admin, { to: 'cancelled', version });
      expect(stale.status).toBe(409);
      expect(stale.body.error.code).toBe('stale_version');
      expect(stale.body.error.message).toContain('now approved');
      expect(await versionOf(id)).toEqual({ version: version + 1, status: 'approved' });
    });

    it('refuses a move the lifecycle does not have, naming the current status', async () => {
      const id = await booking('completed', -5);
      const { version } = await versionOf(id);
      const res = await call('POST', url(`/bookings/${id}/transitions`), admin, { to: 'approved', version });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'illegal_transition', message: 'This booking is completed: it cannot be moved to approved.' });
      expect(await versionOf(id)).toEqual({ version, status: 'completed' });
    });

    it('needs a reason to decline, and mails it to the haulier', async () => {
      const id = await booking('pending', 32);
      const { version } = await versionOf(id);
      const empty = await call('POST', url(`/bookings/${id}/transitions`), admin, { to: 'declined', version, reason: '   ' });
      expect(empty.status).toBe(400);
      expect(empty.body.error.message).toBe('A reason is required');
      expect((await versionOf(id)).status).toBe('pending');
      const res = await call('POST', url(`/bookings/${id}/transitions`), admin, { to: 'declined', version, reason: 'Bay closed for resurfacing' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'declined', statusReason: 'Bay closed for resurfacing' });
      const mail = (await t.outbox()).filter((m) => m.subject?.startsWith('Booking declined')).at(-1);
      expect(mail?.text).toContain('Reason: Bay closed for resurfacing');
    });

    it('lets a dockmaster approve and check in but not decline', async () => {
      const id = await booking('pending', 0.25, { minutes: 30 }); // 00:15–00:45 UTC: check-in is open (from an hour before the start)
      const v1 = (await versionOf(id)).version;
      const decline = await call('POST', url(`/bookings/${id}/transitions`), dock, { to: 'declined', version: v1, reason: 'No' });
      expect(decline.status).toBe(403);
      const approve = await call('POST', url(`/bookings/${id}/transitions`), dock, { to: 'approved', version: v1 });
      expect(approve.status).toBe(200);
      expect(approve.body.allowedTransitions).toEqual(['checked_in']);
      expect(approve.body.upcomingTransitions).toEqual([{ to: 'no_show', opensAt: '2026-11-23T00:45:00.000Z' }]);
      const checkIn = await call('POST', url(`/bookings/${id}/transitions`), dock, { to: 'checked_in', version: v1 + 1 });
      expect(checkIn.body).toMatchObject({ status: 'checked_in', checkedInAt: '2026-11-23T00:00:00.000Z' });
    });

    it('extends an overstay only while the bay is free, back to in progress', async () => {
      const id = await booking('overstay', -2, { bay: 1, minutes: 60 });
      await booking('approved', 0, { bay: 1, minutes: 60 }); // the next booking on the bay, from NOW
      const { version } = await versionOf(id);
      const blocked = await call('POST', url(`/bookings/${id}/extend`), admin, { version, endTime: '2026-11-23T00:30:00Z' });
      expect(blocked.status).toBe(409);
      expect(blocked.body.error.code).toBe('bay_not_free');
      expect(await versionOf(id)).toEqual({ version, status: 'overstay' });
      const ok = await call('POST', url(`/bookings/${id}/extend`), admin, { version, endTime: '2026-11-23T00:00:00Z' });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ status: 'in_progress', endTime: '2026-11-23T00:00:00.000Z' });
      const earlier = await call('POST', url(`/bookings/${id}/extend`), admin, { version: version + 1, endTime: '2026-11-22T23:00:00Z' });
      expect(earlier.status).toBe(409); // in progress is not overstay: Extend Time is for overstays
    });

    it('answers 404 for unknown and malformed ids, 400 for a bad body', async () => {
      expect((await call('POST', url('/bookings/00000000-0000-4000-8000-000000000000/transitions'), admin, { to: 'approved', version: 1 })).status).toBe(404);
      expect((await call('GET', url('/bookings/not-a-uuid'), admin)).status).toBe(404);
      const id = await booking('pending', 34);
      expect((await call('POST', url(`/bookings/${id}/transitions`), admin, { to: 'approved' })).status).toBe(400);
      expect((await call('POST', url(`/bookings/${id}/transitions`), admin, { to: 'approved', version: 1, reason: 'a\u0000b' })).status).toBe(400);
    });
  });

  describe('the clock', () => {
    const move = (id: string, to: string, version: number, headers = admin) => call('POST', url(`/bookings/${id}/transitions`), headers, { to, version });
    const auditCount = async (id: string) => Number((await query<{ n: number }>(`select count(*)::int as n from audit_log where resource_id = $1`, [id]))[0]!.n);

    it('refuses check-in, start and no-show of a booking days ahead, saying when each opens in site time, and changes nothing', async () => {
      // 72 h ahead: Thursday 26 Nov 11:00 in Sydney (UTC+11).
      const approved = await booking('approved', 72);
      const arrived = await booking('checked_in', 72, { bay: 1 }); // wrongly checked in days ahead (before this rule)
      const before = { approved: await versionOf(approved), arrived: await versionOf(arrived), audits: await auditCount(approved) };

      const checkIn = await move(approved, 'checked_in', before.approved.version);
      expect(checkIn.status).toBe(409);
      expect(checkIn.body.error).toMatchObject({
        code: 'outside_check_in_window',
        message: 'It is too early to check this booking in: check-in is open on 2026-11-26 from 10:00 to 11:45 (site time, Australia/Sydney).',
        details: { to: 'checked_in', opensAt: '2026-11-25T23:00:00.000Z', closesAt: '2026-11-26T00:45:00.000Z' },
      });

      const noShow = await move(approved, 'no_show', before.approved.version, dock);
      expect(noShow.status).toBe(409);
      expect(noShow.body.error).toMatchObject({
        code: 'outside_time_window',
        message: 'It is too early to mark this booking a no-show: it can be marked from 11:30 on 2026-11-26 (site time, Australia/Sydney), once its 30-minute booking window has passed.',
      });

      const start = await move(arrived, 'in_progress', before.arrived.version, dock);
      expect(start.status).toBe(409);
      expect(start.body.error).toMatchObject({
        code: 'outside_time_window',
        message: 'It is too early to start this booking at its bay: it can start from 10:00 on 2026-11-26 (site time, Australia/Sydney), 60 minutes before its booked start.',
      });

      expect(await versionOf(approved)).toEqual(before.approved);
      expect(await versionOf(arrived)).toEqual(before.arrived);
      expect(await auditCount(approved)).toBe(before.audits);
      // The detail offers none of them, and says when each opens.
      const detail = await call('GET', url(`/bookings/${approved}`), dock);
      expect(detail.body.allowedTransitions).toEqual([]);
      expect(detail.body.upcomingTransitions.map((u: { to: string }) => u.to)).toEqual(['checked_in', 'no_show']);
      expect((await call('GET', url(`/bookings/${arrived}`), dock)).body.allowedTransitions).toEqual([]);
    });

    it('inside the window: check-in and start from an hour before, a no-show once the booking window has passed, e-mailed to the haulier', async () => {
      const id = await booking('approved', 96);
      const missed = await booking('approved', 96, { bay: 1 });
      try {
        t.clock.set('2026-11-26T23:00:00Z'); // 96 h − 1 h
        const staff = await signIn('dock@acme.test', '2026-11-26T23:00:00Z');
        const { version } = await versionOf(id);
        const checkedIn = await move(id, 'checked_in', version, staff);
        expect(checkedIn.status).toBe(200);
        expect(checkedIn.body.allowedTransitions).toEqual(['in_progress']);
        expect((await move(id, 'in_progress', version + 1, staff)).body).toMatchObject({ status: 'in_progress' });
        // The other booking: a no-show only once its 30-minute window has passed.
        const early = (await call('GET', url(`/bookings/${missed}`), staff)).body;
        expect(early.allowedTransitions).toEqual(['checked_in']);
        t.clock.set('2026-11-27T00:30:00Z');
        const later = await signIn('dock@acme.test', '2026-11-27T00:30:00Z');
        const due = (await call('GET', url(`/bookings/${missed}`), later)).body;
        expect(due.allowedTransitions).toEqual(['checked_in', 'no_show']);
        const marked = await call('POST', url(`/bookings/${missed}/transitions`), later, { to: 'no_show', version: due.version, reason: 'Driver did not come' });
        expect(marked.status).toBe(200);
        expect(marked.body).toMatchObject({ status: 'no_show', noShowAt: '2026-11-27T00:30:00.000Z' });
        const mail = (await t.outbox()).filter((m) => m.subject === `Missed booking – ${marked.body.tsrNumber}`);
        expect(mail).toHaveLength(1);
        expect(mail[0]!.to).toMatchObject({ text: 'haulier@example.test' });
        expect(mail[0]!.text).toContain('was closed as a no-show');
        expect(mail[0]!.text).toContain('Reason: Driver did not come');
      } finally {
        t.clock.set(NOW);
      }
    });
  });

  describe('reschedule', () => {
    const move = (id: string, body: Record<string, unknown>, headers = admin) => call('POST', url(`/bookings/${id}/reschedule`), headers, body);

    it('moves a booking to another time and to a chosen bay, and tells the haulier', async () => {
      const id = await booking('approved', 60);
      const { version } = await versionOf(id);
      const res = await move(id, { version, date: '2026-11-25', slot: '10:00' });
      expect(res.status).toBe(200);
      // 10:00 in Sydney (UTC+11) on 25 Nov; the booking keeps its status and duration.
      expect(res.body).toMatchObject({ status: 'approved', version: version + 1, startTime: '2026-11-24T23:00:00.000Z', endTime: '2026-11-25T00:00:00.000Z' });
      expect(res.body.history.at(-1)).toMatchObject({ action: 'booking.rescheduled', actorEmail: 'admin@acme.test' });
      const toT2 = await move(id, { version: version + 1, date: '2026-11-25', slot: '10:00', bayId: bayIds[1] });
      expect(toT2.status).toBe(200);
      expect(toT2.body.bayName).toBe('T-2');
      const mail = (await t.outbox()).filter((m) => m.subject?.startsWith('Booking rescheduled by the site')).at(-1);
      expect(mail?.text).toContain('bay T-2');
    });

    it('refuses a bay that is too low, busy or blacked out, and a booking that has arrived; nothing changes', async () => {
      const [low] = await query<{ id: string }>(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, 'T-LOW', 3) returning id`, [acmeId, siteId]);
      const id = await booking('pending', 70);
      const before = await versionOf(id);
      const tooLow = await move(id, { version: before.version, date: '2026-11-26', slot: '09:00', bayId: low!.id });
      expect(tooLow.status).toBe(409);
      expect(tooLow.body.error.code).toBe('bay_not_free');
      await query(`insert into blackouts (org_id, site_id, bay_id, start_time, end_time, reason) values ($1, $2, $3, '2026-11-25T21:00:00Z', '2026-11-26T02:00:00Z', 'Resurfacing')`, [acmeId, siteId, bayIds[0]]);
      const blackedOut = await move(id, { version: before.version, date: '2026-11-26', slot: '09:00', bayId: bayIds[0] });
      expect(blackedOut.status).toBe(409);
      expect(await versionOf(id)).toEqual(before);
      const arrived = await booking('checked_in', -1);
      const refused = await move(arrived, { version: (await versionOf(arrived)).version, date: '2026-11-26', slot: '12:00' });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('not_reschedulable');
      const stale = await move(id, { version: before.version + 5, date: '2026-11-26', slot: '12:00' });
      expect(stale.body.error.code).toBe('stale_version');
    });

    it('gives one free bay to one of two racing reschedules', async () => {
      // Only T-1 and T-2 fit; T-2 is taken at that time, so one bay is left for two movers.
      await booking('approved', 24 * 4 - 11 + 14, { bay: 1, minutes: 60 }); // 27 Nov 14:00 Sydney on T-2
      const a = await booking('pending', 80);
      const b = await booking('pending', 81);
      const [ra, rb] = await Promise.all([
        move(a, { version: (await versionOf(a)).version, date: '2026-11-27', slot: '14:00' }),
        move(b, { version: (await versionOf(b)).version, date: '2026-11-27', slot: '14:00' }),
      ]);
      expect([ra.status, rb.status].sort(), JSON.stringify([ra.body, rb.body]).slice(0, 600)).toEqual([200, 409]);
      const [{ n }] = await query<{ n: number }>(
        `select count(*)::int as n from bookings where site_id = $1 and start_time = '2026-11-27T03:00:00Z' and status not in ('declined', 'cancelled', 'no_show')`,
        [siteId],
      );
      expect(n).toBe(2); // the existing one and the winner
    });

    it('answers 409, never 404, to the losers of 20 racing reschedules of one booking', async () => {
      const a = await booking('pending', 84);
      const { version } = await versionOf(a);
      // All free on T-2 (the test above holds T-2 at 14:00 on the 27th): only the version decides.
      const slots = ['10:00', '10:30', '11:00', '11:30', '12:00', '12:30', '10:00', '10:30', '11:00', '11:30'];
      // Each to another bay than its own: the winner's move changes the booking's bay under the waiters.
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => move(a, { version, date: i < 10 ? '2026-11-27' : '2026-11-26', slot: slots[i % 10]!, bayId: bayIds[1] })),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses, JSON.stringify(answers.map((r) => r.body)).slice(0, 600)).toEqual([200, ...Array(19).fill(409)]);
      expect(new Set(answers.filter((r) => r.status === 409).map((r) => `${r.body.error.code}: ${r.body.error.message}`))).toEqual(new Set([expect.stringMatching(/^stale_version: /)]));
      expect((await versionOf(a)).version).toBe(version + 1);
    });
  });

  describe('admin-created bookings', () => {
    const body = (overrides: Record<string, unknown> = {}) => ({
      tsrNumber: `TSR-ADMIN-${++seq}`,
      tenantName: 'Walk-in Freight',
      contactName: 'Wes Walker',
      tenantEmail: 'wes@walkin.test',
      date: '2026-11-30',
      slot: '09:00',
      expectedDurationMin: 60,
      vehicleType: 'rigid',
      vehicleRegistration: `ADM${seq}`,
      vehicleHeightM: 3.5,
      driverInductionCompleted: true,
      termsAccepted: true,
      ...overrides,
    });

    it('books for a tenant on the chosen bay, approved, audited, with the haulier’s confirmation', async () => {
      const res = await call('POST', url('/bookings'), admin, body({ bayId: bayIds[1] }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: 'approved', bayName: 'T-2', source: 'admin', siteName: 'Test Yard' });
      expect(res.body.history[0]).toMatchObject({ action: 'booking.created', actorEmail: 'admin@acme.test' });
      // Not a tenant of the organization: unlinked.
      expect((await query<{ tenant_id: string | null }>(`select tenant_id from bookings where id = $1`, [res.body.id]))[0]!.tenant_id).toBeNull();
      await t.deliverMail();
      const mail = (await t.outbox()).filter((m) => m.text?.includes(res.body.tsrNumber)).at(-1);
      expect(mail?.text).toContain('/book/manage/');
    });

    it('links the booking to its tenant by the portal’s rule (here the e-mail domain)', async () => {
      const [tenant] = await query<{ id: string }>(
        `insert into tenants (org_id, name, email_domains) values ($1, 'Linked Freight', '{linked.test}') returning id`,
        [acmeId],
      );
      const res = await call('POST', url('/bookings'), admin, body({ tenantEmail: 'desk@LINKED.test', tenantName: 'Someone Else', date: '2026-11-30', slot: '11:00' }));
      expect(res.status).toBe(201);
      expect((await query<{ tenant_id: string | null }>(`select tenant_id from bookings where id = $1`, [res.body.id]))[0]!.tenant_id).toBe(tenant!.id);
    });

    it('keeps the minimum advance unless the admin overrides it, and records the override', async () => {
      // NOW is 11:00 in Sydney; 12:00 is inside the 2-hour minimum advance.
      const tooSoon = await call('POST', url('/bookings'), admin, body({ date: '2026-11-23', slot: '12:00', bayId: bayIds[0] }));
      expect(tooSoon.status).toBe(400);
      expect(tooSoon.body.error.code).toBe('slot_unavailable');
      const overridden = await call('POST', url('/bookings'), admin, body({ date: '2026-11-23', slot: '12:00', bayId: bayIds[0], overrideMinAdvance: true }));
      expect(overridden.status).toBe(201);
      const [audit] = await query<{ details: Record<string, unknown> }>(`select details from audit_log where resource_id = $1 and action = 'booking.created'`, [overridden.body.id]);
      expect(audit!.details).toMatchObject({ source: 'admin', min_advance_overridden: true, bay_chosen: true });
    });

    it('books at the site the admin chose, at that site’s local time, and answers 404 for another organization’s site', async () => {
      // A site an hour behind Sydney: its 09:00 is another instant, and the best fit over every site
      // would take a Sydney bay at Sydney's 09:00 instead.
      const [west] = await query<{ id: string }>(`insert into sites (org_id, name, time_zone) values ($1, 'West Yard', 'Australia/Brisbane') returning id`, [acmeId]);
      await query(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, 'W-1', 9)`, [acmeId, west!.id]);
      const res = await call('POST', url('/bookings'), admin, body({ siteId: west!.id, date: '2026-12-02', slot: '09:00' }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ siteName: 'West Yard', bayName: 'W-1', timeZone: 'Australia/Brisbane', startTime: '2026-12-01T23:00:00.000Z' });
      const taken = await call('POST', url('/bookings'), admin, body({ siteId: west!.id, date: '2026-12-02', slot: '09:00' }));
      expect(taken.status).toBe(409);
      expect(taken.body.error.code).toBe('no_available_bay');
      const [harbourSite] = await query<{ id: string }>(`select id from sites where org_id = $1 limit 1`, [harbourId]);
      const foreign = await call('POST', url('/bookings'), admin, body({ siteId: harbourSite!.id }));
      expect(foreign.status).toBe(404);
      await query(`update sites set active = false where id = $1`, [west!.id]);
    });

    it('mails the haulier what the booking really is: approved → the approval with a CONFIRMED .ics; pending → the receipt, TENTATIVE', async () => {
      const approved = await call('POST', url('/bookings'), admin, body({ date: '2026-12-03', slot: '09:00' }));
      const pending = await call('POST', url('/bookings'), admin, body({ date: '2026-12-03', slot: '10:00', approve: false }));
      expect([approved.status, pending.status]).toEqual([201, 201]);
      const kinds = async (id: string) => (await query<{ kind: string; payload: any }>(`select kind, payload from mail_outbox where payload ->> 'bookingId' = $1`, [id])).map((m) => [m.kind, m.payload.change ?? null]);
      expect(await kinds(approved.body.id)).toEqual([['booking.changed', 'approved']]);
      expect(await kinds(pending.body.id)).toEqual([['booking.received', null]]);
      await t.deliverMail();
      const mailOf = async (tsr: string) => (await t.outbox()).filter((m) => m.text?.includes(tsr)).at(-1)!;
      const ics = (m: Awaited<ReturnType<typeof mailOf>>) => m.attachments.find((a) => a.filename === 'booking.ics')!.content.toString();
      const approvedMail = await mailOf(approved.body.tsrNumber);
      expect(approvedMail.subject).toContain('Booking approved');
      expect(approvedMail.text).not.toContain('pending review');
      expect(ics(approvedMail)).toContain('STATUS:CONFIRMED');
      const pendingMail = await mailOf(pending.body.tsrNumber);
      expect(pendingMail.text).toContain('pending review');
      expect(ics(pendingMail)).toContain('STATUS:TENTATIVE');
    });

    it('keeps to the chosen site’s booking horizon, even when another site’s is longer', async () => {
      // Test Yard allows 60 days; Short Yard only 3.
      const [short] = await query<{ id: string }>(`insert into sites (org_id, name, time_zone, booking_horizon_days) values ($1, 'Short Yard', 'Australia/Sydney', 3) returning id`, [acmeId]);
      await query(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, 'SH-1', 9)`, [acmeId, short!.id]);
      const beyond = await call('POST', url('/bookings'), admin, body({ siteId: short!.id, date: '2026-12-04', slot: '09:00' }));
      expect(beyond.status).toBe(400);
      expect(beyond.body.error.code).toBe('beyond_horizon');
      const preview = await call('POST', url('/bookings/preview'), admin, { siteId: short!.id, date: '2026-12-04', slot: '09:00', expectedDurationMin: 60, vehicleHeightM: 3.5 });
      expect(preview.status).toBe(400);
      const within = await call('POST', url('/bookings'), admin, body({ siteId: short!.id, date: '2026-11-26', slot: '09:00' }));
      expect(within.status).toBe(201);
      expect(within.body).toMatchObject({ siteName: 'Short Yard', bayName: 'SH-1' });
      await query(`update sites set active = false where id = $1`, [short!.id]);
    });

    it('previews the bay the allocator gives at the chosen site, writing nothing', async () => {
      const [north] = await query<{ id: string }>(`insert into sites (org_id, name, time_zone) values ($1, 'Preview North', 'Australia/Sydney') returning id`, [acmeId]);
      await query(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, 'PN-10', 4), ($1, $2, 'PN-2', 4), ($1, $2, 'PN-HIGH', 9)`, [acmeId, north!.id]);
      const target = { siteId: north!.id, date: '2026-12-07', slot: '09:00', expectedDurationMin: 60, vehicleHeightM: 3.5 };
      const before = (await query<{ n: number }>(`select count(*)::int as n from bookings`))[0]!.n;
      const preview = await call('POST', url('/bookings/preview'), admin, target);
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body).toMatchObject({ siteId: north!.id, siteName: 'Preview North', bayName: 'PN-2', timeZone: 'Australia/Sydney', startTime: '2026-12-06T22:00:00.000Z' });
      expect((await query<{ n: number }>(`select count(*)::int as n from bookings`))[0]!.n).toBe(before);
      const booked = await call('POST', url('/bookings'), admin, body(target));
      expect(booked.body).toMatchObject({ siteName: 'Preview North', bayName: 'PN-2' });
      expect((await call('POST', url('/bookings/preview'), admin, target)).body).toMatchObject({ bayName: 'PN-10' });
      const [harbourSite] = await query<{ id: string }>(`select id from sites where org_id = $1 limit 1`, [harbourId]);
      expect((await call('POST', url('/bookings/preview'), admin, { ...target, siteId: harbourSite!.id })).status).toBe(404);
      await query(`update sites set active = false where id = $1`, [north!.id]);
    });

    it('refuses the portal’s invalid input with its messages, and a busy bay', async () => {
      const invalid = await call('POST', url('/bookings'), admin, body({ tenantEmail: 'not-an-email', vehicleHeightM: 99 }));
      expect(invalid.status).toBe(400);
      const first = await call('POST', url('/bookings'), admin, body({ date: '2026-12-01', slot: '10:00', bayId: bayIds[0] }));
      expect(first.status).toBe(201);
      const busy = await call('POST', url('/bookings'), admin, body({ date: '2026-12-01', slot: '10:00', bayId: bayIds[0] }));
      expect(busy.status).toBe(409);
      expect(busy.body.error.code).toBe('bay_not_free');
      expect((await call('POST', url('/bookings'), dock, body())).status).toBe(201); // dockmasters book walk-ins too
      expect((await call('POST', url('/bookings', harbourId), admin, body())).status).toBe(404);
    });
  });

  describe('documents', () => {
    it('serves a document as an attachment to its organization only', async () => {
      const id = await booking('pending', 40);
      await t.ctx.storage.put('booking-documents', `${acmeId}/${id}/note.pdf`, Buffer.from('%PDF-1.4 test'), 'application/pdf');
      const [doc] = await query<{ id: string }>(
        `insert into booking_documents (org_id, booking_id, file_name, content_type, size_bytes, storage_key) values ($1, $2, 'note ü.pdf', 'application/pdf', 13, $3) returning id`,
        [acmeId, id, `${acmeId}/${id}/note.pdf`],
      );
      const detail = await call('GET', url(`/bookings/${id}`), admin);
      expect(detail.body.documents).toEqual([expect.objectContaining({ id: doc!.id, fileName: 'note ü.pdf', sizeBytes: 13 })]);
      const file = await call('GET', url(`/bookings/${id}/documents/${doc!.id}`), admin);
      expect(file.status).toBe(200);
      expect(file.body).toBe('%PDF-1.4 test');
      expect(file.headers['content-type']).toBe('application/octet-stream');
      expect(file.headers['content-disposition']).toBe(`attachment; filename="note _.pdf"; filename*=UTF-8''note%20%C3%BC.pdf`);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      // Another organization, even through its own prefix with Acme's ids.
      expect((await call('GET', url(`/bookings/${id}/documents/${doc!.id}`), harbourAdmin)).status).toBe(404);
      expect((await call('GET', url(`/bookings/${id}/documents/${doc!.id}`, harbourId), harbourAdmin)).status).toBe(404);
    });
  });

  describe('tenant boundary (every route under /api/orgs/:orgId)', () => {
    it('walks every organization route as outsiders: 404 or 401, never data', async () => {
      const id = await booking('pending', 50);
      const { version } = await versionOf(id);
      const expired = await signIn('admin@acme.test', '2026-11-20T00:00:00Z');
      const routes: Array<{ method: 'GET' | 'POST'; path: string; body?: unknown }> = [
        { method: 'GET', path: '/bookings' },
        { method: 'GET', path: `/bookings/${id}` },
        { method: 'POST', path: `/bookings/${id}/transitions`, body: { to: 'approved', version } },
        { method: 'POST', path: `/bookings/${id}/extend`, body: { version, endTime: '2026-12-01T00:00:00Z' } },
        { method: 'GET', path: `/bookings/${id}/documents/00000000-0000-4000-8000-000000000000` },
        { method: 'POST', path: '/bookings', body: { tsrNumber: 'TSR-ORG-WALK' } },
        { method: 'GET', path: '/dashboard' },
        { method: 'GET', path: `/dashboard?siteId=${siteId}` },
        { method: 'GET', path: `/schedule?siteId=${siteId}&from=2026-11-23&to=2026-11-29` },
      ];
      const callers: Array<{ who: string; headers: () => Record<string, string>; status: number }> = [
        { who: "another organization's admin", headers: () => harbourAdmin, status: 404 },
        { who: 'security staff of the organization', headers: () => security, status: 404 },
        { who: 'anonymous', headers: () => ({}), status: 401 },
        { who: 'an expired session', headers: () => expired, status: 401 },
        { who: 'a forged token', headers: () => ({ authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x' }), status: 401 },
      ];
      for (const route of routes) {
        for (const caller of callers) {
          const res = await call(route.method, url(route.path), caller.headers(), route.body);
          expect({ route: route.path, who: caller.who, status: res.status }).toEqual({ route: route.path, who: caller.who, status: caller.status });
          expect(JSON.stringify(res.body)).not.toContain('TSR-ORG');
        }
      }
      // A dockmaster of Harbour (none in the demo): a membership made for the walk.
      const [harbourDock] = await query<{ id: string }>(`insert into users (email, full_name, password_hash) values ('dock@harbour.test', 'Harbour Dock', 'not-a-hash') returning id`);
      await query(`insert into org_memberships (org_id, user_id, role, employee_id) values ($1, $2, 'dockmaster', 'H1')`, [harbourId, harbourDock!.id]);
      const harbourDockHeaders = await signIn('dock@harbour.test');
      for (const route of routes) expect((await call(route.method, url(route.path), harbourDockHeaders, route.body)).status).toBe(404);
      // Nothing moved.
      expect(await versionOf(id)).toEqual({ version, status: 'pending' });
    });
  });
});
