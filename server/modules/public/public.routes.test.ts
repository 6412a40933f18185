import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDataIfEmpty } from '../../db/seed';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { localDayBounds } from './public.service';
import { recordHeartbeat } from './uptime';

// 11:00 on a Monday in Sydney.
const NOW = '2026-11-23T00:00:00Z';

describe('public service rules', () => {
  it('finds the local day of a site', () => {
    // 00:30 UTC on the 23rd is 11:30 on the 23rd in Sydney (UTC+11 in summer).
    expect(localDayBounds(new Date('2026-11-23T00:30:00Z'), 'Australia/Sydney')).toEqual({
      start: new Date('2026-11-22T13:00:00Z'),
      end: new Date('2026-11-23T13:00:00Z'),
    });
    // 15:00 UTC on the 23rd is already the 24th in Brisbane (UTC+10, no daylight saving).
    expect(localDayBounds(new Date('2026-11-23T15:00:00Z'), 'Australia/Brisbane')).toEqual({
      start: new Date('2026-11-23T14:00:00Z'),
      end: new Date('2026-11-24T14:00:00Z'),
    });
  });
});

describe.each(databaseKinds)('public API on %s', (kind) => {
  let t: TestApp;
  let ids: { acme: string; harbour: string; north: string; harbourDc: string; suspendedSite: string; inactiveOrgSite: string; inactiveSite: string };

  const get = async (url: string, remoteAddress?: string) => {
    const response = await t.app.inject({ method: 'GET', url, remoteAddress });
    return { status: response.statusCode, body: response.json() };
  };
  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await seedDemoDataIfEmpty(t.ctx);
    const [{ id: enterprise }] = await query<{ id: string }>(`select id from plans where name = 'Enterprise'`);
    // A suspended organization and an inactive one, each with a site, a bay and a paid-up plan.
    for (const [name, slug, status, active] of [
      ['Zephyr Freight', 'zephyr', 'suspended', true],
      ['Aardvark Storage', 'aardvark', 'active', false],
    ] as const) {
      const [org] = await query<{ id: string }>(
        `insert into organizations (name, slug, status, active) values ($1, $2, $3, $4) returning id`,
        [name, slug, status, active],
      );
      const [site] = await query<{ id: string }>(
        `insert into sites (org_id, name, time_zone) values ($1, $2, 'Australia/Sydney') returning id`,
        [org.id, `${name} Depot`],
      );
      await query(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, 'Z-01', 4.5)`, [org.id, site.id]);
      await query(`insert into billing (org_id, plan_id, status) values ($1, $2, 'active')`, [org.id, enterprise]);
    }
    const [acme] = await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`);
    const [inactive] = await query<{ id: string }>(
      `insert into sites (org_id, name, active) values ($1, 'West Annex', false) returning id`,
      [acme.id],
    );
    await query(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, 'W-01', 4.5)`, [acme.id, inactive.id]);
    const site = async (name: string) => (await query<{ id: string }>(`select id from sites where name = $1`, [name]))[0].id;
    ids = {
      acme: acme.id,
      harbour: (await query<{ id: string }>(`select id from organizations where slug = 'harbour-foods'`))[0].id,
      north: await site('North Terminal'),
      harbourDc: await site('Harbour DC'),
      suspendedSite: await site('Zephyr Freight Depot'),
      inactiveOrgSite: await site('Aardvark Storage Depot'),
      inactiveSite: inactive.id,
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists only active organizations, by name', async () => {
    const { status, body } = await get('/api/public/organizations');
    expect(status).toBe(200);
    expect(body).toEqual([
      { id: ids.acme, name: 'Acme Logistics' },
      { id: ids.harbour, name: 'Harbour Foods' },
    ]);
  });

  it('lists only active sites of active organizations, by organization then site', async () => {
    const { status, body } = await get('/api/public/sites');
    expect(status).toBe(200);
    expect(body.map((s: { orgName: string; name: string }) => `${s.orgName} / ${s.name}`)).toEqual([
      'Acme Logistics / North Terminal',
      'Acme Logistics / South Terminal',
      'Harbour Foods / Harbour DC',
    ]);
    expect(body[0]).toEqual({
      id: ids.north,
      name: 'North Terminal',
      orgId: ids.acme,
      orgName: 'Acme Logistics',
      emergencyContacts: [
        { label: 'Security', extension: '2222' },
        { label: 'First aid', extension: '3333' },
        { label: 'Site manager', extension: '4444' },
      ],
    });
  });

  it("tells a driver whether the site is open and its hours today, in the site's time zone, and nothing more", async () => {
    const { status, body } = await get(`/api/public/sites/${ids.north}/status`);
    expect(status).toBe(200);
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Australia/Sydney', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(NOW));
    expect(body).toEqual({
      siteName: 'North Terminal',
      timeZone: 'Australia/Sydney',
      localTime: local,
      hoursToday: [{ open: '06:00', close: '22:00' }],
      isOpenNow: local >= '06:00' && local < '22:00',
    });
  });

  it('answers 404 for unknown, inactive or hidden sites', async () => {
    for (const siteId of [ids.suspendedSite, ids.inactiveOrgSite, ids.inactiveSite, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const { status, body } = await get(`/api/public/sites/${siteId}/status`);
      expect(status, siteId).toBe(404);
      expect(body.error).toMatchObject({ code: 'not_found', message: 'Site not found' });
    }
  });

  it('gives only harmless platform figures: organizations, users and the measured uptime', async () => {
    expect((await get('/api/public/platform-stats')).body).toEqual({ organizations: 2, users: 6, uptimePercent: null });
    // Up for three minutes, down for one, up again: 4 of 5 minutes.
    for (const step of [0, 60_000, 60_000, 120_000]) {
      t.clock.advance(step);
      await recordHeartbeat(t.ctx);
      await recordHeartbeat(t.ctx); // a second node in the same minute counts once
    }
    const { status, body } = await get('/api/public/platform-stats');
    expect(status).toBe(200);
    expect(body).toEqual({ organizations: 2, users: 6, uptimePercent: 80 });
    t.clock.set(NOW);
  });

  it('shows no booking figures to anyone signed out: no overview, and none of the public answers carries one', async () => {
    // The demo data has bookings today, pending requests and vehicles on site: there would be figures to leak.
    const [live] = await query<{ pending: number; onSite: number }>(
      `select count(*) filter (where status = 'pending')::int as pending,
              count(*) filter (where status in ('checked_in', 'in_progress', 'overstay'))::int as "onSite" from bookings`,
    );
    expect(live!.pending).toBeGreaterThan(0);
    expect(live!.onSite).toBeGreaterThan(0);

    const overview = await get('/api/public/overview');
    expect(overview.status).toBe(404);
    expect(JSON.stringify(overview.body)).not.toMatch(/bookingsToday|pendingRequests|checkedInNow/);
    const openApi = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(openApi.paths)).not.toContain('/api/public/overview');
    const publicReads = Object.entries(openApi.paths)
      .filter(([path, operations]) => path.startsWith('/api/public/') && !path.includes('{') && 'get' in operations)
      .map(([path]) => path);
    expect(publicReads.length).toBeGreaterThan(3);
    for (const path of [...publicReads, `/api/public/sites/${ids.north}/status`]) {
      const { body } = await get(path);
      expect(JSON.stringify(body), path).not.toMatch(/bookingsToday|pendingRequests|checkedInNow/i);
    }
  });

  it('stores a quote request and audits it', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/public/quote-requests',
      remoteAddress: '10.0.0.1',
      payload: { name: '  Jo Citizen ', company: 'Citizen Freight', email: 'jo@citizen.test', phone: '', sites: 3, message: 'Two depots' },
    });
    expect(response.statusCode).toBe(201);
    const { id } = response.json();
    const [row] = await query(`select name, company, email, phone, sites, message, status from quote_requests where id = $1`, [id]);
    expect(row).toEqual({
      name: 'Jo Citizen',
      company: 'Citizen Freight',
      email: 'jo@citizen.test',
      phone: null,
      sites: 3,
      message: 'Two depots',
      status: 'new',
    });
    const [audit] = await query(
      `select action, resource_type, resource_id, actor_id, ip, details from audit_log where resource_id = $1`,
      [id],
    );
    expect(audit).toMatchObject({
      action: 'quote.requested',
      resource_type: 'quote_request',
      actor_id: null,
      ip: '10.0.0.1',
      details: { company: 'Citizen Freight', email: 'jo@citizen.test' },
    });
  });

  it('rejects an invalid quote request with every message and stores nothing', async () => {
    const [{ n: before }] = await query<{ n: number }>(`select count(*)::int as n from quote_requests`);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/public/quote-requests',
      remoteAddress: '10.0.0.2',
      payload: { name: ' ', company: '', email: 'not an email', sites: 0 },
    });
    expect(response.statusCode).toBe(400);
    const { message } = response.json().error;
    for (const text of ['Name is required', 'Company is required', 'Please enter a valid email address', 'Number of sites must be at least 1']) {
      expect(message).toContain(text);
    }
    const [{ n: after }] = await query<{ n: number }>(`select count(*)::int as n from quote_requests`);
    expect(after).toBe(before);
  });

  it('limits quote requests to 5 a minute per address', async () => {
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/public/quote-requests',
        remoteAddress: '10.0.0.3',
        payload: { name: 'Rapid', company: 'Rapid Co', email: 'rapid@rapid.test' },
      });
    for (let i = 0; i < 5; i++) expect((await send()).statusCode).toBe(201);
    expect((await send()).statusCode).toBe(429);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/public/quote-requests',
      remoteAddress: '10.0.0.4',
      payload: { name: 'Calm', company: 'Calm Co', email: 'calm@calm.test' },
    });
    expect(other.statusCode).toBe(201);
  });
});
