import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, createOrg, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { authenticateApiKey } from './api-keys.service';

// API keys on /api/orgs/:orgId/api-keys: org admins make, list and revoke them; the secret is
// answered once and stored hashed; dockmasters 403, strangers 404; every write audited. The key
// check refuses unknown, revoked and expired keys and records the last use.

const NOW = '2026-11-23T00:00:00Z';

describe.each(databaseKinds)('API keys on %s', (kind) => {
  let t: TestApp;
  let orgId: string;
  let otherOrgId: string;
  let tenantId: string;
  let otherTenantId: string;
  let admin: Record<string, string>;
  let dock: Record<string, string>;
  let outsider: Record<string, string>;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const call = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: unknown) => {
    const response = await t.app.inject({ method, url, headers, payload: payload as never });
    return { status: response.statusCode, body: response.body ? response.json() : undefined };
  };
  const url = (path: string, org = orgId) => `/api/orgs/${org}${path}`;
  const create = async (body: Record<string, unknown>) => {
    const res = await call('POST', url('/api-keys'), admin, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; secret: string; hint: string; status: string } & Record<string, unknown>;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    orgId = (await createOrg(db, { name: 'Keys Org' })).id;
    otherOrgId = (await createOrg(db, { name: 'Other Keys Org' })).id;
    [{ id: tenantId }] = await query<{ id: string }>(`insert into tenants (org_id, name, contact_emails) values ($1, 'Fast Freight', '{ops@fastfreight.example}') returning id`, [orgId]);
    [{ id: otherTenantId }] = await query<{ id: string }>(`insert into tenants (org_id, name, contact_emails) values ($1, 'Elsewhere Haulage', '{ops@elsewhere.example}') returning id`, [otherOrgId]);
    await query(`insert into tenants (org_id, name) values ($1, 'No Contact Co')`, [orgId]);
    for (const [email, org, role] of [
      ['admin@keys.example', orgId, 'org_admin'],
      ['dock@keys.example', orgId, 'dockmaster'],
      ['admin@otherkeys.example', otherOrgId, 'org_admin'],
    ] as const) {
      const user = await createUser(db, { email });
      await addMember(db, org, user.id, role);
    }
    admin = bearer(await signIn(t.app, 'admin@keys.example'));
    dock = bearer(await signIn(t.app, 'dock@keys.example'));
    outsider = bearer(await signIn(t.app, 'admin@otherkeys.example'));
  });
  afterAll(() => t.close());

  it('creates a key: the secret once, only its hash stored, audited without the secret', async () => {
    const key = await create({ name: 'TMS production', tenantId, scopes: ['appointments:schedule', 'availability:read'], expiresAt: '2027-01-01T00:00:00Z' });
    expect(key.secret).toMatch(/^bw_live_[A-Za-z0-9_-]{43}$/);
    expect(key).toMatchObject({
      name: 'TMS production',
      tenantId,
      tenantName: 'Fast Freight',
      // In the standard's order, whatever order they were sent in.
      scopes: ['availability:read', 'appointments:schedule'],
      hint: key.secret.slice(-4),
      expiresAt: '2027-01-01T00:00:00.000Z',
      rateLimitPerMinute: 600,
      status: 'active',
      lastUsedAt: null,
      createdByEmail: 'admin@keys.example',
    });
    const [row] = await query<{ secret_hash: string }>('select secret_hash from api_keys where id = $1', [key.id]);
    expect(row!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await query('select * from api_keys where id = $1', [key.id]))).not.toContain(key.secret);

    const list = await call('GET', url('/api-keys'), admin);
    expect(list.status).toBe(200);
    const listed = list.body.keys.find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({ name: 'TMS production', hint: key.secret.slice(-4) });
    expect(listed).not.toHaveProperty('secret');

    const [entry] = await query<{ action: string; details: Record<string, unknown>; actor_email: string }>(
      `select action, details, actor_email from audit_log where resource_id = $1`,
      [key.id],
    );
    expect(entry).toMatchObject({ action: 'api_key.created', actor_email: 'admin@keys.example' });
    expect(JSON.stringify(entry!.details)).not.toContain(key.secret);
  });

  it('refuses bad input with clear messages and stores nothing', async () => {
    const before = (await query<{ n: number }>('select count(*)::int as n from api_keys'))[0]!.n;
    const bad = await call('POST', url('/api-keys'), admin, { name: ' ', tenantId, scopes: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('Name is required');
    expect(bad.body.error.message).toContain('Choose at least one scope');
    expect((await call('POST', url('/api-keys'), admin, { name: 'x', tenantId, scopes: ['everything'] })).status).toBe(400);
    const past = await call('POST', url('/api-keys'), admin, { name: 'Old', tenantId, scopes: ['webhooks'], expiresAt: '2026-11-22T00:00:00Z' });
    expect(past).toMatchObject({ status: 400, body: { error: { message: 'Expiry must be in the future' } } });
    // Another organization's tenant is not a choice.
    const foreign = await call('POST', url('/api-keys'), admin, { name: 'Foreign', tenantId: otherTenantId, scopes: ['webhooks'] });
    expect(foreign).toMatchObject({ status: 400, body: { error: { message: 'Choose one of this organization’s tenants' } } });
    const [{ id: noContact }] = await query<{ id: string }>(`select id from tenants where name = 'No Contact Co'`);
    const contactless = await call('POST', url('/api-keys'), admin, { name: 'Nobody', tenantId: noContact, scopes: ['webhooks'] });
    expect(contactless.status).toBe(400);
    expect((await query<{ n: number }>('select count(*)::int as n from api_keys'))[0]!.n).toBe(before);
  });

  it('is for org admins only: dockmasters 403, other organizations 404, anonymous 401', async () => {
    expect((await call('GET', url('/api-keys'), dock)).status).toBe(403);
    expect((await call('POST', url('/api-keys'), dock, { name: 'Dock', tenantId, scopes: ['webhooks'] })).status).toBe(403);
    expect((await call('GET', url('/api-keys'), outsider)).status).toBe(404);
    expect((await call('GET', url('/api-keys'), {})).status).toBe(401);
    const key = await create({ name: 'Cross', tenantId, scopes: ['webhooks'] });
    expect((await call('POST', url(`/api-keys/${key.id}/revoke`, otherOrgId), outsider)).status).toBe(404);
    expect((await call('POST', url(`/api-keys/${key.id}/revoke`), dock)).status).toBe(403);
    expect((await call('POST', url('/api-keys/not-a-uuid/revoke'), admin)).status).toBe(404);
  });

  it('checks a key on each call: unknown, revoked and expired refused; last use recorded', async () => {
    const key = await create({ name: 'Checked', tenantId, scopes: ['availability:read'], expiresAt: '2026-11-23T00:05:00Z' });
    await expect(authenticateApiKey(t.ctx, undefined)).rejects.toMatchObject({ statusCode: 401, code: 'api_key_required' });
    await expect(authenticateApiKey(t.ctx, `Bearer ${key.secret.slice(0, -1)}x`)).rejects.toMatchObject({ statusCode: 401, code: 'api_key_invalid' });
    const principal = await authenticateApiKey(t.ctx, `Bearer ${key.secret}`);
    expect(principal).toMatchObject({ keyId: key.id, orgId, tenantId, scopes: ['availability:read'], auditActor: { id: key.id, role: 'api_key' } });
    const listed = (await call('GET', url('/api-keys'), admin)).body.keys.find((k: { id: string }) => k.id === key.id);
    expect(listed.lastUsedAt).toBe(NOW.replace('Z', '.000Z'));

    t.clock.set('2026-11-23T00:05:00Z');
    try {
      await expect(authenticateApiKey(t.ctx, `Bearer ${key.secret}`)).rejects.toMatchObject({ statusCode: 401, code: 'api_key_expired' });
      const expired = (await call('GET', url('/api-keys'), admin)).body.keys.find((k: { id: string }) => k.id === key.id);
      expect(expired.status).toBe('expired');
    } finally {
      t.clock.set(NOW);
    }

    const revoked = await call('POST', url(`/api-keys/${key.id}/revoke`), admin);
    expect(revoked).toMatchObject({ status: 200, body: { status: 'revoked', revokedAt: NOW.replace('Z', '.000Z') } });
    await expect(authenticateApiKey(t.ctx, `Bearer ${key.secret}`)).rejects.toMatchObject({ statusCode: 401, code: 'api_key_revoked' });
    // Revoking again changes nothing (one audit entry).
    expect((await call('POST', url(`/api-keys/${key.id}/revoke`), admin)).status).toBe(200);
    const entries = await query(`select 1 from audit_log where resource_id = $1 and action = 'api_key.revoked'`, [key.id]);
    expect(entries).toHaveLength(1);
  });
});
