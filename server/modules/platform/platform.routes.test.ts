import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../domain/auth-schemas';
import { QUOTE_ALREADY_CONTACTED, QUOTE_ALREADY_CONVERTED, SLUG_TAKEN, SUPPORT_CANNOT_CREATE } from '../../../domain/platform-admin';
import { quoteRequests } from '../../db/schema';
import { addMember, bearer, createOrg, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

// The quote-request inbox: the landing page's requests, newest first by status; marking one
// contacted; converting one into an organization (made and marked in one transaction).

const NOW = new Date('2026-11-23T09:00:00Z');
const MINUTE = 60_000;

describe.each(databaseKinds)('quote requests on %s', (kind) => {
  let t: TestApp;
  let ownerSession: Session;
  let supportSession: Session;
  let adminSession: Session;
  const ids: Record<string, string> = {};

  const get = (url: string, session?: Session) => t.app.inject({ method: 'GET', url, headers: session ? bearer(session) : {} });
  const post = (url: string, session: Session | undefined, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: session ? bearer(session) : {}, ...(payload ? { payload } : {}) });
  const quoteRow = async (id: string) =>
    (await t.ctx.database.query<{ status: string; converted_org_id: string | null; contacted_at: Date | null; handled_by: string | null }>(
      `select status, converted_org_id, contacted_at, handled_by from quote_requests where id = $1`,
      [id],
    ))[0]!;
  const orgCount = async () => Number((await t.ctx.database.query<{ n: number }>(`select count(*)::int as n from organizations`))[0]!.n);
  const convertForm = (overrides: Record<string, unknown> = {}) => ({ name: 'Depot Co', contactEmail: 'sam@depot.example', adminEmail: 'sam@depot.example', adminName: 'Sam Lee', ...overrides });

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await createUser(t.ctx.database, { email: 'owner@platform.example', platformRole: 'platform_owner' });
    await createUser(t.ctx.database, { email: 'support@platform.example', platformRole: 'platform_support' });
    const org = await createOrg(t.ctx.database, { name: 'Taken Name', slug: 'taken-name' });
    const admin = await createUser(t.ctx.database, { email: 'admin@org.example' });
    await addMember(t.ctx.database, org.id, admin.id, 'org_admin');
    // Four requests a minute apart: Depot Co is the newest.
    const made = await t.ctx.database.db
      .insert(quoteRequests)
      .values([
        { name: 'Ann Old', company: 'Old Yard', email: 'ann@old.example', createdAt: new Date(NOW.getTime() - 4 * MINUTE) },
        { name: 'Ted Taken', company: 'Taken Name', email: 'ted@taken.example', createdAt: new Date(NOW.getTime() - 3 * MINUTE) },
        { name: 'Kim Keep', company: 'Keep Logistics', email: 'kim@keep.example', phone: '+61 400 000 000', sites: 2, createdAt: new Date(NOW.getTime() - 2 * MINUTE) },
      ])
      .returning({ id: quoteRequests.id, company: quoteRequests.company });
    for (const q of made) ids[q.company] = q.id;
    ownerSession = await signIn(t.app, 'owner@platform.example');
    supportSession = await signIn(t.app, 'support@platform.example');
    adminSession = await signIn(t.app, 'admin@org.example');
  });
  afterAll(() => t.close());

  it('stores a landing-page request, listed newest first with the count of each status', async () => {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/public/quote-requests',
      payload: { name: 'Sam Lee', company: 'Depot Co', email: 'sam@depot.example', sites: 3, message: 'Two warehouses' },
    });
    expect(sent.statusCode).toBe(201);
    const list = await get('/api/platform/quote-requests', supportSession);
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(body).toMatchObject({ total: 4, counts: { new: 4, contacted: 0, converted: 0 } });
    expect(body.items.map((q: { company: string }) => q.company)).toEqual(['Depot Co', 'Keep Logistics', 'Taken Name', 'Old Yard']);
    expect(body.items[0]).toMatchObject({ email: 'sam@depot.example', sites: 3, message: 'Two warehouses', status: 'new', contactedAt: null, convertedOrg: null, handledByEmail: null });
    ids['Depot Co'] = body.items[0].id;
    const page2 = (await get('/api/platform/quote-requests?pageSize=3&page=2', ownerSession)).json();
    expect(page2.items.map((q: { company: string }) => q.company)).toEqual(['Old Yard']);
    expect(page2.total).toBe(4);
    for (const bad of ['status=open', 'page=0', 'pageSize=101']) {
      expect((await get(`/api/platform/quote-requests?${bad}`, ownerSession)).statusCode, bad).toBe(400);
    }
  });

  it('answers 401 signed out and 403 to organization members on every route; platform support reads but changes nothing', async () => {
    const id = ids['Keep Logistics']!;
    const routes: [string, string][] = [
      ['GET', '/api/platform/quote-requests'],
      ['GET', `/api/platform/quote-requests/${id}`],
      ['POST', `/api/platform/quote-requests/${id}/contacted`],
      ['POST', `/api/platform/quote-requests/${id}/convert`],
    ];
    for (const [method, url] of routes) {
      const call = (session?: Session) => (method === 'GET' ? get(url, session) : post(url, session, {}));
      expect((await call()).statusCode, url).toBe(401);
      const refused = await call(adminSession);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().error.message).toBe('Platform administrator access required');
    }
    expect((await get(`/api/platform/quote-requests/${id}`, supportSession)).statusCode).toBe(200);
    const contacted = await post(`/api/platform/quote-requests/${id}/contacted`, supportSession);
    expect(contacted.statusCode).toBe(403);
    expect(contacted.json().error.message).toBe(SUPPORT_CANNOT_CREATE);
    expect((await post(`/api/platform/quote-requests/${id}/convert`, supportSession, convertForm({ name: 'Keep Logistics' }))).statusCode).toBe(403);
    expect((await quoteRow(id)).status).toBe('new');
  });

  it('answers 404 for an unknown or malformed id, changing nothing', async () => {
    const before = await orgCount();
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000', "1' or '1'='1"]) {
      const url = `/api/platform/quote-requests/${encodeURIComponent(id)}`;
      expect((await get(url, ownerSession)).statusCode, id).toBe(404);
      expect((await post(`${url}/contacted`, ownerSession)).statusCode, id).toBe(404);
      const convert = await post(`${url}/convert`, ownerSession, convertForm({ name: 'Ghost Co', adminEmail: 'ghost@ghost.example' }));
      expect(convert.statusCode, id).toBe(404);
      expect(convert.json().error.message).toBe('Quote request not found');
    }
    expect(await orgCount()).toBe(before);
  });

  it('marks a new request contacted, once, audited', async () => {
    const id = ids['Keep Logistics']!;
    const res = await post(`/api/platform/quote-requests/${id}/contacted`, ownerSession);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'contacted', contactedAt: NOW.toISOString(), handledByEmail: 'owner@platform.example', convertedOrg: null });
    const again = await post(`/api/platform/quote-requests/${id}/contacted`, ownerSession);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(QUOTE_ALREADY_CONTACTED);
    const audit = await t.ctx.database.query<{ actor_email: string; resource_id: string; details: Record<string, unknown> }>(
      `select actor_email, resource_id, details from audit_log where action = 'quote.contacted'`,
    );
    expect(audit).toEqual([{ actor_email: 'owner@platform.example', resource_id: id, details: { company: 'Keep Logistics', email: 'kim@keep.example', previousStatus: 'new' } }]);
    const list = (await get('/api/platform/quote-requests?status=contacted', ownerSession)).json();
    expect(list).toMatchObject({ total: 1, counts: { new: 3, contacted: 1, converted: 0 }, items: [{ id }] });
  });

  it('converts a request into an organization and marks it converted with its id, in one transaction', async () => {
    const id = ids['Keep Logistics']!;
    const res = await post(`/api/platform/quote-requests/${id}/convert`, ownerSession, convertForm({ name: 'Keep Logistics', contactEmail: 'kim@keep.example', adminEmail: 'kim@keep.example', adminName: 'Kim Keep' }));
    expect(res.statusCode, res.body).toBe(201);
    const { organization, invitation, quote } = res.json();
    expect(organization).toMatchObject({ name: 'Keep Logistics', slug: 'keep-logistics', status: 'active' });
    expect(invitation.email).toBe('kim@keep.example');
    expect(quote).toMatchObject({ id, status: 'converted', convertedOrg: { id: organization.id, name: 'Keep Logistics' }, handledByEmail: 'owner@platform.example' });
    expect(await quoteRow(id)).toMatchObject({ status: 'converted', converted_org_id: organization.id });
    const audit = await t.ctx.database.query<{ action: string; org_id: string; resource_id: string }>(
      `select action, org_id, resource_id from audit_log where action in ('organization.created', 'quote.converted') order by action`,
    );
    expect(audit).toEqual([
      { action: 'organization.created', org_id: organization.id, resource_id: organization.id },
      { action: 'quote.converted', org_id: organization.id, resource_id: id },
    ]);
    const mail = (await t.outbox()).find((m) => m.subject === "You're invited to join Keep Logistics on Baywise");
    expect(mail).toBeDefined();

    // Converted once: a second conversion (or marking it contacted) is refused and makes nothing.
    const before = await orgCount();
    const again = await post(`/api/platform/quote-requests/${id}/convert`, ownerSession, convertForm({ name: 'Keep Logistics Two' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(QUOTE_ALREADY_CONVERTED);
    expect((await post(`/api/platform/quote-requests/${id}/contacted`, ownerSession)).statusCode).toBe(409);
    expect(await orgCount()).toBe(before);
  });

  it('leaves the request as it was when the organization cannot be made (a slug in use)', async () => {
    const id = ids['Taken Name']!;
    const before = await orgCount();
    const res = await post(`/api/platform/quote-requests/${id}/convert`, ownerSession, convertForm({ name: 'Taken Name', adminEmail: 'ted@taken.example', adminName: 'Ted Taken' }));
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'slug_taken', message: SLUG_TAKEN });
    expect(await quoteRow(id)).toEqual({ status: 'new', converted_org_id: null, contacted_at: null, handled_by: null });
    expect(await orgCount()).toBe(before);
    // With another slug it converts.
    const ok = await post(`/api/platform/quote-requests/${id}/convert`, ownerSession, convertForm({ name: 'Taken Name', slug: 'taken-name-2', adminEmail: 'ted@taken.example', adminName: 'Ted Taken' }));
    expect(ok.statusCode).toBe(201);
    expect((await get('/api/platform/quote-requests', ownerSession)).json().counts).toEqual({ new: 2, contacted: 0, converted: 2 });
  });
});
