import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../domain/auth-schemas';
import { CSV_BOM } from '../../../domain/reports';
import { auditLog, authSessions, billing, bookingDocuments, bookings, plans, siteCameraTokens, usageCounters } from '../../db/schema';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { signAccessToken } from '../../auth/tokens';
import { newCameraSecret } from '../org-settings/camera-tokens';

// A hand-made platform whose every usage figure is known, with rows on both sides of each window
// edge. Frozen at Monday 2026-11-23 09:00 UTC: the 7-day window starts 2026-11-17 00:00 UTC, the
// 30-day one 2026-10-25 00:00 UTC, the 90-day one 2026-08-26 00:00 UTC; all end now.
const NOW = new Date('2026-11-23T09:00:00Z');
const FROM_7 = new Date('2026-11-17T00:00:00Z');
const FROM_30 = new Date('2026-10-25T00:00:00Z');
const MS = 1;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const at = (iso: string) => new Date(iso);

describe.each(databaseKinds)('usage analytics on %s', (kind) => {
  let t: TestApp;
  let alpha: { id: string };
  let bravo: { id: string };
  let charlie: { id: string };
  let alphaSite: { id: string; orgId: string };
  let superSession: Session;
  let supportSession: Session;
  let alphaAdmin: { id: string };

  const get = (url: string, session?: Session) => t.app.inject({ method: 'GET', url, headers: session ? bearer(session) : {} });
  const usage = async (query = '') => {
    const res = await get(`/api/platform/usage${query ? `?${query}` : ''}`, superSession);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** A bearer header for a session opened in 2020 (outside every window). */
  const oldSession = async (email: string) => {
    const [user] = await t.ctx.database.query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [session] = await t.ctx.database.query<{ id: string }>(
      `insert into auth_sessions (user_id, created_at, expires_at) values ($1, '2020-01-01T00:00:00Z', '2030-01-01T00:00:00Z') returning id`,
      [user!.id],
    );
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: session!.id, email });
    return { authorization: `Bearer ${token}` };
  };
  const row = (body: { organizations: { items: { orgId: string }[] } }, org: { id: string }) => body.organizations.items.find((o) => o.orgId === org.id)!;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const database = t.ctx.database;
    const { db } = database;
    alpha = await createOrg(database, { name: 'Alpha Freight', slug: 'alpha-freight' });
    bravo = await createOrg(database, { name: 'Bravo Cold Chain', slug: 'bravo-cold-chain' });
    charlie = await createOrg(database, { name: 'Charlie Docks', slug: 'charlie-docks' });
    // A name a spreadsheet would run as a formula.
    await createOrg(database, { name: '=HYPERLINK("http://x.example","Evil, Inc")', slug: 'evil-inc' });
    const delta = await createOrg(database, { name: 'Delta Unlimited', slug: 'delta-unlimited' });

    // Alpha: one active site with three active bays (and an inactive one), a closed site.
    alphaSite = await createSite(database, alpha.id, { name: 'Alpha North' });
    const bay = await createBay(database, alphaSite, { name: 'A-1' });
    await createBay(database, alphaSite, { name: 'A-2' });
    await createBay(database, alphaSite, { name: 'A-3' });
    await createBay(database, alphaSite, { name: 'A-4', active: false });
    const closed = await createSite(database, alpha.id, { name: 'Alpha Old', active: false });
    await createBay(database, closed, { name: 'O-1' });
    const bravoSite = await createSite(database, bravo.id, { name: 'Bravo One' });
    const bravoBay = await createBay(database, bravoSite, { name: 'B-1' });

    // Plans: Alpha 1 of 2 sites (50 %), 3 of 4 bays (75 %), 3 of 10 members (30 %), 5 of 5 bookings
    // this month (100 %); Bravo 0 of 1 site (0 %); Delta's plan has no limit; Charlie has no plan.
    const [small, tiny, unlimited] = await db
      .insert(plans)
      .values([
        { name: 'Small', maxSites: 2, maxBays: 4, maxUsers: 10, maxBookingsPerMonth: 5 },
        { name: 'Tiny', maxSites: 1 },
        { name: 'Unlimited' },
      ])
      .returning();
    await db.insert(billing).values([
      { orgId: alpha.id, planId: small!.id },
      { orgId: bravo.id, planId: tiny!.id },
      { orgId: delta.id, planId: unlimited!.id },
    ]);

    // People: Alpha's admin and two dockmasters; a member of Alpha and Bravo; Bravo's admin; the platform.
    await createUser(database, { email: 'super@platform.example', platformRole: 'super_admin' });
    await createUser(database, { email: 'support@platform.example', platformRole: 'platform_support' });
    const superUser = (await database.query<{ id: string }>(`select id from users where email = 'super@platform.example'`))[0]!;
    alphaAdmin = await createUser(database, { email: 'admin@alpha.example' });
    await addMember(database, alpha.id, alphaAdmin.id, 'org_admin');
    const dock = await createUser(database, { email: 'dock@alpha.example' });
    await addMember(database, alpha.id, dock.id, 'dockmaster', { employeeId: 'D-1' });
    const dock2 = await createUser(database, { email: 'dock2@alpha.example' });
    await addMember(database, alpha.id, dock2.id, 'dockmaster', { employeeId: 'D-2', active: false });
    const both = await createUser(database, { email: 'both@example.test' });
    await addMember(database, alpha.id, both.id, 'org_admin');
    await addMember(database, bravo.id, both.id, 'dockmaster', { employeeId: 'B-1' });
    const bravoAdmin = await createUser(database, { email: 'admin@bravo.example' });
    await addMember(database, bravo.id, bravoAdmin.id, 'org_admin');

    // Bookings (created_at decides): Alpha — portal at the 7-day edge, admin 1 ms before it, gate
    // now, 'ssc' (carrier API) yesterday, 'demo' (other) on 1 Nov, portal at the 30-day edge and 1 ms
    // before it, and one stamped 1 ms in the future (never counted). Bravo — one portal booking.
    const booking = (orgId: string, siteId: string, bayId: string, source: string, createdAt: Date) => ({
      orgId,
      siteId,
      bayId,
      tsrNumber: `TSR-${source}-${createdAt.getTime()}`,
      tenantName: 'Fast Freight',
      tenantEmail: 'ops@fast.example',
      startTime: at('2026-12-01T10:00:00Z'),
      endTime: at('2026-12-01T10:30:00Z'),
      windowStart: at('2026-12-01T10:00:00Z'),
      windowEnd: at('2026-12-01T10:30:00Z'),
      vehicleType: 'van',
      vehicleRegistration: 'ABC123',
      vehicleHeightMm: 2500,
      vehicleHeightM: 2.5,
      status: 'cancelled',
      source,
      createdAt,
    });
    const made = await db
      .insert(bookings)
      .values([
        booking(alpha.id, alphaSite.id, bay.id, 'portal', FROM_7),
        booking(alpha.id, alphaSite.id, bay.id, 'admin', new Date(FROM_7.getTime() - MS)),
        booking(alpha.id, alphaSite.id, bay.id, 'gate', NOW),
        booking(alpha.id, alphaSite.id, bay.id, 'ssc', at('2026-11-22T12:00:00Z')),
        booking(alpha.id, alphaSite.id, bay.id, 'demo', at('2026-11-01T08:00:00Z')),
        booking(alpha.id, alphaSite.id, bay.id, 'portal', FROM_30),
        booking(alpha.id, alphaSite.id, bay.id, 'portal', new Date(FROM_30.getTime() - MS)),
        booking(alpha.id, alphaSite.id, bay.id, 'portal', new Date(NOW.getTime() + MS)),
        booking(bravo.id, bravoSite.id, bravoBay.id, 'portal', at('2026-11-20T15:00:00Z')),
      ])
      .returning({ id: bookings.id });

    // Documents of Alpha: 1000 bytes 40 days ago, 2048 bytes 2 days ago.
    await db.insert(bookingDocuments).values([
      { orgId: alpha.id, bookingId: made[0]!.id, fileName: 'old.pdf', contentType: 'application/pdf', sizeBytes: 1000, storageKey: 'a/old.pdf', createdAt: ago(40 * DAY) },
      { orgId: alpha.id, bookingId: made[0]!.id, fileName: 'new.pdf', contentType: 'application/pdf', sizeBytes: 2048, storageKey: 'a/new.pdf', createdAt: ago(2 * DAY) },
    ]);

    // Sessions: Alpha's admin for Alpha an hour ago and by e-mail alone 3 days ago; the member of
    // both by e-mail 2 days ago (counts for each organization, once in the total); an impersonation
    // of Alpha's admin and a platform user's session (never sign-ins); Bravo's admin 1 ms before the
    // 7-day edge.
    const session = (userId: string, createdAt: Date, values: Partial<typeof authSessions.$inferInsert> = {}) => ({
      userId,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + DAY),
      ...values,
    });
    await db.insert(authSessions).values([
      session(alphaAdmin.id, ago(HOUR), { orgId: alpha.id }),
      session(alphaAdmin.id, ago(3 * DAY)),
      session(both.id, ago(2 * DAY)),
      session(alphaAdmin.id, ago(2 * HOUR), { orgId: alpha.id, impersonatorId: superUser.id, impersonationReason: 'Support ticket' }),
      session(superUser.id, ago(HOUR)),
      session(bravoAdmin.id, new Date(FROM_7.getTime() - MS), { orgId: bravo.id }),
    ]);

    // Audit: Alpha's dockmaster did something yesterday (active without a sign-in); the former
    // dockmaster acted only while impersonated; the super admin's entry about Alpha is no member's.
    const entry = (orgId: string, actorId: string, createdAt: Date, impersonatorId: string | null = null) => ({
      orgId,
      actorId,
      action: 'booking.approved',
      resourceType: 'booking',
      createdAt,
      impersonatorId,
    });
    await db.insert(auditLog).values([
      entry(alpha.id, dock.id, ago(DAY)),
      entry(alpha.id, dock2.id, ago(DAY), superUser.id),
      entry(alpha.id, superUser.id, ago(DAY)),
      entry(alpha.id, alphaAdmin.id, ago(DAY)),
    ]);

    // Counted calls: Alpha 5 API calls on the 7-day window's first day and 7 the day before, 3
    // webhook calls today; Bravo 2 API calls today.
    await db.insert(usageCounters).values([
      { orgId: alpha.id, day: '2026-11-17', kind: 'api_call', count: 5 },
      { orgId: alpha.id, day: '2026-11-16', kind: 'api_call', count: 7 },
      { orgId: alpha.id, day: '2026-11-23', kind: 'webhook_call', count: 3 },
      { orgId: bravo.id, day: '2026-11-23', kind: 'api_call', count: 2 },
    ]);

    superSession = await signIn(t.app, 'super@platform.example');
    supportSession = await signIn(t.app, 'support@platform.example');
  });
  afterAll(() => t.close());

  describe('permissions and bad input', () => {
    it('answers 401 signed out and 403 to organization members, on both routes; platform support reads', async () => {
      // A session opened long ago: a sign-in now would change the figures below.
      const member = await oldSession('admin@bravo.example');
      for (const url of ['/api/platform/usage', '/api/platform/usage.csv', '/api/platform/usage?days=abc']) {
        expect((await get(url)).statusCode, url).toBe(401);
        const refused = await t.app.inject({ method: 'GET', url, headers: member });
        expect(refused.statusCode, url).toBe(403);
        expect(refused.json().error.message).toBe('Platform administrator access required');
        expect((await get(url.replace('abc', '7'), supportSession)).statusCode, url).toBe(200);
      }
    });

    it('refuses another period with a clear message, and an unknown or malformed organization with 404', async () => {
      for (const days of ['14', 'abc', '0', '-7']) {
        for (const path of ['usage', 'usage.csv']) {
          const res = await get(`/api/platform/${path}?days=${days}`, superSession);
          expect(res.statusCode, `${path} ${days}`).toBe(400);
          expect(res.json().error.message).toBe('The period must be 7, 30 or 90 days');
        }
      }
      for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000', "1' or '1'='1"]) {
        for (const path of ['usage', 'usage.csv']) {
          const res = await get(`/api/platform/${path}?orgId=${encodeURIComponent(id)}`, superSession);
          expect(res.statusCode, `${path} ${id}`).toBe(404);
          expect(res.json().error.message).toBe('Organization not found');
        }
      }
      for (const bad of ['sort=price', 'order=up', 'page=0', 'pageSize=101']) {
        expect((await get(`/api/platform/usage?${bad}`, superSession)).statusCode, bad).toBe(400);
      }
    });
  });

  describe('figures', () => {
    it('counts each figure per organization over 7 days, with the window edges', async () => {
      const body = await usage('days=7');
      expect(body).toMatchObject({ days: 7, from: FROM_7.toISOString(), to: NOW.toISOString(), generatedAt: NOW.toISOString() });
      expect(row(body, alpha)).toEqual({
        orgId: alpha.id,
        name: 'Alpha Freight',
        slug: 'alpha-freight',
        status: 'active',
        planName: 'Small',
        // At the edge, now, yesterday (carrier API); not 1 ms before the edge, nor 1 ms after now.
        bookingsCreated: 3,
        bookingsBySource: { portal: 1, admin: 0, gate: 1, carrier_api: 1, other: 0 },
        // The admin (sign-ins, audit), the member of both (sign-in), the dockmaster (audit).
        activeUsers: 3,
        // The admin's two and the member of both; not the impersonation.
        signIns: 3,
        documentsStored: 2,
        documentBytesStored: 3048,
        documentsAdded: 1,
        documentBytesAdded: 2048,
        apiCalls: 5,
        webhookCalls: 3,
      });
      expect(row(body, bravo)).toMatchObject({
        bookingsCreated: 1,
        bookingsBySource: { portal: 1 },
        activeUsers: 1, // the member of both; Bravo's admin signed in 1 ms before the edge
        signIns: 1,
        documentsStored: 0,
        apiCalls: 2,
        webhookCalls: 0,
      });
      expect(row(body, charlie)).toMatchObject({ bookingsCreated: 0, activeUsers: 0, signIns: 0, planName: null });
      expect(body.totals).toEqual({
        bookingsCreated: 4,
        bookingsBySource: { portal: 2, admin: 0, gate: 1, carrier_api: 1, other: 0 },
        activeUsers: 3, // each person once: the member of both counts once
        signIns: 3, // each session once
        documentsStored: 2,
        documentBytesStored: 3048,
        documentsAdded: 1,
        documentBytesAdded: 2048,
        apiCalls: 7,
        webhookCalls: 3,
      });
    });

    it('widens to 30 and 90 days', async () => {
      const month = await usage('days=30');
      expect(month.from).toBe(FROM_30.toISOString());
      // + the admin booking before the 7-day edge, the demo one (other), the portal one at the 30-day edge.
      expect(row(month, alpha)).toMatchObject({
        bookingsCreated: 6,
        bookingsBySource: { portal: 2, admin: 1, gate: 1, carrier_api: 1, other: 1 },
        signIns: 3,
        documentsAdded: 1,
        apiCalls: 12,
      });
      expect(row(month, bravo)).toMatchObject({ signIns: 2, activeUsers: 2 });
      expect(month.totals).toMatchObject({ bookingsCreated: 7, signIns: 4, activeUsers: 4, apiCalls: 14 });

      const quarter = await usage('days=90');
      expect(quarter.from).toBe('2026-08-26T00:00:00.000Z');
      expect(row(quarter, alpha)).toMatchObject({ bookingsCreated: 7, documentsAdded: 2, documentBytesAdded: 3048 });
      // The default is 30 days.
      expect((await usage()).days).toBe(30);
    });

    it('gives one row per UTC day for the charts', async () => {
      const body = await usage('days=7');
      expect(body.daily.map((d: { date: string }) => d.date)).toEqual(['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23']);
      const day = (date: string) => body.daily.find((d: { date: string }) => d.date === date);
      expect(day('2026-11-17')).toEqual({ date: '2026-11-17', bookingsCreated: 1, bookingsBySource: { portal: 1, admin: 0, gate: 0, carrier_api: 0, other: 0 }, signIns: 0, apiCalls: 5, webhookCalls: 0 });
      expect(day('2026-11-20')).toMatchObject({ bookingsCreated: 1, signIns: 1 }); // Bravo's booking; Alpha's admin signed in by e-mail
      expect(day('2026-11-21')).toMatchObject({ signIns: 1 }); // the member of both, counted once
      expect(day('2026-11-23')).toMatchObject({ bookingsCreated: 1, bookingsBySource: { gate: 1 }, signIns: 1, apiCalls: 2, webhookCalls: 3 });
      const sum = (key: 'bookingsCreated' | 'signIns' | 'apiCalls' | 'webhookCalls') => body.daily.reduce((n: number, d: Record<string, number>) => n + d[key]!, 0);
      expect([sum('bookingsCreated'), sum('signIns'), sum('apiCalls'), sum('webhookCalls')]).toEqual([4, 3, 7, 3]);
    });

    it('answers one organization alone: the same figures, its days and its plan standing', async () => {
      const body = await usage(`days=7&orgId=${alpha.id}`);
      const all = await usage('days=7');
      expect(body.organizations).toEqual({ total: 1, items: [row(all, alpha)] });
      const { orgId: _id, name: _n, slug: _s, status: _st, planName: _p, ...figures } = row(all, alpha) as unknown as Record<string, unknown>;
      expect(body.totals).toEqual(figures);
      expect(body.daily.find((d: { date: string }) => d.date === '2026-11-23')).toMatchObject({ apiCalls: 0, webhookCalls: 3 });
      expect(body.nearestLimits.map((l: { orgId: string }) => l.orgId)).toEqual([alpha.id]);
    });

    it('lists the organizations nearest their plan limits, as percentages', async () => {
      const body = await usage('days=7');
      // Both reach 100 % (ties by name); Delta's plan sets no limit and Charlie has no plan: not listed.
      expect(body.nearestLimits).toEqual([
        {
          orgId: alpha.id,
          name: 'Alpha Freight',
          status: 'active',
          planName: 'Small',
          highestPercent: 100,
          limits: [
            { kind: 'sites', used: 1, limit: 2, percent: 50 },
            { kind: 'bays', used: 3, limit: 4, percent: 75 },
            { kind: 'users', used: 3, limit: 10, percent: 30 },
            // Created this calendar month up to now: the three of the 7 days, the admin one and the demo one.
            { kind: 'bookings', used: 5, limit: 5, percent: 100 },
          ],
        },
        {
          orgId: bravo.id,
          name: 'Bravo Cold Chain',
          status: 'active',
          planName: 'Tiny',
          highestPercent: 100,
          limits: [
            { kind: 'sites', used: 1, limit: 1, percent: 100 },
            { kind: 'bays', used: 1, limit: null, percent: null },
            { kind: 'users', used: 2, limit: null, percent: null },
            { kind: 'bookings', used: 1, limit: null, percent: null },
          ],
        },
      ]);
    });

    it('sorts, searches and pages the table of organizations', async () => {
      const names = async (query: string) => (await usage(query)).organizations.items.map((o: { name: string }) => o.name);
      expect(await names('days=7&sort=bookingsCreated&order=desc&pageSize=2')).toEqual(['Alpha Freight', 'Bravo Cold Chain']);
      expect(await names('days=7&sort=name&order=asc')).toEqual(['=HYPERLINK("http://x.example","Evil, Inc")', 'Alpha Freight', 'Bravo Cold Chain', 'Charlie Docks', 'Delta Unlimited']);
      expect(await names('days=7&sort=name&order=asc&pageSize=2&page=3')).toEqual(['Delta Unlimited']);
      expect(await names('days=7&sort=signIns&order=asc&pageSize=3')).toEqual(['=HYPERLINK("http://x.example","Evil, Inc")', 'Charlie Docks', 'Delta Unlimited']);
      expect(await names('days=7&q=bravo')).toEqual(['Bravo Cold Chain']);
      expect(await names('days=7&q=DOCKS')).toEqual(['Charlie Docks']);
      const page = await usage('days=7&pageSize=2&page=9');
      expect(page.organizations).toEqual({ total: 5, items: [] });
      // The totals do not depend on the search or the page.
      expect((await usage('days=7&q=charlie')).totals.bookingsCreated).toBe(4);
    });
  });

  describe('CSV', () => {
    it('has one line per organization by name, then the total; formulas are neutralised', async () => {
      const res = await get('/api/platform/usage.csv?days=7', superSession);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="baywise-usage-7-days-2026-11-23.csv"');
      expect(res.body.startsWith(CSV_BOM)).toBe(true);
      const lines = res.body.slice(1).split('\r\n');
      expect(lines.at(-1)).toBe('');
      expect(lines[0]).toBe(
        'Organization,Slug,Status,Plan,Bookings created,Bookings: Portal,Bookings: Admin,Bookings: Gate (walk-in),Bookings: Carrier API,Bookings: Other,Active users,Sign-ins,Documents stored,Document bytes stored,Documents added,Document bytes added,API calls,Webhook calls',
      );
      expect(lines.slice(1, -1)).toEqual([
        `"'=HYPERLINK(""http://x.example"",""Evil, Inc"")",evil-inc,active,,0,0,0,0,0,0,0,0,0,0,0,0,0,0`,
        'Alpha Freight,alpha-freight,active,Small,3,1,0,1,1,0,3,3,2,3048,1,2048,5,3',
        'Bravo Cold Chain,bravo-cold-chain,active,Tiny,1,1,0,0,0,0,1,1,0,0,0,0,2,0',
        'Charlie Docks,charlie-docks,active,,0,0,0,0,0,0,0,0,0,0,0,0,0,0',
        'Delta Unlimited,delta-unlimited,active,Unlimited,0,0,0,0,0,0,0,0,0,0,0,0,0,0',
        'All organizations,,,,4,2,0,1,1,0,3,3,2,3048,1,2048,7,3',
      ]);
      const one = await get(`/api/platform/usage.csv?days=30&orgId=${bravo.id}`, superSession);
      expect(one.body.slice(1).split('\r\n').slice(1, -1)).toEqual(['Bravo Cold Chain,bravo-cold-chain,active,Tiny,1,1,0,0,0,0,2,2,0,0,0,0,2,0']);
    });
  });

  describe('recorded calls', () => {
    const countOf = async (orgId: string, kind: string) =>
      Number(
        (await t.ctx.database.query<{ n: number }>(`select coalesce(sum(count), 0)::int as n from usage_counters where org_id = $1 and day = '2026-11-23' and kind = $2`, [orgId, kind]))[0]!.n,
      );

    it("counts each admitted organization and site request, and each accepted camera read, into today's counters", async () => {
      const admin = await signIn(t.app, 'admin@alpha.example', undefined, alpha.id);
      const stranger = await signIn(t.app, 'admin@bravo.example');
      const { secret, hash, hint } = newCameraSecret();
      await t.ctx.database.db.insert(siteCameraTokens).values({ orgId: alpha.id, siteId: alphaSite.id, name: 'Gate cam', tokenHash: hash, tokenHint: hint });
      await t.app.usage.flush();
      const before = { api: await countOf(alpha.id, 'api_call'), webhook: await countOf(alpha.id, 'webhook_call'), bravo: await countOf(bravo.id, 'api_call') };

      // Three admitted requests: two to the organization's routes (one a 400), one to its site's gate.
      expect((await get(`/api/orgs/${alpha.id}/dashboard`, admin)).statusCode).toBe(200);
      expect((await get(`/api/orgs/${alpha.id}/reports/volume?from=bad`, admin)).statusCode).toBe(400);
      expect((await get(`/api/sites/${alphaSite.id}/gate/queue`, admin)).statusCode).toBe(200);
      // Refused ones count nothing: another organization's member, no session, an unknown site.
      expect((await get(`/api/orgs/${alpha.id}/dashboard`, stranger)).statusCode).toBe(404);
      expect((await get(`/api/orgs/${alpha.id}/dashboard`)).statusCode).toBe(401);
      expect((await get(`/api/sites/00000000-0000-4000-8000-000000000000/gate/queue`, admin)).statusCode).toBe(404);
      // Two camera reads, one refused (bad token).
      const read = (token: string) =>
        t.app.inject({ method: 'POST', url: `/api/anpr/${alphaSite.id}/reads`, headers: { authorization: `Bearer ${token}` }, payload: { plate: 'XYZ987' } });
      expect((await read(secret)).statusCode).toBe(200);
      expect((await read(secret)).statusCode).toBe(200);
      expect((await read('bwcam_wrong-token-wrong-token-wrong')).statusCode).toBe(401);

      // Nothing is written per request: the counts wait in memory until the flush.
      expect(await countOf(alpha.id, 'api_call')).toBe(before.api);
      await t.app.usage.flush();
      expect(await countOf(alpha.id, 'api_call')).toBe(before.api + 3);
      expect(await countOf(alpha.id, 'webhook_call')).toBe(before.webhook + 2);
      expect(await countOf(bravo.id, 'api_call')).toBe(before.bravo);
      // A second flush with nothing new changes nothing; the usage figures read the counters.
      await t.app.usage.flush();
      expect(await countOf(alpha.id, 'api_call')).toBe(before.api + 3);
      expect(row(await usage(`days=7&orgId=${alpha.id}`), alpha)).toMatchObject({ apiCalls: 5 + before.api + 3, webhookCalls: before.webhook + 2 });
    });
  });
});
