import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../domain/auth-schemas';
import { ALREADY_OPEN, ALREADY_RESOLVED, SUPPORT_CANNOT_TRIAGE, type ErrorGroup } from '../../../domain/error-monitoring';
import { CLIENT_ERROR_RATE_PER_MINUTE } from '../../../domain/error-monitoring-rules';
import { authPlugin } from '../../plugins/auth';
import { errorsPlugin } from '../../plugins/errors';
import { addMember, bearer, createOrg, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

// Error monitoring (issue 12): server failures captured by the error handler and browser reports
// grouped by fingerprint; the groups listed, filtered and paged; resolve, reopen and regressions.

const NOW = new Date('2026-11-23T09:00:00Z');
const MINUTE = 60_000;

/** A browser report as the web app sends it; `line` and `id` vary between occurrences of one fault. */
const report = (overrides: Record<string, unknown> = {}, line = 10, id = 17) => ({
  kind: 'error',
  name: 'TypeError',
  message: `Cannot read properties of undefined (reading 'bays') in booking ${id}`,
  stack: `TypeError: boom\n    at Qe (http://localhost:3000/assets/index-AbCd1234.js:1:${line})\n    at Xy (http://localhost:3000/assets/org-bays-page-ZZZZ9999.js:2:${line})`,
  url: `http://localhost:3000/org/bays?page=${id}`,
  ...overrides,
});

describe.each(databaseKinds)('error monitoring on %s', (kind) => {
  let t: TestApp;
  let boom: Awaited<ReturnType<typeof Fastify>>;
  let superSession: Session;
  let supportSession: Session;
  let orgAdminSession: Session;

  const call = (method: 'GET' | 'POST', url: string, session?: Session, payload?: unknown, remoteAddress?: string) =>
    t.app.inject({ method, url, headers: session ? bearer(session) : {}, ...(payload === undefined ? {} : { payload: payload as object }), remoteAddress });
  const postReport = (payload: unknown, options: { session?: Session; ip?: string } = {}) =>
    call('POST', '/api/client-errors', options.session, payload, options.ip ?? '192.0.2.10');
  const groups = async (query = '', session = superSession): Promise<{ total: number; items: ErrorGroup[]; canTriage: boolean }> => {
    const res = await call('GET', `/api/platform/errors${query}`, session);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const eventCount = async () => (await t.ctx.database.query<{ n: number }>(`select count(*)::int as n from error_events`))[0]!.n;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const database = t.ctx.database;
    await createUser(database, { email: 'super@platform.example', platformRole: 'super_admin' });
    await createUser(database, { email: 'support@platform.example', platformRole: 'platform_support' });
    const org = await createOrg(database, { name: 'Alpha Freight' });
    const admin = await createUser(database, { email: 'admin@alpha.example' });
    await addMember(database, org.id, admin.id, 'org_admin');
    superSession = await signIn(t.app, 'super@platform.example');
    supportSession = await signIn(t.app, 'support@platform.example');
    orgAdminSession = await signIn(t.app, 'admin@alpha.example');

    // A second app over the same database with a route that fails, as a bug would: the real error
    // handler and auth plugin capture it.
    boom = Fastify({ logger: false });
    boom.setValidatorCompiler(validatorCompiler);
    boom.setSerializerCompiler(serializerCompiler);
    await boom.register(errorsPlugin, { database, clock: t.clock });
    await boom.register(authPlugin, { ctx: t.ctx });
    boom.post('/api/orgs/:orgId/boom', async (request: { body: unknown; params: unknown }) => {
      const { orderId } = request.body as { orderId: number };
      throw new TypeError(`Order ${orderId} has no bay ${request.params && 'x'}`);
    });
    await boom.ready();
  });
  afterAll(async () => {
    await boom?.close();
    await t?.close();
  });

  it('refuses anyone without a platform role on every /api/platform/errors route', async () => {
    const fingerprint = '0'.repeat(32);
    const routes: Array<['GET' | 'POST', string]> = [
      ['GET', '/api/platform/errors'],
      ['GET', `/api/platform/errors/${fingerprint}`],
      ['POST', `/api/platform/errors/${fingerprint}/resolve`],
      ['POST', `/api/platform/errors/${fingerprint}/reopen`],
    ];
    for (const [method, url] of routes) {
      expect((await call(method, url)).statusCode, url).toBe(401);
      const refused = await call(method, `${url}${method === 'GET' ? '?status=bogus' : ''}`, orgAdminSession);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().error.message).toBe('Platform administrator access required');
    }
  });

  it('captures a server failure with its fingerprint and the request, never a credential', async () => {
    const fail = (orderId: number, password: string) =>
      boom.inject({
        method: 'POST',
        url: `/api/orgs/4f9c1a2e-8d3b-4c5a-9e7f-0a1b2c3d4e5f/boom?token=abc123&page=2`,
        headers: { ...bearer(superSession), cookie: 'sid=secret', 'user-agent': 'vitest' },
        payload: { orderId, password, contact: { name: 'Ada', apiKey: 'k-1' } },
      });
    const first = await fail(1001, 'hunter2');
    expect(first.statusCode).toBe(500);
    expect(first.json().error.message).toBe('Something went wrong on our side. Please try again.');
    t.clock.advance(1000);
    await fail(2002, 'letmein');

    const rows = await t.ctx.database.query<{ source: string; fingerprint: string; url: string; details: Record<string, unknown>; user_id: string | null; status_code: number }>(
      `select source, fingerprint, url, details, user_id, status_code from error_events order by created_at, id`,
    );
    expect(rows).toHaveLength(2);
    // Two order numbers, one fault.
    expect(rows[0]!.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect(rows[1]!.fingerprint).toBe(rows[0]!.fingerprint);
    expect(rows[0]).toMatchObject({ source: 'server', status_code: 500, url: '/api/orgs/4f9c1a2e-8d3b-4c5a-9e7f-0a1b2c3d4e5f/boom?token=[redacted]&page=2' });
    expect(rows[0]!.user_id).not.toBeNull();
    expect(rows[0]!.details).toEqual({
      name: 'TypeError',
      route: '/api/orgs/:orgId/boom',
      params: { orgId: '4f9c1a2e-8d3b-4c5a-9e7f-0a1b2c3d4e5f' },
      query: { token: '[redacted]', page: '2' },
      headers: { 'user-agent': 'vitest', 'content-type': 'application/json', 'content-length': expect.any(String) },
      body: { orderId: 1001, password: '[redacted]', contact: { name: 'Ada', apiKey: '[redacted]' } },
    });
    const everything = JSON.stringify(await t.ctx.database.query(`select * from error_events`));
    for (const secret of ['hunter2', 'letmein', 'abc123', 'sid=secret', 'k-1', superSession.access_token]) expect(everything).not.toContain(secret);

    const list = await groups();
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      source: 'server',
      name: 'TypeError',
      message: 'Order 2002 has no bay x',
      count: 2,
      firstSeen: NOW.toISOString(),
      lastSeen: new Date(NOW.getTime() + 1000).toISOString(),
      status: 'open',
      isRegression: false,
      sample: { method: 'POST', statusCode: 500, userEmail: 'super@platform.example', details: { route: '/api/orgs/:orgId/boom' } },
    });
    expect(list.items[0]!.sample.stack).toContain('error-monitoring.routes.test.ts');
  });

  it('stores a browser report (anonymous or signed in) and groups repeats of one fault', async () => {
    t.clock.advance(MINUTE);
    const anonymous = await postReport(report());
    expect(anonymous.statusCode).toBe(202);
    expect(anonymous.json()).toEqual({ stored: true });
    // Another line, another booking id, another address, a signed-in user: the same group.
    t.clock.advance(MINUTE);
    const signedIn = await postReport(report({}, 99, 4242), { session: orgAdminSession, ip: '192.0.2.11' });
    expect(signedIn.json()).toEqual({ stored: true });

    const browser = await groups('?source=browser');
    expect(browser.total).toBe(1);
    const [group] = browser.items;
    expect(group).toMatchObject({
      source: 'browser',
      name: 'TypeError',
      count: 2,
      firstSeen: new Date(NOW.getTime() + 1000 + MINUTE).toISOString(),
      lastSeen: new Date(NOW.getTime() + 1000 + 2 * MINUTE).toISOString(),
      status: 'open',
      sample: {
        url: '/org/bays?page=4242',
        method: null,
        statusCode: null,
        userEmail: 'admin@alpha.example',
        details: { kind: 'error', page: '/org/bays?page=4242', name: 'TypeError' },
      },
    });
    // Newest last seen first: the browser group before the server one.
    expect((await groups('?status=all')).items.map((g) => g.source)).toEqual(['browser', 'server']);
    // Another place in the code is another group.
    t.clock.advance(MINUTE);
    await postReport(report({ stack: 'TypeError: boom\n    at Qe (http://localhost:3000/assets/dock-queue-page-AbCd1234.js:1:1)' }));
    expect((await groups('?source=browser')).total).toBe(2);
  });

  it('stores a repeat from the same address once a minute, and noise not at all', async () => {
    const before = await eventCount();
    const ip = '192.0.2.20';
    const body = report({ message: 'Loop failure 1' });
    expect((await postReport(body, { ip })).json()).toEqual({ stored: true });
    expect((await postReport(report({ message: 'Loop failure 2' }), { ip })).json()).toEqual({ stored: false });
    t.clock.advance(MINUTE);
    expect((await postReport(body, { ip })).json()).toEqual({ stored: true });
    for (const noise of [
      report({ message: 'ResizeObserver loop completed with undelivered notifications.', name: null, stack: null }),
      report({ message: 'Script error.', stack: null }),
      report({ stack: 'Error: x\n    at f (chrome-extension://abcdef/content.js:1:2)' }),
    ]) {
      const res = await postReport(noise, { ip: '192.0.2.21' });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ stored: false });
    }
    expect(await eventCount()).toBe(before + 2);
  });

  it('refuses a malformed or oversized report with a clear message and stores nothing', async () => {
    const before = await eventCount();
    const cases: Array<[unknown, number, string]> = [
      [{ kind: 'error', url: '/' }, 400, 'message is required'],
      [{ ...report(), kind: 'crash' }, 400, 'kind must be one of error, unhandledrejection, render'],
      [{ ...report(), authorization: 'Bearer x' }, 400, 'Unrecognized key: "authorization"'],
      [{ ...report(), message: 'x'.repeat(2001) }, 400, 'message must be at most 2000 characters'],
      [{ ...report(), stack: 'x'.repeat(8001) }, 400, 'stack must be at most 8000 characters'],
      [{ ...report(), componentStack: 'x'.repeat(20_000) }, 413, 'Request body is too large'],
    ];
    for (const [body, status, message] of cases) {
      const res = await postReport(body, { ip: '192.0.2.30' });
      expect(res.statusCode, message).toBe(status);
      expect(res.json().error.message, message).toContain(message);
    }
    const notJson = await t.app.inject({ method: 'POST', url: '/api/client-errors', headers: { 'content-type': 'application/json' }, payload: '{"kind":', remoteAddress: '192.0.2.30' });
    expect(notJson.statusCode).toBe(400);
    expect(await eventCount()).toBe(before);
  });

  it(`answers 429 after ${CLIENT_ERROR_RATE_PER_MINUTE} reports a minute from one address`, async () => {
    const ip = '198.51.100.7';
    for (let i = 0; i < CLIENT_ERROR_RATE_PER_MINUTE; i += 1) {
      expect((await postReport(report({ message: `Burst ${i}` }), { ip })).statusCode).toBe(202);
    }
    const limited = await postReport(report(), { ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    // Another address is not affected.
    expect((await postReport(report({ message: 'Elsewhere' }), { ip: '198.51.100.8' })).statusCode).toBe(202);
  });

  it('filters by status and source, and pages newest last-seen first', async () => {
    const all = await groups('?status=all');
    expect(all.total).toBeGreaterThanOrEqual(3);
    const lastSeen = all.items.map((g) => g.lastSeen);
    expect([...lastSeen].sort().reverse()).toEqual(lastSeen);
    const second = await groups('?status=all&pageSize=1&page=2');
    expect(second.total).toBe(all.total);
    expect(second.items.map((g) => g.fingerprint)).toEqual([all.items[1]!.fingerprint]);
    expect((await groups(`?status=all&pageSize=1&page=${all.total + 5}`))).toMatchObject({ total: all.total, items: [] });
    expect((await groups('?source=server')).items.every((g) => g.source === 'server')).toBe(true);
    expect((await groups('?status=resolved')).total).toBe(0);
    for (const [query, message] of [
      ['?status=fixed', 'status must be one of open, resolved, all'],
      ['?source=mobile', 'source must be one of server, browser'],
      ['?pageSize=1000', 'pageSize must be at most 100'],
      ['?page=0', 'page must be 1 or more'],
    ]) {
      const res = await call('GET', `/api/platform/errors${query}`, superSession);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
  });

  it('shows a group with its latest events, newest first; unknown groups are 404', async () => {
    const [group] = (await groups('?source=browser&status=all')).items.filter((g) => g.sample.url === '/org/bays?page=4242');
    const res = await call('GET', `/api/platform/errors/${group!.fingerprint}`, supportSession);
    expect(res.statusCode).toBe(200);
    const detail = res.json();
    expect(detail.canTriage).toBe(false);
    expect(detail.group.fingerprint).toBe(group!.fingerprint);
    expect(detail.events.map((e: { url: string }) => e.url)).toEqual(['/org/bays?page=4242', '/org/bays?page=17']);
    for (const fingerprint of ['f'.repeat(32), 'not-a-fingerprint']) {
      const missing = await call('GET', `/api/platform/errors/${fingerprint}`, superSession);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.message).toBe('Error group not found');
    }
  });

  it('resolves and reopens (super admins), audited; a resolved group seen again is open again', async () => {
    const server = (await groups('?source=server')).items[0]!;
    const url = (action: string, fingerprint = server.fingerprint) => `/api/platform/errors/${fingerprint}/${action}`;
    const audit = async () =>
      t.ctx.database.query<{ action: string; resource_type: string; resource_id: string; actor_email: string; details: Record<string, unknown> }>(
        `select action, resource_type, resource_id, actor_email, details from audit_log where resource_type = 'error_group' order by created_at, id`,
      );

    // Support reads but may not triage.
    const refused = await call('POST', url('resolve'), supportSession);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(SUPPORT_CANNOT_TRIAGE);
    expect((await call('POST', url('resolve', 'f'.repeat(32)), superSession)).statusCode).toBe(404);
    const notOpen = await call('POST', url('reopen'), superSession);
    expect(notOpen.statusCode).toBe(409);
    expect(notOpen.json().error.message).toBe(ALREADY_OPEN);
    expect(await audit()).toEqual([]);

    t.clock.advance(MINUTE);
    const resolvedAt = t.clock.now().toISOString();
    const resolved = await call('POST', url('resolve'), superSession);
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json()).toMatchObject({ status: 'resolved', isRegression: false, resolvedAt, resolvedByEmail: 'super@platform.example' });
    const again = await call('POST', url('resolve'), superSession);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(ALREADY_RESOLVED);
    expect((await groups('?status=resolved')).items.map((g) => g.fingerprint)).toEqual([server.fingerprint]);
    expect((await groups('?status=open')).items.map((g) => g.fingerprint)).not.toContain(server.fingerprint);

    // It happens again: open by itself, marked as a regression, counted.
    t.clock.advance(MINUTE);
    await boom.inject({ method: 'POST', url: '/api/orgs/x/boom', payload: { orderId: 3 } });
    const regressed = (await groups('?status=open&source=server')).items[0]!;
    expect(regressed).toMatchObject({ fingerprint: server.fingerprint, status: 'open', isRegression: true, count: 3, resolvedAt });
    expect((await groups('?status=resolved')).total).toBe(0);
    expect((await call('POST', url('reopen'), superSession)).statusCode).toBe(409);

    // Resolved again, then reopened by hand.
    t.clock.advance(MINUTE);
    expect((await call('POST', url('resolve'), superSession)).json()).toMatchObject({ status: 'resolved', isRegression: false });
    const reopened = await call('POST', url('reopen'), superSession);
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json()).toMatchObject({ status: 'open', isRegression: false, resolvedAt: null, resolvedByEmail: null });

    const entries = await audit();
    expect(entries.map((e) => e.action)).toEqual(['platform.issue_resolved', 'platform.issue_resolved', 'platform.issue_reopened']);
    expect(entries[0]).toMatchObject({
      resource_type: 'error_group',
      resource_id: server.fingerprint,
      actor_email: 'super@platform.example',
      details: { source: 'server', count: 2, previousStatus: 'open' },
    });
    expect(entries[1]!.details).toMatchObject({ count: 3, regression: true });
    // Triage is not an alert on the dashboard (actions naming an error are).
    expect(entries.every((e) => !/error|warning|alert/i.test(e.action))).toBe(true);
  });
});
