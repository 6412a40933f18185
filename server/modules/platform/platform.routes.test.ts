import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, createOrg, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';

describe.each(databaseKinds)('quote requests on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await createUser(t.ctx.database, { email: 'owner@platform.example', platformRole: 'platform_owner' });
    const org = await createOrg(t.ctx.database);
    const admin = await createUser(t.ctx.database, { email: 'admin@org.example' });
    await addMember(t.ctx.database, org.id, admin.id, 'org_admin');
  });
  afterAll(() => t.close());

  it('stores a landing-page quote request for platform admins only', async () => {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/public/quote-requests',
      payload: { name: 'Sam Lee', company: 'Depot Co', email: 'sam@depot.example', sites: 3, message: 'Two warehouses' },
    });
    expect(sent.statusCode).toBe(201);

    const owner = await signIn(t.app, 'owner@platform.example');
    const list = await t.app.inject({ method: 'GET', url: '/api/platform/quote-requests', headers: bearer(owner) });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, items: [{ company: 'Depot Co', email: 'sam@depot.example', sites: 3, status: 'new' }] });

    const admin = await signIn(t.app, 'admin@org.example');
    expect((await t.app.inject({ method: 'GET', url: '/api/platform/quote-requests', headers: bearer(admin) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/platform/quote-requests' })).statusCode).toBe(401);
  });
});
