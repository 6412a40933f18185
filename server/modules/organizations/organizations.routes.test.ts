import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPERATING_HOURS } from '../../../domain/constants';
import { seedDemoDataIfEmpty } from '../../db/seed';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { signAccessToken } from '../../auth/tokens';

const NOW = '2026-11-23T00:00:00Z';

describe.each(databaseKinds)('organizations API on %s', (kind) => {
  let t: TestApp;
  let acmeId: string;
  let harbourId: string;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  /** A live session for the user, as the sign-in would create it, and its bearer header. */
  const signIn = async (email: string) => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [session] = await query<{ id: string }>(
      `insert into auth_sessions (user_id, expires_at) values ($1, $2::timestamptz + interval '1 day') returning id`,
      [user.id, NOW],
    );
    const { token } = await signAccessToken(t.ctx, { userId: user.id, sessionId: session.id, email });
    return { authorization: `Bearer ${token}` };
  };
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const response = await t.app.inject({ method: 'GET', url, headers });
    return { status: response.statusCode, body: response.json() };
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0].id;
    harbourId = (await query<{ id: string }>(`select id from organizations where slug = 'harbour-foods'`))[0].id;
    await query(`insert into sites (org_id, name, active) values ($1, 'West Annex', false)`, [acmeId]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 401 when signed out', async () => {
    for (const url of ['/api/me/organizations', `/api/orgs/${acmeId}/sites`]) {
      const { status, body } = await get(url);
      expect(status, url).toBe(401);
      expect(body.error.code).toBe('unauthorized');
    }
    expect((await get('/api/me/organizations', { authorization: 'Bearer not-a-token' })).status).toBe(401);
  });

  it("lists the caller's organizations with their role", async () => {
    expect((await get('/api/me/organizations', await signIn('admin@acme.test'))).body).toEqual([
      { id: acmeId, name: 'Acme Logistics', status: 'active', active: true, role: 'org_admin' },
    ]);
    expect((await get('/api/me/organizations', await signIn('dock@acme.test'))).body).toEqual([
      { id: acmeId, name: 'Acme Logistics', status: 'active', active: true, role: 'dockmaster' },
    ]);
    expect((await get('/api/me/organizations', await signIn('admin@harbour.test'))).body).toEqual([
      { id: harbourId, name: 'Harbour Foods', status: 'active', active: true, role: 'org_admin' },
    ]);
    // A platform admin without memberships has no organization to choose here.
    expect((await get('/api/me/organizations', await signIn('super@baywise.test'))).body).toEqual([]);
  });

  it('leaves out inactive memberships and inactive or suspended organizations, and orders by name', async () => {
    const headers = await signIn('admin@harbour.test');
    const [user] = await query<{ id: string }>(`select id from users where email = 'admin@harbour.test'`);
    // Memberships in Acme (inactive) and in three more organizations: active, suspended, inactive.
    await query(`insert into org_memberships (org_id, user_id, role, active) values ($1, $2, 'security', false)`, [acmeId, user.id]);
    for (const [name, status, active] of [
      ['Aardvark Storage', 'active', true],
      ['Bygone Transport', 'active', false],
      ['Closed Cargo', 'suspended', true],
    ] as const) {
      const [org] = await query<{ id: string }>(
        `insert into organizations (name, slug, status, active) values ($1, $2, $3, $4) returning id`,
        [name, name.toLowerCase().replace(' ', '-'), status, active],
      );
      await query(`insert into org_memberships (org_id, user_id, role) values ($1, $2, 'dockmaster')`, [org.id, user.id]);
    }
    const { body } = await get('/api/me/organizations', headers);
    // A suspended organization is closed to its members (decision 014): it is not offered.
    expect(body.map((o: { name: string; status: string; role: string }) => [o.name, o.status, o.role])).toEqual([
      ['Aardvark Storage', 'active', 'dockmaster'],
      ['Harbour Foods', 'active', 'org_admin'],
    ]);
    // An inactive membership gives no access to the organization's sites either.
    expect((await get(`/api/orgs/${acmeId}/sites`, headers)).status).toBe(404);
  });

  it("lists an organization's active sites with every column, by name", async () => {
    const { status, body } = await get(`/api/orgs/${acmeId}/sites`, await signIn('dock@acme.test'));
    expect(status).toBe(200);
    expect(body.map((s: { name: string }) => s.name)).toEqual(['North Terminal', 'South Terminal']);
    expect(body[0]).toEqual({
      id: expect.any(String),
      name: 'North Terminal',
      orgId: acmeId,
      active: true,
      timeZone: 'Australia/Sydney',
      address: expect.any(String),
      operatingHours: DEFAULT_OPERATING_HOURS,
      slotIntervalMin: 30,
      minAdvanceMin: 120,
      contactPhone: expect.any(String),
      contactEmail: expect.any(String),
      emergencyContacts: [
        { label: 'Security', extension: '2222' },
        { label: 'First aid', extension: '3333' },
        { label: 'Site manager', extension: '4444' },
      ],
    });
  });

  it("answers 404 for another tenant's sites, unknown organizations and bad ids", async () => {
    const harbourAdmin = await signIn('admin@harbour.test');
    const acmeSites = await get(`/api/orgs/${acmeId}/sites`, harbourAdmin);
    expect(acmeSites.status).toBe(404);
    expect(acmeSites.body.error).toMatchObject({ code: 'not_found', message: 'Organization not found' });
    expect(JSON.stringify(acmeSites.body)).not.toContain('North Terminal');
    const own = await get(`/api/orgs/${harbourId}/sites`, harbourAdmin);
    expect(own.body.map((s: { name: string }) => s.name)).toEqual(['Harbour DC']);
    const acmeAdmin = await signIn('admin@acme.test');
    expect((await get(`/api/orgs/${harbourId}/sites`, acmeAdmin)).status).toBe(404);
    expect((await get('/api/orgs/00000000-0000-4000-8000-000000000000/sites', acmeAdmin)).status).toBe(404);
    expect((await get('/api/orgs/not-a-uuid/sites', acmeAdmin)).status).toBe(404);
  });

  it('lets a platform admin read any organization’s sites', async () => {
    const { status, body } = await get(`/api/orgs/${harbourId}/sites`, await signIn('super@baywise.test'));
    expect(status).toBe(200);
    expect(body.map((s: { name: string }) => s.name)).toEqual(['Harbour DC']);
  });

  it('stops answering once the session is revoked', async () => {
    const headers = await signIn('admin@acme.test');
    expect((await get('/api/me/organizations', headers)).status).toBe(200);
    await query(`update auth_sessions set revoked_at = now()`);
    expect((await get('/api/me/organizations', headers)).status).toBe(401);
  });
});
