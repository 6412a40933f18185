import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../domain/auth-schemas';
import {
  PLAN_UNAVAILABLE,
  SLUG_RULE,
  SLUG_TAKEN,
  SLUG_UNDERIVABLE,
  SUPPORT_CANNOT_CREATE,
  SUPPORT_CANNOT_MANAGE,
  SUSPEND_REASON_REQUIRED,
} from '../../../domain/platform-admin';
import { PLATFORM_CONFIG_KEY } from '../../../domain/platform-settings';
import { auditLog, billing, bookingDocuments, bookings, invoices, plans, platformSettings } from '../../db/schema';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn, TEST_PASSWORD } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

// A hand-made platform: four organizations of known ages, sites, bays, memberships, invoices around
// the 7- and 30-day revenue windows and audit entries around the 24-hour alert window.
// Frozen at Monday 2026-11-23 09:00 UTC; the portal books Tuesday 2026-11-24 (sites in UTC).
const NOW = new Date('2026-11-23T09:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

describe.each(databaseKinds)('platform administration API on %s', (kind) => {
  let t: TestApp;
  let alpha: { id: string };
  let bravo: { id: string };
  let charlie: { id: string };
  let alphaSite: { id: string; orgId: string };
  let superSession: Session;
  let ownerSession: Session;
  let supportSession: Session;

  const get = (url: string, session?: Session) => t.app.inject({ method: 'GET', url, headers: session ? bearer(session) : {} });
  const post = (url: string, session: Session | undefined, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: session ? bearer(session) : {}, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const database = t.ctx.database;
    const { db } = database;
    alpha = await createOrg(database, { name: 'Alpha Freight', createdAt: ago(3 * DAY) });
    bravo = await createOrg(database, { name: 'Bravo Cold Chain', status: 'suspended', createdAt: ago(2 * DAY) });
    charlie = await createOrg(database, { name: 'Charlie Docks', createdAt: ago(1 * DAY) });
    await createOrg(database, { name: 'Delta 100% Logistics', status: 'trial', createdAt: ago(4 * DAY) });

    // Alpha: one active site with two active bays and a retired one; a closed site whose bays do not count.
    alphaSite = await createSite(database, alpha.id, { name: 'Alpha North' });
    const alphaBay = await createBay(database, alphaSite, { name: 'A-1', heightClearanceM: 4.5 });
    await createBay(database, alphaSite, { name: 'A-2', heightClearanceM: 5 });
    await createBay(database, alphaSite, { name: 'A-3', active: false });
    const closed = await createSite(database, alpha.id, { name: 'Alpha Old', active: false });
    await createBay(database, closed, { name: 'O-1' });
    await createBay(database, closed, { name: 'O-2' });
    const charlieSite = await createSite(database, charlie.id, { name: 'Charlie One' });
    await createBay(database, charlieSite, { name: 'C-1' });

    // People: three platform roles, Alpha's admin, dockmaster and a former member, Bravo's admin.
    await createUser(database, { email: 'super@platform.example', platformRole: 'super_admin' });
    await createUser(database, { email: 'owner@platform.example', platformRole: 'platform_owner' });
    await createUser(database, { email: 'support@platform.example', platformRole: 'platform_support' });
    const admin = await createUser(database, { email: 'admin@alpha.example', fullName: 'Ada Admin' });
    await addMember(database, alpha.id, admin.id, 'org_admin');
    const dock = await createUser(database, { email: 'dock@alpha.example' });
    await addMember(database, alpha.id, dock.id, 'dockmaster', { employeeId: 'D-7' });
    const former = await createUser(database, { email: 'former@alpha.example' });
    await addMember(database, alpha.id, former.id, 'dockmaster', { active: false });
    const bravoAdmin = await createUser(database, { email: 'admin@bravo.example' });
    await addMember(database, bravo.id, bravoAdmin.id, 'org_admin');

    // Plans: Alpha on Starter, Bravo on Pro; Charlie and Delta without a plan.
    const [starter, pro] = await db
      .insert(plans)
      .values([
        { name: 'Starter', priceCents: 9900, maxSites: 1, maxBays: 10, maxUsers: 10 },
        { name: 'Pro', priceCents: 29900, maxSites: 5, maxBays: 60, maxUsers: 50 },
      ])
      .returning();
    await db.insert(billing).values([
      { orgId: alpha.id, planId: starter!.id },
      { orgId: bravo.id, planId: pro!.id },
    ]);

    // Invoices: 7 days holds 100.50 (+ 0.25 at 6 d 23 h); 30 days adds 200 and 50; older, unpaid
    // and not-yet-paid ones never count.
    let number = 0;
    const invoice = (orgId: string, status: string, amount: string, paidAt: Date | null) => ({
      orgId,
      number: `INV-T-${++number}`,
      status,
      amountDue: amount,
      amountPaid: status === 'paid' ? amount : '0',
      issuedAt: paidAt ? new Date(paidAt.getTime() - DAY) : ago(2 * DAY),
      paidAt,
    });
    await db.insert(invoices).values([
      invoice(alpha.id, 'paid', '100.50', ago(3 * DAY)),
      invoice(alpha.id, 'paid', '0.25', ago(7 * DAY - HOUR)),
      invoice(alpha.id, 'paid', '200.00', ago(7 * DAY + HOUR)),
      invoice(bravo.id, 'paid', '50.00', ago(29 * DAY)),
      invoice(bravo.id, 'paid', '1000.00', ago(31 * DAY)),
      invoice(alpha.id, 'open', '999.00', null),
      invoice(alpha.id, 'paid', '5000.00', new Date(NOW.getTime() + HOUR)),
    ]);

    // Audit: three alerts in the last 24 h (any case), one just outside, ordinary entries inside.
    const entry = (action: string, createdAt: Date, orgId: string | null = null) => ({
      action,
      resourceType: 'system',
      orgId,
      actorEmail: 'system@platform.example',
      actorRole: 'system',
      createdAt,
    });
    await db.insert(auditLog).values([
      entry('system.error', ago(HOUR), alpha.id),
      entry('booking.warning_sent', ago(23 * HOUR), bravo.id),
      entry('camera.ALERT_raised', ago(2 * HOUR)),
      entry('site.emergency_alert', ago(25 * HOUR), alpha.id),
      entry('booking.created', ago(30 * 60_000), alpha.id),
      entry('tenant.updated', ago(3 * HOUR), charlie.id),
      entry('organization.created', ago(3 * DAY), alpha.id),
    ]);

    // Usage: a portal booking created 2 days ago and an admin one 40 days ago; one document.
    const booking = (source: string, createdAt: Date) => ({
      orgId: alpha.id,
      siteId: alphaSite.id,
      bayId: alphaBay.id,
      tsrNumber: 'TSR-1',
      tenantName: 'Fast Freight',
      tenantEmail: 'ops@fast.example',
      startTime: ago(DAY),
      endTime: ago(DAY - HOUR),
      windowStart: ago(DAY),
      windowEnd: ago(DAY - HOUR),
      vehicleType: 'van',
      vehicleRegistration: 'ABC123',
      vehicleHeightMm: 2500,
      vehicleHeightM: 2.5,
      status: 'completed',
      source,
      createdAt,
    });
    const [portalBooking] = await db
      .insert(bookings)
      .values([booking('portal', ago(2 * DAY)), { ...booking('admin', ago(40 * DAY)), startTime: ago(40 * DAY), endTime: ago(40 * DAY - HOUR), windowStart: ago(40 * DAY), windowEnd: ago(40 * DAY - HOUR) }])
      .returning();
    await db.insert(bookingDocuments).values({
      orgId: alpha.id,
      bookingId: portalBooking!.id,
      fileName: 'cmr.pdf',
      contentType: 'application/pdf',
      sizeBytes: 2048,
      storageKey: `${alpha.id}/${portalBooking!.id}/cmr.pdf`,
    });

    superSession = await signIn(t.app, 'super@platform.example');
    ownerSession = await signIn(t.app, 'owner@platform.example');
    supportSession = await signIn(t.app, 'support@platform.example');
  });
  afterAll(() => t.close());

  describe('permissions', () => {
    const reads = () => [
      '/api/platform/stats',
      '/api/platform/organizations',
      '/api/platform/recent-activity',
      `/api/platform/organizations/${alpha.id}`,
      `/api/platform/organizations/${alpha.id}/audit`,
    ];

    it('answers 401 to anonymous callers and 403 to organization members on every route', async () => {
      const admin = await signIn(t.app, 'admin@alpha.example');
      for (const url of reads()) {
        expect((await get(url)).statusCode, url).toBe(401);
        const refused = await get(url, admin);
        expect(refused.statusCode, url).toBe(403);
        expect(refused.json().error).toMatchObject({ code: 'forbidden', message: 'Platform administrator access required' });
      }
      for (const action of ['suspend', 'reactivate']) {
        const url = `/api/platform/organizations/${alpha.id}/${action}`;
        expect((await post(url, undefined, { reason: 'x' })).statusCode).toBe(401);
        // The role is checked before the body: no 400 for a stranger either.
        expect((await post(url, admin, {})).statusCode).toBe(403);
      }
    });

    it('lets platform support read everything but neither suspend nor reactivate', async () => {
      for (const url of reads()) expect((await get(url, supportSession)).statusCode, url).toBe(200);
      const detail = await get(`/api/platform/organizations/${alpha.id}`, supportSession);
      expect(detail.json().actions).toEqual({ canSuspend: false, canReactivate: false });
      const suspend = await post(`/api/platform/organizations/${alpha.id}/suspend`, supportSession, { reason: 'Unpaid' });
      expect(suspend.statusCode).toBe(403);
      expect(suspend.json().error.message).toBe(SUPPORT_CANNOT_MANAGE);
      const reactivate = await post(`/api/platform/organizations/${bravo.id}/reactivate`, supportSession);
      expect(reactivate.statusCode).toBe(403);
      expect((await get(`/api/platform/organizations/${alpha.id}`, superSession)).json().status).toBe('active');
    });

    it('offers super admins and platform owners the action that fits the status', async () => {
      expect((await get(`/api/platform/organizations/${alpha.id}`, ownerSession)).json().actions).toEqual({ canSuspend: true, canReactivate: false });
      expect((await get(`/api/platform/organizations/${bravo.id}`, superSession)).json().actions).toEqual({ canSuspend: false, canReactivate: true });
    });
  });

  describe('statistics', () => {
    it('counts active organizations, active memberships, the 30-day revenue and the alerts of 24 h', async () => {
      // Audit entries whose action merely reads "error", "warning" or "alert" are no alerts.
      const before = (await get('/api/platform/stats', superSession)).json();
      expect(before).toMatchObject({ alerts: 0, alertCounts: { openErrorGroups: 0, emergencyStops: 0, suspensions: 0 } });

      // Alerts: error groups seen in the last 24 h and open (A, and C seen again after it was resolved;
      // not B, resolved since, nor D, seen 25 h ago), emergency stops and suspensions of the last 24 h.
      const db = t.ctx.database;
      const event = (fingerprint: string, at: Date) =>
        db.query(`insert into error_events (message, fingerprint, created_at) values ('boom', $1, $2)`, [fingerprint, at.toISOString()]);
      await event('fp-a', ago(HOUR));
      await event('fp-a', ago(2 * HOUR));
      await event('fp-b', ago(3 * HOUR));
      await event('fp-c', ago(HOUR));
      await event('fp-d', ago(25 * HOUR));
      await db.query(
        `insert into error_groups (fingerprint, status, resolved_at) values ('fp-b', 'resolved', $1), ('fp-c', 'resolved', $2), ('fp-d', 'open', null)`,
        [ago(2 * HOUR).toISOString(), ago(2 * HOUR).toISOString()],
      );
      const alert = (action: string, createdAt: Date, orgId: string) => ({
        action, resourceType: action.startsWith('site.') ? 'site' : 'organization', orgId, actorEmail: 'alerts@platform.example', actorRole: 'super_admin', createdAt,
      });
      await db.db.insert(auditLog).values([
        alert('site.emergency_stopped', ago(5 * HOUR), alpha.id),
        alert('site.emergency_resumed', ago(4 * HOUR), alpha.id),
        alert('site.emergency_stopped', ago(26 * HOUR), alpha.id),
        alert('organization.suspended', ago(20 * HOUR), charlie.id),
      ]);

      const res = await get('/api/platform/stats', superSession);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        days: 30,
        activeOrganizations: 2, // Alpha and Charlie (Bravo suspended, Delta on trial)
        activeMemberships: 3, // Alpha's admin and dockmaster, Bravo's admin
        revenueUsd: 350.75, // 100.50 + 0.25 + 200 + 50
        alerts: 4,
        alertCounts: { openErrorGroups: 2, emergencyStops: 1, suspensions: 1 },
        generatedAt: NOW.toISOString(),
      });
    });

    it('sums the last 7 days only for the 7-day period', async () => {
      const res = await get('/api/platform/stats?days=7', superSession);
      expect(res.json()).toMatchObject({ days: 7, revenueUsd: 100.75, alerts: 4 });
    });

    it('answers null revenue (a dash) and no alerts when the window holds none', async () => {
      t.clock.set(new Date(NOW.getTime() + 200 * DAY));
      try {
        // The earlier session has expired by then: a fresh one.
        const res = await get('/api/platform/stats?days=7', await signIn(t.app, 'super@platform.example'));
        expect(res.json()).toMatchObject({ revenueUsd: null, alerts: 0 });
      } finally {
        t.clock.set(NOW);
      }
    });

    it('refuses any other period with a clear message', async () => {
      for (const days of ['14', 'abc', '-7']) {
        const res = await get(`/api/platform/stats?days=${days}`, superSession);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.message).toBe('The period must be 7 or 30 days');
      }
    });
  });

  describe('organization list', () => {
    it('lists newest first with status, plan, created, active sites, bays and members', async () => {
      const res = await get('/api/platform/organizations', superSession);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.total).toBe(4);
      expect(body.items.map((o: { name: string }) => o.name)).toEqual(['Charlie Docks', 'Bravo Cold Chain', 'Alpha Freight', 'Delta 100% Logistics']);
      const byName = Object.fromEntries(body.items.map((o: { name: string }) => [o.name, o]));
      expect(byName['Alpha Freight']).toMatchObject({
        status: 'active',
        plan: { name: 'Starter' },
        createdAt: ago(3 * DAY).toISOString(),
        activeSites: 1,
        activeBays: 2,
        activeMembers: 2,
      });
      expect(byName['Bravo Cold Chain']).toMatchObject({ status: 'suspended', plan: { name: 'Pro' }, activeSites: 0, activeBays: 0 });
      expect(byName['Charlie Docks']).toMatchObject({ plan: null, activeSites: 1, activeBays: 1, activeMembers: 0 });
      expect(byName['Delta 100% Logistics']).toMatchObject({ status: 'trial', plan: null });
    });

    it('searches by name (wildcards typed are literal) and filters by status', async () => {
      const search = async (query: string) =>
        (await get(`/api/platform/organizations?${query}`, superSession)).json().items.map((o: { name: string }) => o.name);
      expect(await search('q=cold')).toEqual(['Bravo Cold Chain']);
      expect(await search('q=ALPHA')).toEqual(['Alpha Freight']);
      expect(await search(`q=${encodeURIComponent('100%')}`)).toEqual(['Delta 100% Logistics']);
      expect(await search('q=%25')).toEqual(['Delta 100% Logistics']);
      expect(await search('q=_')).toEqual([]);
      expect(await search('status=suspended')).toEqual(['Bravo Cold Chain']);
      expect(await search('q=docks&status=suspended')).toEqual([]);
    });

    it('pages, keeping the total past the end', async () => {
      const page2 = (await get('/api/platform/organizations?pageSize=3&page=2', superSession)).json();
      expect(page2).toMatchObject({ total: 4, items: [{ name: 'Delta 100% Logistics' }] });
      const first3 = (await get('/api/platform/organizations?pageSize=3', superSession)).json();
      expect(first3.items).toHaveLength(3);
      expect((await get('/api/platform/organizations?page=9', superSession)).json()).toEqual({ total: 4, items: [] });
      for (const bad of ['page=0', 'pageSize=101', 'status=deleted', `q=${'x'.repeat(101)}`]) {
        expect((await get(`/api/platform/organizations?${bad}`, superSession)).statusCode, bad).toBe(400);
      }
    });
  });

  describe('recent activity and the audit trail', () => {
    it('lists the latest entries newest first with their organization name', async () => {
      const res = await get('/api/platform/recent-activity', superSession);
      expect(res.statusCode).toBe(200);
      const { items } = res.json();
      expect(items).toHaveLength(5);
      const times = items.map((e: { createdAt: string }) => Date.parse(e.createdAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      const all = (await get('/api/platform/recent-activity?limit=20', superSession)).json().items;
      const mine = all.filter((e: { actorEmail: string }) => e.actorEmail === 'system@platform.example');
      expect(mine.map((e: { action: string; orgName: string | null }) => [e.action, e.orgName])).toEqual([
        ['booking.created', 'Alpha Freight'],
        ['system.error', 'Alpha Freight'],
        ['camera.ALERT_raised', null],
        ['tenant.updated', 'Charlie Docks'],
        ['booking.warning_sent', 'Bravo Cold Chain'],
        ['site.emergency_alert', 'Alpha Freight'],
        ['organization.created', 'Alpha Freight'],
      ]);
      expect((await get('/api/platform/recent-activity?limit=21', superSession)).statusCode).toBe(400);
    });

    it("pages one organization's trail", async () => {
      const res = (await get(`/api/platform/organizations/${alpha.id}/audit?pageSize=2`, superSession)).json();
      expect(res.total).toBeGreaterThanOrEqual(4);
      expect(res.items.map((e: { action: string }) => e.action)).toEqual(['booking.created', 'system.error']);
      expect(res.items.every((e: { orgId: string }) => e.orgId === alpha.id)).toBe(true);
    });
  });

  describe('organization detail', () => {
    it('shows members, sites with bays, plan, invoices and usage', async () => {
      const res = await get(`/api/platform/organizations/${alpha.id}`, superSession);
      expect(res.statusCode).toBe(200);
      const org = res.json();
      expect(org).toMatchObject({ name: 'Alpha Freight', status: 'active', suspension: null });
      expect(org.members.map((m: { email: string; active: boolean }) => [m.email, m.active])).toEqual([
        ['admin@alpha.example', true],
        ['dock@alpha.example', true],
        ['former@alpha.example', false],
      ]);
      expect(org.sites.map((s: { name: string; bays: { name: string }[] }) => [s.name, s.bays.map((b) => b.name)])).toEqual([
        ['Alpha North', ['A-1', 'A-2', 'A-3']],
        ['Alpha Old', ['O-1', 'O-2']],
      ]);
      expect(org.plan).toMatchObject({ name: 'Starter', priceCents: 9900, maxSites: 1, maxBays: 10, maxUsers: 10, maxBookingsPerMonth: null });
      expect(org.invoices).toHaveLength(5);
      expect(org.invoices.find((i: { status: string }) => i.status === 'open')).toMatchObject({ amountDue: 999, amountPaid: 0, paidAt: null });
      // What counts against the plan now: the portal booking of 2 days ago is this month's; the admin one of 40 days ago is not.
      expect(org.usage).toEqual({ activeSites: 1, activeBays: 2, activeMembers: 2, bookingsThisMonth: 1 });
    });

    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000', "1' or '1'='1"]) {
        const url = `/api/platform/organizations/${encodeURIComponent(id)}`;
        expect((await get(url, superSession)).statusCode, id).toBe(404);
        expect((await get(`${url}/audit`, superSession)).statusCode, id).toBe(404);
        expect((await post(`${url}/suspend`, superSession, { reason: 'x' })).statusCode, id).toBe(404);
        expect((await post(`${url}/reactivate`, superSession)).statusCode, id).toBe(404);
      }
    });
  });

  describe('suspension', () => {
    // Each request at its own slot: the same vehicle twice at one time is refused (409).
    const portalRequest = (slot: string) => ({
      orgId: alpha.id,
      tsrNumber: 'TSR-2026-0042',
      tsrSystemType: 'servicenow',
      tsrUrl: '',
      tenantName: 'Fast Freight Pty Ltd',
      contactName: 'Jo Driver',
      tenantEmail: 'jo@fastfreight.example',
      tenantPhone: '',
      bookingType: 'delivery',
      date: '2026-11-24',
      slot,
      expectedDurationMin: 30,
      vehicleType: 'van',
      vehicleRegistration: 'XYZ987',
      vehicleHeightM: 2.5,
      vehicleLengthM: 6,
      specialAccessNeeds: [],
      goodsDescription: 'Pallets',
      driverInductionCompleted: true,
      termsAccepted: true,
      notes: '',
    });
    const submitBooking = (data: object) => {
      const form = new FormData();
      form.append('data', JSON.stringify(data));
      return t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: form as never });
    };
    const availability = () =>
      t.app.inject({ method: 'POST', url: '/api/public/availability', payload: { orgId: alpha.id, date: '2026-11-24', durationMin: 30, vehicleHeightM: 2.5 } });
    const orgSignIn = (email: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/token?grant_type=password', payload: { email, password: TEST_PASSWORD, orgId: alpha.id } });
    const dockSignIn = () =>
      t.app.inject({ method: 'POST', url: '/api/auth/dockmaster/token', payload: { siteId: alphaSite.id, employeeId: 'D-7', password: TEST_PASSWORD } });

    it('requires a reason', async () => {
      for (const payload of [{}, { reason: '' }, { reason: '   ' }]) {
        const res = await post(`/api/platform/organizations/${alpha.id}/suspend`, superSession, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.message).toBe(SUSPEND_REASON_REQUIRED);
      }
      const long = await post(`/api/platform/organizations/${alpha.id}/suspend`, superSession, { reason: 'x'.repeat(501) });
      expect(long.statusCode).toBe(400);
      expect((await post(`/api/platform/organizations/${alpha.id}/suspend`, superSession)).statusCode).toBe(400);
      expect((await get(`/api/platform/organizations/${alpha.id}`, superSession)).json().status).toBe('active');
    });

    it('ends the members’ sessions, refuses their sign-in and the portal; reactivation restores both', async () => {
      // Before: the admin works in the organization, the dockmaster at the gate, the portal books.
      const adminForOrg = (await orgSignIn('admin@alpha.example')).json() as Session;
      const adminPlain = await signIn(t.app, 'admin@alpha.example');
      const dock = (await dockSignIn()).json() as Session;
      // Another organization's member (Bravo is suspended: its admin cannot sign in at all).
      const charlieUser = await createUser(t.ctx.database, { email: 'admin@charlie.example' });
      await addMember(t.ctx.database, charlie.id, charlieUser.id, 'org_admin');
      const otherAdmin = await signIn(t.app, 'admin@charlie.example');
      expect((await get(`/api/orgs/${alpha.id}/dashboard`, adminForOrg)).statusCode).toBe(200);
      expect((await get(`/api/orgs/${alpha.id}/dashboard`, adminPlain)).statusCode).toBe(200);
      expect((await submitBooking(portalRequest('10:00'))).statusCode).toBe(201);

      // Every live session of Alpha's members: these three and the admin's from the permission test.
      const [live] = await t.ctx.database.query<{ n: number }>(
        `select count(*)::int as n from auth_sessions s join org_memberships m on m.user_id = s.user_id
          where m.org_id = $1 and s.revoked_at is null`,
        [alpha.id],
      );
      expect(live!.n).toBe(4);

      const res = await post(`/api/platform/organizations/${alpha.id}/suspend`, ownerSession, { reason: '  Invoices unpaid for 90 days  ' });
      expect(res.statusCode).toBe(200);
      expect(res.json().sessionsEnded).toBe(4);
      expect(res.json().organization).toMatchObject({
        status: 'suspended',
        suspension: { byEmail: 'owner@platform.example', reason: 'Invoices unpaid for 90 days' },
        actions: { canSuspend: false, canReactivate: true },
      });

      // Their live sessions are over; other organizations' and the platform's are not.
      for (const session of [adminForOrg, adminPlain, dock]) {
        expect((await get('/api/auth/user', session)).statusCode).toBe(401);
        const refresh = await t.app.inject({ method: 'POST', url: '/api/auth/token?grant_type=refresh_token', payload: { refresh_token: session.refresh_token } });
        expect(refresh.statusCode).toBe(400);
      }
      expect((await get('/api/auth/user', otherAdmin)).statusCode).toBe(200);
      expect((await get('/api/auth/user', ownerSession)).statusCode).toBe(200);

      // Sign-in to the organization and at its gate is refused.
      const refused = await orgSignIn('admin@alpha.example');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('org_suspended');
      expect((await dockSignIn()).statusCode).toBe(400);
      // The e-mail sign-in is refused too, saying why and whom to contact (issue 22 item 14).
      const plain = await t.app.inject({ method: 'POST', url: '/api/auth/token?grant_type=password', payload: { email: 'admin@alpha.example', password: TEST_PASSWORD } });
      expect(plain.statusCode).toBe(403);
      expect(plain.json().error.code).toBe('org_suspended');
      expect(plain.json().error.message).toMatch(/^Alpha\b.* is suspended: .+\. To restore access, contact /);

      // The portal refuses the organization (even right after a booking warmed its rules).
      expect((await submitBooking(portalRequest('11:00'))).statusCode).toBe(404);
      expect((await availability()).statusCode).toBe(404);
      const listed = (await t.app.inject({ method: 'GET', url: '/api/public/organizations' })).json();
      expect(listed.map((o: { id: string }) => o.id)).not.toContain(alpha.id);

      // Audited with the reason; suspending again is a conflict that changes nothing.
      const [audit] = await t.ctx.database.query<{ actor_email: string; actor_role: string; details: { reason: string; sessionsEnded: number } }>(
        `select actor_email, actor_role, details from audit_log where action = 'organization.suspended' and org_id = $1`,
        [alpha.id],
      );
      expect(audit).toMatchObject({ actor_email: 'owner@platform.example', actor_role: 'platform_owner', details: { reason: 'Invoices unpaid for 90 days', sessionsEnded: 4 } });
      const again = await post(`/api/platform/organizations/${alpha.id}/suspend`, superSession, { reason: 'Twice' });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toBe('This organization is already suspended');
      expect((await get('/api/platform/stats', superSession)).json().activeOrganizations).toBe(1);

      // Reactivated: sign-in and the portal work again; audited; a second reactivation is a conflict.
      const back = await post(`/api/platform/organizations/${alpha.id}/reactivate`, superSession);
      expect(back.statusCode).toBe(200);
      expect(back.json().organization).toMatchObject({ status: 'active', suspension: null, actions: { canSuspend: true, canReactivate: false } });
      const admin = await orgSignIn('admin@alpha.example');
      expect(admin.statusCode).toBe(200);
      expect((await get(`/api/orgs/${alpha.id}/dashboard`, admin.json())).statusCode).toBe(200);
      expect((await dockSignIn()).statusCode).toBe(200);
      expect((await availability()).statusCode).toBe(200);
      expect((await submitBooking(portalRequest('12:00'))).statusCode).toBe(201);
      const [reactivated] = await t.ctx.database.query<{ actor_email: string }>(
        `select actor_email from audit_log where action = 'organization.reactivated' and org_id = $1`,
        [alpha.id],
      );
      expect(reactivated?.actor_email).toBe('super@platform.example');
      const twice = await post(`/api/platform/organizations/${alpha.id}/reactivate`, superSession);
      expect(twice.statusCode).toBe(409);
      expect(twice.json().error.message).toBe('This organization is not suspended');
    });

    it('shows the suspension of an organization suspended without an audit entry', async () => {
      const org = (await get(`/api/platform/organizations/${bravo.id}`, superSession)).json();
      expect(org.suspension).toMatchObject({ byEmail: null, reason: 'No reason recorded' });
    });
  });

  describe('creating an organization', () => {
    const form = (overrides: Record<string, unknown> = {}) => ({
      name: 'Echo Émile Transport',
      contactEmail: 'ops@echo.example',
      contactPhone: '+61 2 9000 1234',
      adminEmail: 'Erin@Echo.example',
      adminName: 'Erin Echo',
      ...overrides,
    });
    const create = (payload: object, session: Session | undefined = superSession) => post('/api/platform/organizations', session, payload);
    const counts = async () =>
      (
        await t.ctx.database.query<{ orgs: number; billing: number; invitations: number; mail: number }>(
          `select (select count(*)::int from organizations) as orgs, (select count(*)::int from billing) as billing,
                  (select count(*)::int from org_invitations) as invitations, (select count(*)::int from mail_outbox) as mail`,
        )
      )[0]!;
    const planId = async (name: string) => (await t.ctx.database.query<{ id: string }>(`select id from plans where name = $1`, [name]))[0]!.id;

    it('is for super admins and platform owners: 401 signed out, 403 to members (before the body) and to platform support', async () => {
      const admin = await signIn(t.app, 'admin@alpha.example');
      const before = await counts();
      expect((await post('/api/platform/organizations', undefined, form())).statusCode).toBe(401);
      expect((await create({}, admin)).statusCode).toBe(403);
      const support = await create(form(), supportSession);
      expect(support.statusCode).toBe(403);
      expect(support.json().error.message).toBe(SUPPORT_CANNOT_CREATE);
      expect((await get('/api/platform/organization-options')).statusCode).toBe(401);
      expect((await get('/api/platform/organization-options', admin)).statusCode).toBe(403);
      expect((await get('/api/platform/organization-options', supportSession)).statusCode).toBe(200);
      expect(await counts()).toEqual(before);
    });

    it('refuses bad answers with the form’s messages and changes nothing', async () => {
      const before = await counts();
      const empty = await create({});
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error.details.map((d: { path: string; message: string }) => [d.path, d.message])).toEqual([
        ['name', 'Organization name is required'],
        ['adminEmail', 'First admin email is required'],
        ['adminName', 'First admin name is required'],
      ]);
      const cases: [object, string, string][] = [
        [form({ slug: 'Bad Slug!' }), 'slug', SLUG_RULE],
        [form({ slug: '-edge-' }), 'slug', SLUG_RULE],
        [form({ adminEmail: 'erin@' }), 'adminEmail', 'Please enter a valid email address'],
        [form({ contactEmail: 'ops' }), 'contactEmail', 'Please enter a valid contact email address'],
        [form({ planId: 'starter' }), 'planId', 'Choose a plan'],
        [form({ name: 'Two\nlines' }), 'name', 'Organization name contains characters that are not allowed (control characters or line breaks)'],
        [form({ name: '!!!' }), 'slug', SLUG_UNDERIVABLE],
      ];
      for (const [payload, path, message] of cases) {
        const res = await create(payload);
        expect(res.statusCode, message).toBe(400);
        expect(res.json().error.details, message).toContainEqual({ path, message });
      }
      // A plan that does not exist, or is no longer offered: 404 under the field.
      await t.ctx.database.db.insert(plans).values({ name: 'Legacy', active: false });
      for (const id of ['00000000-0000-4000-8000-000000000000', await planId('Legacy')]) {
        const res = await create(form({ planId: id }));
        expect(res.statusCode).toBe(404);
        expect(res.json().error).toMatchObject({ message: PLAN_UNAVAILABLE, details: [{ path: 'planId', message: PLAN_UNAVAILABLE }] });
      }
      expect(await counts()).toEqual(before);
    });

    it("creates it active with the platform's default plan and invites its first admin by e-mail, audited; the admin joins", async () => {
      const starter = await planId('Starter');
      await t.ctx.database.db.insert(platformSettings).values({ key: PLATFORM_CONFIG_KEY, value: { defaultPlanId: starter } });
      const options = (await get('/api/platform/organization-options', superSession)).json();
      expect(options.defaultPlanId).toBe(starter);
      expect(options.plans.map((p: { name: string }) => p.name)).toEqual(['Starter', 'Pro']);

      const res = await create(form());
      expect(res.statusCode, res.body).toBe(201);
      const { organization, invitation } = res.json();
      expect(organization).toMatchObject({
        name: 'Echo Émile Transport',
        slug: 'echo-emile-transport',
        status: 'active',
        contactEmail: 'ops@echo.example',
        contactPhone: '+61 2 9000 1234',
        createdAt: NOW.toISOString(),
        plan: { id: starter, name: 'Starter', billingStatus: 'active' },
        members: [],
        sites: [],
        usage: { activeSites: 0, activeBays: 0, activeMembers: 0, bookingsThisMonth: 0 },
      });
      expect(invitation).toMatchObject({ email: 'erin@echo.example', fullName: 'Erin Echo', expiresAt: new Date(NOW.getTime() + 7 * DAY).toISOString() });
      const [stored] = await t.ctx.database.query<{ role: string; invited_by_email: string }>(
        `select i.role, u.email as invited_by_email from org_invitations i join users u on u.id = i.invited_by where i.id = $1`,
        [invitation.id],
      );
      expect(stored).toEqual({ role: 'org_admin', invited_by_email: 'super@platform.example' });
      const [audit] = await t.ctx.database.query<{ actor_email: string; actor_role: string; details: Record<string, unknown> }>(
        `select actor_email, actor_role, details from audit_log where action = 'organization.created' and org_id = $1`,
        [organization.id],
      );
      expect(audit).toMatchObject({
        actor_email: 'super@platform.example',
        actor_role: 'super_admin',
        details: { name: 'Echo Émile Transport', slug: 'echo-emile-transport', plan_id: starter, plan_chosen: 'default', admin_email: 'erin@echo.example', invitation_id: invitation.id },
      });
      // Newest first on the list.
      expect((await get('/api/platform/organizations?pageSize=1', superSession)).json().items[0]).toMatchObject({ id: organization.id, plan: { name: 'Starter' } });

      // The invitation e-mail, and the admin accepting it: the organization's first admin.
      const mail = (await t.outbox()).find((m) => m.subject === "You're invited to join Echo Émile Transport on Baywise");
      expect(mail?.to && [mail.to].flat()[0]?.text).toBe('erin@echo.example');
      const token = mail!.text!.match(/accept-invitation\?token=([A-Za-z0-9_-]+)/)![1];
      const accepted = await post(`/api/invitations/${token}/accept`, undefined, { password: 'Erin-password-1' });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const erin = await signIn(t.app, 'erin@echo.example', 'Erin-password-1', organization.id);
      expect((await get(`/api/orgs/${organization.id}/dashboard`, erin)).statusCode).toBe(200);
      const detail = (await get(`/api/platform/organizations/${organization.id}`, superSession)).json();
      expect(detail.members.map((m: { email: string; role: string; fullName: string }) => [m.email, m.role, m.fullName])).toEqual([['erin@echo.example', 'org_admin', 'Erin Echo']]);
    });

    it('answers 409 under the slug when it is in use (any case, typed or made from the name) and makes nothing', async () => {
      const before = await counts();
      for (const payload of [form({ name: 'Another', slug: 'echo-emile-transport' }), form({ slug: 'ECHO-EMILE-TRANSPORT' }), form({ name: 'Alpha Freight', adminEmail: 'x@alpha.example' })]) {
        const res = await create(payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(409);
        expect(res.json().error).toMatchObject({ code: 'slug_taken', message: SLUG_TAKEN, details: [{ path: 'slug', message: SLUG_TAKEN }] });
      }
      expect(await counts()).toEqual(before);
    });

    it('takes the plan chosen, or none', async () => {
      const pro = await create(form({ name: 'Foxtrot Haulage', planId: await planId('Pro'), adminEmail: 'fox@foxtrot.example' }));
      expect(pro.statusCode).toBe(201);
      expect(pro.json().organization.plan).toMatchObject({ name: 'Pro' });
      const none = await create(form({ name: 'Golf Yards', slug: 'golf', planId: null, adminEmail: 'g@golf.example' }));
      expect(none.statusCode).toBe(201);
      expect(none.json().organization).toMatchObject({ slug: 'golf', plan: null });
      const [row] = await t.ctx.database.query<{ plan_id: string | null; status: string }>(`select plan_id, status from billing where org_id = $1`, [none.json().organization.id]);
      expect(row).toEqual({ plan_id: null, status: 'active' });
    });
  });
});
