import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { addMember, bearer, createOrg, createUser, signIn } from '../../test/fixtures';

// Impersonation (decision 017): who may act as whom, the 30-minute cap (refresh included), the
// double audit (every entry written meanwhile names both users), start and end audited, and the
// refusals — each a clear message that changes nothing.

const NOW = '2026-11-23T09:00:00Z';
const REASON = 'Customer reported the schedule shows no bays';

type Res = { status: number; body: any };

describe.each(databaseKinds)('impersonation on %s', (kind) => {
  let t: TestApp;
  let acme: { id: string; name: string };
  let harbour: { id: string };
  let suspended: { id: string };
  const users: Record<string, { id: string; email: string }> = {};
  let superHeaders: Record<string, string>;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string> = {}, payload?: unknown): Promise<Res> => {
    const response = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: response.statusCode, body: response.body ? response.json() : undefined };
  };
  const start = (headers: Record<string, string>, payload: object) => call('POST', '/api/platform/impersonations', headers, payload);
  const counts = async () => {
    const [row] = await query<{ sessions: number; entries: number }>(
      `select (select count(*)::int from auth_sessions where impersonator_id is not null) as sessions, (select count(*)::int from audit_log) as entries`,
    );
    return row!;
  };
  type Entry = { id: string; action: string; actor_email: string; impersonator_id: string | null; impersonator_email: string | null; org_id: string | null; details: Record<string, unknown> };
  /** The ids of the audit log now (its created_at is the database's clock, not the frozen one). */
  const snapshot = async () => new Set((await query<{ id: string }>(`select id from audit_log`)).map((r) => r.id));
  /** Entries written since the snapshot; those of one transaction share a time, so by action then. */
  const entriesSince = async (seen: Set<string>) =>
    (await query<Entry>(`select id, action, actor_email, impersonator_id, impersonator_email, org_id, details from audit_log order by created_at, action`)).filter(
      (e) => !seen.has(e.id),
    );

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    acme = await createOrg(db, { name: 'Acme Impersonation' });
    harbour = await createOrg(db, { name: 'Harbour Impersonation' });
    suspended = await createOrg(db, { name: 'Suspended Impersonation', status: 'suspended' });
    const make = async (key: string, values: Record<string, unknown> = {}) => {
      const user = await createUser(db, { email: `${key}@imp.test`, ...values });
      users[key] = { id: user.id, email: user.email };
      return user;
    };
    await make('super', { platformRole: 'super_admin' });
    await make('support', { platformRole: 'platform_support' });
    await make('owner', { platformRole: 'platform_owner' });
    const otherSuper = await make('othersuper', { platformRole: 'super_admin' });
    await addMember(db, acme.id, otherSuper.id, 'org_admin');
    const admin = await make('admin');
    await addMember(db, acme.id, admin.id, 'org_admin');
    await addMember(db, harbour.id, admin.id, 'org_admin');
    const dock = await make('dock');
    await addMember(db, acme.id, dock.id, 'dockmaster', { employeeId: 'D-IMP' });
    const former = await make('former');
    await addMember(db, acme.id, former.id, 'dockmaster', { active: false });
    const deactivated = await make('deactivated', { active: false });
    await addMember(db, acme.id, deactivated.id, 'dockmaster');
    const closed = await make('closed');
    await addMember(db, suspended.id, closed.id, 'org_admin');
    await make('stranger');
    superHeaders = bearer(await signIn(t.app, users.super!.email));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets a super admin act as an org admin: a 30-minute session, audited start, both users on every entry', async () => {
    const startedAt = await snapshot();
    const res = await start(superHeaders, { userId: users.admin!.id, orgId: acme.id, reason: `  ${REASON}  ` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const nowS = Math.floor(Date.parse(NOW) / 1000);
    expect(res.body).toMatchObject({
      token_type: 'bearer',
      expires_in: 1800,
      expires_at: nowS + 1800,
      user: { email: 'admin@imp.test', platformRole: null },
      impersonation: {
        orgId: acme.id,
        orgName: 'Acme Impersonation',
        userId: users.admin!.id,
        email: 'admin@imp.test',
        role: 'org_admin',
        impersonatorId: users.super!.id,
        impersonatorEmail: 'super@imp.test',
        reason: REASON,
        startedAt: '2026-11-23T09:00:00.000Z',
        expiresAt: '2026-11-23T09:30:00.000Z',
      },
    });
    const acting = bearer(res.body);
    const [session] = await query<{ impersonator_id: string; impersonation_reason: string; org_id: string; expires_at: Date }>(
      `select impersonator_id, impersonation_reason, org_id, expires_at from auth_sessions where id = $1`,
      [res.body.impersonation.id],
    );
    expect(session).toMatchObject({ impersonator_id: users.super!.id, impersonation_reason: REASON, org_id: acme.id });
    expect(new Date(session!.expires_at).toISOString()).toBe('2026-11-23T09:30:00.000Z');

    // The web app learns it is impersonating from the current user.
    const me = await call('GET', '/api/auth/user', acting);
    expect(me.body).toMatchObject({ user: { email: 'admin@imp.test' }, role: 'org_admin', orgId: acme.id, impersonation: { impersonatorEmail: 'super@imp.test', reason: REASON } });
    expect(me.body.memberships.map((m: { orgId: string }) => m.orgId)).toEqual([acme.id]);
    // Only the organization it was started for.
    expect((await call('GET', '/api/me/organizations', acting)).body.map((o: { id: string }) => o.id)).toEqual([acme.id]);
    expect((await call('GET', `/api/orgs/${harbour.id}/sites`, acting)).status).toBe(404);

    // An action as the member: the entry names the member and the platform user.
    const site = await call('POST', `/api/orgs/${acme.id}/sites`, acting, { name: 'Impersonated Yard', timeZone: 'Australia/Sydney' });
    expect(site.status, JSON.stringify(site.body)).toBe(201);
    const entries = await entriesSince(startedAt);
    expect(entries.map((e) => [e.action, e.actor_email, e.impersonator_email])).toEqual([
      ['impersonation.start', 'super@imp.test', null],
      ['site.created', 'admin@imp.test', 'super@imp.test'],
    ]);
    expect(entries[0]!.org_id).toBe(acme.id);
    expect(entries[0]!.details).toMatchObject({ actingAs: 'admin@imp.test', actingAsUserId: users.admin!.id, actingAsRole: 'org_admin', reason: REASON });
    expect(entries[1]!.impersonator_id).toBe(users.super!.id);
    expect(entries[1]!.details).toMatchObject({ impersonatedBy: 'super@imp.test' });

    // Nothing of the platform, nor the account's credentials, through this session.
    for (const [method, url, payload] of [
      ['GET', '/api/platform/stats', undefined],
      ['POST', '/api/platform/impersonations', { userId: users.dock!.id, orgId: acme.id, reason: REASON }],
      ['GET', '/api/platform/audit', undefined],
      ['PUT', '/api/auth/user', { password: 'Another-pass-1', currentPassword: 'x' }],
      ['POST', '/api/auth/mfa/enrol', undefined],
    ] as const) {
      const refused = await call(method, url, acting, payload);
      expect(refused.status, url).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'impersonation_forbidden', message: 'Not available while acting as another user. End the impersonation first.' });
    }

    // The banner's End: revoked at once, audited, with both users.
    const before = await snapshot();
    const ended = await call('POST', '/api/impersonations/end', acting);
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ orgId: acme.id, userId: users.admin!.id, outcome: 'ended' });
    expect((await call('GET', '/api/auth/user', acting)).status).toBe(401);
    const [end] = (await entriesSince(before)).filter((e) => e.action === 'impersonation.end');
    expect(end).toMatchObject({ actor_email: 'super@imp.test', impersonator_email: null, org_id: acme.id });
    expect(end!.details).toMatchObject({ actingAs: 'admin@imp.test', outcome: 'ended' });
    // The platform user's own session is untouched.
    expect((await call('GET', '/api/platform/stats', superHeaders)).status).toBe(200);
  });

  it('ends at 30 minutes: requests answer 401, refresh cannot extend it, and the expiry is recorded once', async () => {
    const res = await start(bearer(await signIn(t.app, users.support!.email)), { userId: users.dock!.id, orgId: acme.id, reason: REASON });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const supportHeaders = bearer(await signIn(t.app, users.support!.email));
    t.clock.advance(20 * 60_000);
    const refreshed = await call('POST', '/api/auth/token?grant_type=refresh_token', {}, { refresh_token: res.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.expires_in).toBe(600);
    expect(refreshed.body.expires_at).toBe(Math.floor(Date.parse(NOW) / 1000) + 1800);
    expect((await call('GET', '/api/auth/user', bearer(refreshed.body))).status).toBe(200);
    t.clock.advance(10 * 60_000);
    expect((await call('GET', '/api/auth/user', bearer(refreshed.body))).status).toBe(401);
    const late = await call('POST', '/api/auth/token?grant_type=refresh_token', {}, { refresh_token: refreshed.body.refresh_token });
    expect(late.status).toBe(400);
    expect(late.body.error.message).toBe('Invalid Refresh Token: Session Expired');
    // The platform user's End after expiry records it as expired, once.
    const before = await snapshot();
    const ended = await call('POST', `/api/platform/impersonations/${res.body.impersonation.id}/end`, supportHeaders);
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body).toMatchObject({ outcome: 'expired', endedAt: '2026-11-23T09:30:00.000Z' });
    expect((await entriesSince(before)).map((e) => [e.action, e.actor_email, e.details.outcome])).toEqual([['impersonation.end', 'support@imp.test', 'expired']]);
    const again = await call('POST', `/api/platform/impersonations/${res.body.impersonation.id}/end`, supportHeaders);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('This impersonation has already ended.');
    // Someone else's impersonation is not found.
    expect((await call('POST', `/api/platform/impersonations/${res.body.impersonation.id}/end`, superHeaders)).status).toBe(404);
    expect((await call('POST', '/api/platform/impersonations/not-a-uuid/end', superHeaders)).status).toBe(404);
  });

  it('ends the previous impersonation when the same platform user starts another, and on sign-out', async () => {
    const first = await start(superHeaders, { userId: users.admin!.id, orgId: acme.id, reason: REASON });
    const before = await snapshot();
    const second = await start(superHeaders, { userId: users.dock!.id, orgId: acme.id, reason: REASON });
    expect(second.status).toBe(200);
    expect((await call('GET', '/api/auth/user', bearer(first.body))).status).toBe(401);
    expect((await entriesSince(before)).map((e) => [e.action, e.details.actingAs, e.details.outcome ?? null])).toEqual([
      ['impersonation.end', 'admin@imp.test', 'replaced'],
      ['impersonation.start', 'dock@imp.test', null],
    ]);
    const signOutAt = await snapshot();
    expect((await call('POST', '/api/auth/logout', bearer(second.body))).status).toBe(204);
    expect((await entriesSince(signOutAt)).map((e) => [e.action, e.actor_email, e.details.outcome])).toEqual([['impersonation.end', 'super@imp.test', 'signed_out']]);
  });

  it('stops the session when the platform user loses the right to impersonate', async () => {
    const res = await start(superHeaders, { userId: users.dock!.id, orgId: acme.id, reason: REASON });
    const acting = bearer(res.body);
    expect((await call('GET', '/api/auth/user', acting)).status).toBe(200);
    await query(`update users set platform_role = 'platform_owner' where id = $1`, [users.super!.id]);
    try {
      expect((await call('GET', '/api/auth/user', acting)).status).toBe(401);
    } finally {
      await query(`update users set platform_role = 'super_admin' where id = $1`, [users.super!.id]);
    }
    expect((await call('POST', '/api/impersonations/end', acting)).status).toBe(200);
  });

  it('refuses oneself, platform admins, inactive members, suspended organizations and unknown ids — changing nothing', async () => {
    const ownerHeaders = bearer(await signIn(t.app, users.owner!.email));
    const memberHeaders = bearer(await signIn(t.app, users.admin!.email));
    const before = await counts();
    const uuid = '00000000-0000-4000-8000-000000000000';
    const cases: [string, Record<string, string>, object, number, string][] = [
      ['no reason', superHeaders, { userId: users.admin!.id, orgId: acme.id }, 400, 'A reason is required to act as a member'],
      ['blank reason', superHeaders, { userId: users.admin!.id, orgId: acme.id, reason: '   ' }, 400, 'A reason is required to act as a member'],
      ['short reason', superHeaders, { userId: users.admin!.id, orgId: acme.id, reason: 'because' }, 400, 'Give a reason of at least 10 characters'],
      ['long reason', superHeaders, { userId: users.admin!.id, orgId: acme.id, reason: 'x'.repeat(501) }, 400, 'The reason must be at most 500 characters'],
      ['oneself', superHeaders, { userId: users.super!.id, orgId: acme.id, reason: REASON }, 400, 'You cannot act as yourself.'],
      ['a platform admin', superHeaders, { userId: users.othersuper!.id, orgId: acme.id, reason: REASON }, 403, 'Platform administrators cannot be impersonated.'],
      ['an inactive membership', superHeaders, { userId: users.former!.id, orgId: acme.id, reason: REASON }, 409, 'This membership is inactive and cannot be impersonated.'],
      ['a deactivated user', superHeaders, { userId: users.deactivated!.id, orgId: acme.id, reason: REASON }, 409, 'This user is deactivated and cannot be impersonated.'],
      ['a suspended organization', superHeaders, { userId: users.closed!.id, orgId: suspended.id, reason: REASON }, 409, 'This organization is suspended: its members cannot be impersonated.'],
      ['a non-member', superHeaders, { userId: users.stranger!.id, orgId: acme.id, reason: REASON }, 404, 'This user is not a member of the organization'],
      ['an unknown user', superHeaders, { userId: uuid, orgId: acme.id, reason: REASON }, 404, 'User not found'],
      ['an unknown organization', superHeaders, { userId: users.admin!.id, orgId: uuid, reason: REASON }, 404, 'Organization not found'],
      ['a malformed user id', superHeaders, { userId: 'nope', orgId: acme.id, reason: REASON }, 404, 'User not found'],
      ['a malformed organization id', superHeaders, { userId: users.admin!.id, orgId: "1' or 1=1", reason: REASON }, 404, 'Organization not found'],
      ['a platform owner', ownerHeaders, { userId: users.admin!.id, orgId: acme.id, reason: REASON }, 403, 'Only super admins and platform support can act as a member.'],
      ['an org admin', memberHeaders, { userId: users.dock!.id, orgId: acme.id, reason: REASON }, 403, 'Platform administrator access required'],
    ];
    for (const [label, headers, payload, status, message] of cases) {
      const res = await start(headers, payload);
      expect(res.status, label).toBe(status);
      expect(res.body.error.message, label).toBe(message);
    }
    expect((await start({}, { userId: users.admin!.id, orgId: acme.id, reason: REASON })).status).toBe(401);
    // Sign-ins above wrote their own entries; the refusals wrote none and opened no session.
    const after = await counts();
    expect(after.sessions).toBe(before.sessions);
    expect(after.entries).toBe(before.entries);
    // Ending without impersonating is refused too.
    const notActing = await call('POST', '/api/impersonations/end', memberHeaders);
    expect(notActing.status).toBe(409);
    expect(notActing.body.error.message).toBe('You are not acting as another user.');
  });

  it('ends the impersonation when the organization is suspended', async () => {
    const res = await start(superHeaders, { userId: users.admin!.id, orgId: acme.id, reason: REASON });
    const suspend = await call('POST', `/api/platform/organizations/${acme.id}/suspend`, superHeaders, { reason: 'Unpaid invoices' });
    expect(suspend.status, JSON.stringify(suspend.body)).toBe(200);
    try {
      expect((await call('GET', '/api/auth/user', bearer(res.body))).status).toBe(401);
    } finally {
      await call('POST', `/api/platform/organizations/${acme.id}/reactivate`, superHeaders, {});
    }
  });
});
