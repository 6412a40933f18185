import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../domain/auth-schemas';
import { PLAN_NOT_ACTIVE, PLAN_NOT_FOUND, SUPPORT_CANNOT_EDIT_SETTINGS, type PlatformConfigInput } from '../../../domain/platform-settings';
import { plans } from '../../db/schema';
import { addMember, bearer, createOrg, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { getPlatformConfig } from '../../platform-config';

// Platform configuration (issue 12): GET/PUT /api/platform/settings and the public part every
// screen reads for its maintenance banner.

const NOW = new Date('2026-11-23T09:00:00Z');

const DEFAULTS: PlatformConfigInput = {
  platformName: 'Baywise',
  supportEmail: null,
  supportPhone: null,
  defaultPlanId: null,
  selfSignUpOpen: true,
  maintenanceBanner: null,
  mfaRequired: false,
  allowPrivateWebhookTargets: false,
  sellerName: null,
  sellerAddress: null,
  sellerTaxNumber: null,
  paymentInstructions: null,
};

describe.each(databaseKinds)('platform settings API on %s', (kind) => {
  let t: TestApp;
  let superSession: Session;
  let ownerSession: Session;
  let supportSession: Session;
  let orgAdminSession: Session;
  let starter: { id: string };
  let pro: { id: string };
  let legacy: { id: string };

  const request = (method: 'GET' | 'PUT', url: string, session?: Session, payload?: object) =>
    t.app.inject({ method, url, headers: session ? bearer(session) : {}, ...(payload ? { payload } : {}) });
  const put = (session: Session | undefined, payload: object) => request('PUT', '/api/platform/settings', session, payload);
  const auditCount = async () => (await t.ctx.database.query<{ n: number }>(`select count(*)::int as n from audit_log where action = 'platform.settings_updated'`))[0]!.n;
  const storedConfig = () => getPlatformConfig(t.ctx.database.db);

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const database = t.ctx.database;
    [starter, pro, legacy] = await database.db
      .insert(plans)
      .values([
        { name: 'Starter', priceCents: 9900 },
        { name: 'Pro', priceCents: 29900 },
        { name: 'Legacy', priceCents: 4900, active: false },
      ])
      .returning();
    await createUser(database, { email: 'super@platform.example', platformRole: 'super_admin' });
    await createUser(database, { email: 'owner@platform.example', platformRole: 'platform_owner' });
    await createUser(database, { email: 'support@platform.example', platformRole: 'platform_support' });
    const org = await createOrg(database, { name: 'Alpha Freight' });
    const admin = await createUser(database, { email: 'admin@alpha.example' });
    await addMember(database, org.id, admin.id, 'org_admin');
    superSession = await signIn(t.app, 'super@platform.example');
    ownerSession = await signIn(t.app, 'owner@platform.example');
    supportSession = await signIn(t.app, 'support@platform.example');
    orgAdminSession = await signIn(t.app, 'admin@alpha.example');
  });
  afterAll(() => t.close());

  it('refuses anyone without a platform role on both routes (401 signed out, 403 otherwise), before looking at the body', async () => {
    expect((await request('GET', '/api/platform/settings')).statusCode).toBe(401);
    expect((await put(undefined, DEFAULTS)).statusCode).toBe(401);
    const read = await request('GET', '/api/platform/settings', orgAdminSession);
    expect(read.statusCode).toBe(403);
    expect(read.json().error).toMatchObject({ code: 'forbidden', message: 'Platform administrator access required' });
    expect((await put(orgAdminSession, { platformName: '' })).statusCode).toBe(403);
    expect(await auditCount()).toBe(0);
  });

  it('shows the defaults of a fresh install and the active plans, cheapest first', async () => {
    const res = await request('GET', '/api/platform/settings', superSession);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      config: DEFAULTS,
      plans: [
        { id: starter.id, name: 'Starter', priceCents: 9900, currency: 'USD', interval: 'month', active: true },
        { id: pro.id, name: 'Pro', priceCents: 29900, currency: 'USD', interval: 'month', active: true },
      ],
      updatedAt: null,
      updatedByEmail: null,
      canEdit: true,
    });
  });

  it('lets platform support read but not change the settings', async () => {
    const read = await request('GET', '/api/platform/settings', supportSession);
    expect(read.statusCode).toBe(200);
    expect(read.json().canEdit).toBe(false);
    // Refused whatever the body: valid or not.
    for (const body of [{ ...DEFAULTS, platformName: 'Support Was Here' }, { platformName: '' }]) {
      const refused = await put(supportSession, body);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.message).toBe(SUPPORT_CANNOT_EDIT_SETTINGS);
    }
    expect((await storedConfig()).platformName).toBe('Baywise');
    expect(await auditCount()).toBe(0);
  });

  it('saves a change, audits only the changed fields before and after, and shows it publicly at once', async () => {
    const res = await put(superSession, {
      ...DEFAULTS,
      platformName: '  Baywise Ops  ',
      supportEmail: 'help@baywise.example',
      supportPhone: '',
      defaultPlanId: starter.id,
      maintenanceBanner: 'Maintenance on Sunday 02:00–03:00 UTC.\nBookings stay open.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json();
    expect(view.config).toEqual({
      ...DEFAULTS,
      platformName: 'Baywise Ops',
      supportEmail: 'help@baywise.example',
      supportPhone: null,
      defaultPlanId: starter.id,
      maintenanceBanner: 'Maintenance on Sunday 02:00–03:00 UTC.\nBookings stay open.',
    });
    expect(view.updatedAt).toBe(NOW.toISOString());
    expect(view.updatedByEmail).toBe('super@platform.example');
    expect(await storedConfig()).toEqual(view.config);

    const entries = await t.ctx.database.query<{ actor_email: string; actor_role: string; resource_type: string; resource_id: string; details: Record<string, unknown> }>(
      `select actor_email, actor_role, resource_type, resource_id, details from audit_log where action = 'platform.settings_updated'`,
    );
    expect(entries).toEqual([
      {
        actor_email: 'super@platform.example',
        actor_role: 'super_admin',
        resource_type: 'platform_settings',
        resource_id: 'platform.config',
        details: {
          fields: ['platformName', 'supportEmail', 'defaultPlanId', 'maintenanceBanner'],
          before: { platformName: 'Baywise', supportEmail: null, defaultPlanId: null, maintenanceBanner: null },
          after: {
            platformName: 'Baywise Ops',
            supportEmail: 'help@baywise.example',
            defaultPlanId: starter.id,
            maintenanceBanner: 'Maintenance on Sunday 02:00–03:00 UTC.\nBookings stay open.',
          },
        },
      },
    ]);

    const pub = await t.app.inject({ method: 'GET', url: '/api/public/platform' });
    expect(pub.statusCode).toBe(200);
    expect(pub.headers['cache-control']).toBe('public, max-age=15');
    // Only the public part: not the default plan nor the two-factor rule.
    expect(pub.json()).toEqual({
      platformName: 'Baywise Ops',
      supportEmail: 'help@baywise.example',
      supportPhone: null,
      maintenanceBanner: 'Maintenance on Sunday 02:00–03:00 UTC.\nBookings stay open.',
      selfSignUpOpen: true,
    });
  });

  it('writes nothing when nothing changed', async () => {
    const before = await auditCount();
    const same = (await request('GET', '/api/platform/settings', superSession)).json().config;
    const res = await put(superSession, same);
    expect(res.statusCode).toBe(200);
    expect(await auditCount()).toBe(before);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const current = await storedConfig();
    const before = await auditCount();
    const cases: Array<[object, number, string]> = [
      [{ ...current, platformName: '   ' }, 400, 'Platform name is required'],
      [{ ...current, platformName: 'x'.repeat(81) }, 400, 'Platform name must be at most 80 characters'],
      [{ ...current, platformName: 'Bay\nwise' }, 400, 'Platform name contains characters that are not allowed (control characters or line breaks)'],
      [{ ...current, supportEmail: 'not-an-address' }, 400, 'Enter a valid e-mail address'],
      [{ ...current, supportPhone: 'call us' }, 400, 'Enter a phone number (digits, spaces, + ( ) - .)'],
      [{ ...current, maintenanceBanner: 'x'.repeat(501) }, 400, 'Maintenance banner must be at most 500 characters'],
      [{ ...current, defaultPlanId: 'starter' }, 400, 'Choose a plan from the list'],
      [{ ...current, selfSignUpOpen: 'yes' }, 400, 'Self sign-up must be on or off'],
      [{ ...current, extra: true }, 400, 'Unrecognized key: "extra"'],
      [{ platformName: 'Only a name' }, 400, 'Self sign-up must be on or off'],
      [{ ...current, defaultPlanId: '00000000-0000-4000-8000-000000000000' }, 422, PLAN_NOT_FOUND],
      [{ ...current, defaultPlanId: legacy.id }, 422, PLAN_NOT_ACTIVE],
    ];
    for (const [body, status, message] of cases) {
      const res = await put(superSession, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.json().error.message, JSON.stringify(body).slice(0, 80)).toContain(message);
    }
    const plan = await put(superSession, { ...current, defaultPlanId: legacy.id });
    expect(plan.json().error).toMatchObject({ code: 'invalid_plan', details: [{ path: 'defaultPlanId', message: PLAN_NOT_ACTIVE }] });
    expect(await storedConfig()).toEqual(current);
    expect(await auditCount()).toBe(before);
  });

  it('keeps a default plan that was retired after it was chosen, and lists it', async () => {
    await put(superSession, { ...(await storedConfig()), defaultPlanId: pro.id });
    await t.ctx.database.query(`update plans set active = false where id = $1`, [pro.id]);
    const view = (await request('GET', '/api/platform/settings', superSession)).json();
    expect(view.plans.map((p: { name: string; active: boolean }) => [p.name, p.active])).toEqual([
      ['Starter', true],
      ['Pro', false],
    ]);
    // Saving other fields with it still chosen is fine; choosing it anew is not.
    const res = await put(superSession, { ...view.config, selfSignUpOpen: false });
    expect(res.statusCode).toBe(200);
    expect(res.json().config).toMatchObject({ defaultPlanId: pro.id, selfSignUpOpen: false });
    await put(superSession, { ...view.config, selfSignUpOpen: false, defaultPlanId: null });
    const again = await put(superSession, { ...view.config, selfSignUpOpen: false, defaultPlanId: pro.id });
    expect(again.statusCode).toBe(422);
    await t.ctx.database.query(`update plans set active = true where id = $1`, [pro.id]);
  });

  it('lets a platform owner change the settings, two-factor rule included', async () => {
    const current = await storedConfig();
    const res = await put(ownerSession, { ...current, mfaRequired: true, maintenanceBanner: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json().config).toMatchObject({ mfaRequired: true, maintenanceBanner: null });
    const [entry] = await t.ctx.database.query<{ actor_role: string; details: { after: Record<string, unknown> } }>(
      `select actor_role, details from audit_log where action = 'platform.settings_updated' order by created_at desc, id desc limit 1`,
    );
    expect(entry).toMatchObject({ actor_role: 'platform_owner', details: { after: { mfaRequired: true, maintenanceBanner: null } } });
    // Back off, so no other test depends on two-factor enrolment.
    await t.ctx.database.query(`update platform_settings set value = value || '{"mfaRequired": false}'::jsonb`);
  });

  it('serves the public part to anyone, cached for 15 seconds on this server', async () => {
    const get = () => t.app.inject({ method: 'GET', url: '/api/public/platform' });
    const first = (await get()).json();
    // A change behind the API's back is seen once the cache has expired.
    await t.ctx.database.query(`update platform_settings set value = value || '{"maintenanceBanner": "Direct change"}'::jsonb`);
    expect((await get()).json()).toEqual(first);
    t.clock.advance(15_000);
    expect((await get()).json().maintenanceBanner).toBe('Direct change');
    // A stored value this version cannot read falls back to its default, field by field.
    await t.ctx.database.query(`update platform_settings set value = value || '{"platformName": 42}'::jsonb`);
    t.clock.advance(15_000);
    expect((await get()).json()).toMatchObject({ platformName: 'Baywise', maintenanceBanner: 'Direct change' });
  });
});
