import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../domain/auth-schemas';
import { addMember, bearer, createOrg, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

// Every /api/platform/* route of the route table (the OpenAPI document Fastify builds from every
// registered route), whatever module adds it: anonymous callers get 401, members of an organization
// — its admin, a dockmaster — get 403, before their input is even looked at, and nothing changes.
// A route added later is covered without touching this file.

const SOME_ID = '0b5e2a52-31a4-4c1b-9f0e-6a1d2c3b4a5f';
const fill = (path: string) => path.replace(/\{[^}]+\}/g, SOME_ID);

describe.each(databaseKinds)('every platform route refuses non-platform users, on %s', (kind) => {
  let t: TestApp;
  let admin: Session;
  let dock: Session;
  let routes: { method: string; path: string }[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    const org = await createOrg(t.ctx.database, { name: 'Guarded Co' });
    const adminUser = await createUser(t.ctx.database, { email: 'admin@guarded.test' });
    const dockUser = await createUser(t.ctx.database, { email: 'dock@guarded.test' });
    await addMember(t.ctx.database, org.id, adminUser.id, 'org_admin');
    await addMember(t.ctx.database, org.id, dockUser.id, 'dockmaster');
    admin = await signIn(t.app, 'admin@guarded.test');
    dock = await signIn(t.app, 'dock@guarded.test');
    const spec = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    routes = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith('/api/platform/') || path === '/api/platform')
      .flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
          .map((method) => ({ method: method.toUpperCase(), path })),
      );
  });
  afterAll(() => t?.close());

  it('finds the platform routes of every module', () => {
    const paths = new Set(routes.map((r) => r.path));
    for (const expected of ['/api/platform/stats', '/api/platform/audit', '/api/platform/plans', '/api/platform/usage', '/api/platform/settings', '/api/platform/errors', '/api/platform/impersonations']) {
      expect(paths.has(expected), expected).toBe(true);
    }
    expect(routes.length).toBeGreaterThan(25);
  });

  it('answers 401 to anonymous callers and 403 to organization members on each, changing nothing', async () => {
    const countRows = async () =>
      (await t.ctx.database.query<{ n: number }>(
        `select (select count(*) from audit_log) + (select count(*) from organizations) + (select count(*) from plans)
              + (select count(*) from invoices) + (select count(*) from platform_settings) + (select count(*) from auth_sessions) as n`,
      ))[0]!.n;
    const before = await countRows();
    for (const { method, path } of routes) {
      const url = fill(path);
      const payload = method === 'GET' || method === 'DELETE' ? undefined : {};
      const anonymous = await t.app.inject({ method: method as 'GET', url, ...(payload ? { payload } : {}) });
      expect(anonymous.statusCode, `${method} ${path} anonymous`).toBe(401);
      for (const session of [admin, dock]) {
        const response = await t.app.inject({ method: method as 'GET', url, headers: bearer(session), ...(payload ? { payload } : {}) });
        expect(response.statusCode, `${method} ${path} as an organization member`).toBe(403);
      }
    }
    expect(await countRows()).toBe(before);
  });
});
