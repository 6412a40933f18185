import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../domain/constants';
import type { RealtimeEvent } from '../../../domain/realtime';
import { seedDemoDataIfEmpty } from '../../db/seed';
import { addMember, createOrg, createUser, TEST_PASSWORD } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { signAccessToken } from '../../auth/tokens';

// Settings › Team and the invitation link: an invitation e-mailed through the outbox, accepted
// from the link in that e-mail, and the new dockmaster signing in at the gate; resend, revoke,
// case-blind employee IDs, the last admin, deactivation ending sessions at once — and nothing of
// it reachable from outside the organization.

const NOW = '2026-11-23T00:00:00Z';
const EMPLOYEE_ID_TAKEN = 'This employee ID is already used in your organization';

type Headers = Record<string, string>;

describe.each(databaseKinds)('team and invitations API on %s', (kind) => {
  let t: TestApp;
  let acmeId: string;
  let harbourId: string;
  let northSiteId: string;
  let admin: Headers;
  let dock: Headers;
  let security: Headers;
  let harbourAdmin: Headers;
  let superAdmin: Headers;
  let seq = 0;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const count = async (text: string, params?: unknown[]) => Number((await query<{ n: number }>(text, params))[0]!.n);

  /** A session of the user, signed in to `orgId` (as the org admin and dockmaster logins do). */
  const sessionFor = async (email: string, orgId: string | null = acmeId): Promise<Headers> => {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [email]);
    const [session] = await query<{ id: string }>(
      `insert into auth_sessions (user_id, org_id, expires_at) values ($1, $2, $3::timestamptz + interval '1 day') returning id`,
      [user!.id, orgId, t.clock.now().toISOString()],
    );
    const { token } = await signAccessToken(t.ctx, { userId: user!.id, sessionId: session!.id, email });
    return { authorization: `Bearer ${token}` };
  };

  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Headers = {}, payload?: unknown) => {
    const response = await t.app.inject({ method, url, headers, payload: payload as never });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson ? response.json() : response.body };
  };
  const url = (path: string, orgId = acmeId) => `/api/orgs/${orgId}${path}`;
  const uniqueEmail = (tag: string) => `${tag}-${++seq}@example.test`;

  /** The token of the newest invitation e-mail to `email` (delivering due mail first). */
  const tokenFromMail = async (email: string) => {
    const mail = (await t.outbox()).filter((m) => [m.to].flat().some((a) => a?.text.toLowerCase().includes(email.toLowerCase()))).at(-1);
    expect(mail, `an e-mail to ${email}`).toBeDefined();
    const match = mail!.text!.match(/http:\/\/localhost:3000\/accept-invitation\?token=([A-Za-z0-9_-]+)/);
    expect(match, mail!.text).not.toBeNull();
    return { token: match![1]!, mail: mail! };
  };

  const invite = (body: Record<string, unknown>, headers = admin, orgId = acmeId) => call('POST', url('/team/invitations', orgId), headers, body);

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    await seedDemoDataIfEmpty(t.ctx);
    acmeId = (await query<{ id: string }>(`select id from organizations where slug = 'acme-logistics'`))[0]!.id;
    harbourId = (await query<{ id: string }>(`select id from organizations where slug = 'harbour-foods'`))[0]!.id;
    northSiteId = (await query<{ id: string }>(`select id from sites where org_id = $1 and name = 'North Terminal'`, [acmeId]))[0]!.id;
    admin = await sessionFor('admin@acme.test');
    dock = await sessionFor('dock@acme.test');
    security = await sessionFor('security@acme.test');
    harbourAdmin = await sessionFor('admin@harbour.test', harbourId);
    superAdmin = await sessionFor('super@baywise.test', null);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('the invitation flow', () => {
    it('invites a dockmaster, who accepts from the e-mail and signs in at the gate with employee ID and password', async () => {
      const events: RealtimeEvent[] = [];
      const unsubscribe = t.ctx.realtime!.subscribe!({ orgId: acmeId, siteId: null }, (event) => events.push(event));
      const email = uniqueEmail('Nia.Dock');
      const created = await invite({ email, fullName: 'Nia Dock', role: 'dockmaster', employeeId: 'DM-77' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        email: email.toLowerCase(),
        fullName: 'Nia Dock',
        role: 'dockmaster',
        employeeId: 'DM-77',
        invitedByEmail: 'admin@acme.test',
        expiresAt: '2026-11-30T00:00:00.000Z',
        isExpired: false,
      });
      const [stored] = await query<{ token_hash: string }>(`select token_hash from org_invitations where id = $1`, [created.body.id]);
      expect(await count(`select count(*)::int as n from audit_log where action = 'invitation.created' and resource_id = $1 and org_id = $2`, [created.body.id, acmeId])).toBe(1);

      const team = await call('GET', url('/team'), admin);
      expect(team.status).toBe(200);
      expect(team.body.canManage).toBe(true);
      expect(team.body.invitations.map((i: { id: string }) => i.id)).toContain(created.body.id);

      // The e-mail carries the link; the database only the token's hash.
      const { token, mail } = await tokenFromMail(email);
      expect(mail.subject).toBe("You're invited to join Acme Logistics on Baywise");
      expect(mail.text).toContain('as Dockmaster');
      expect(mail.text).toContain('Employee ID: DM-77');
      expect(stored!.token_hash).not.toBe(token);
      expect(stored!.token_hash).toMatch(/^[0-9a-f]{64}$/);

      const info = await call('GET', `/api/invitations/${token}`);
      expect(info.status).toBe(200);
      expect(info.body).toMatchObject({ orgName: 'Acme Logistics', email: email.toLowerCase(), role: 'dockmaster', employeeId: 'DM-77', hasAccount: false });

      // The sign-up password rules apply.
      const weak = await call('POST', `/api/invitations/${token}/accept`, {}, { fullName: 'Nia Dock', password: 'short' });
      expect(weak.status).toBe(400);
      expect(weak.body.error.details).toContainEqual({ path: 'password', message: 'Password should be at least 8 characters' });
      const noPassword = await call('POST', `/api/invitations/${token}/accept`, {}, { fullName: 'Nia Dock' });
      expect(noPassword.status).toBe(400);
      expect(noPassword.body.error.details).toEqual([{ path: 'password', message: 'Password is required' }]);

      const accepted = await call('POST', `/api/invitations/${token}/accept`, {}, { fullName: 'Nia Dock', password: 'Gate-keeper-9' });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toEqual({ orgName: 'Acme Logistics', email: email.toLowerCase(), role: 'dockmaster', employeeId: 'DM-77', signInPath: '/dockmaster' });
      const [user] = await query<{ email_confirmed_at: Date | null; full_name: string }>(`select email_confirmed_at, full_name from users where lower(email) = lower($1)`, [email]);
      expect(user).toMatchObject({ full_name: 'Nia Dock' });
      expect(user!.email_confirmed_at).not.toBeNull();
      expect(await count(`select count(*)::int as n from audit_log where action = 'invitation.accepted' and org_id = $1`, [acmeId])).toBeGreaterThanOrEqual(1);

      // The link works once.
      const again = await call('GET', `/api/invitations/${token}`);
      expect(again.status).toBe(404);
      expect(again.body.error.message).toMatch(/^This invitation link is invalid or has expired/);
      expect((await call('POST', `/api/invitations/${token}/accept`, {}, { fullName: 'X', password: 'Gate-keeper-9' })).status).toBe(404);

      // At the gate: site, employee ID (any case) and password.
      const signIn = await call('POST', '/api/auth/dockmaster/token', {}, { siteId: northSiteId, employeeId: 'dm-77', password: 'Gate-keeper-9' });
      expect(signIn.status).toBe(200);
      const newDock = { authorization: `Bearer ${signIn.body.access_token}` };
      const asDock = await call('GET', url('/team'), newDock);
      expect(asDock.status).toBe(200);
      expect(asDock.body.canManage).toBe(false);
      const me = asDock.body.members.find((m: { email: string }) => m.email === email.toLowerCase());
      expect(me).toMatchObject({ fullName: 'Nia Dock', role: 'dockmaster', employeeId: 'DM-77', active: true, isYou: true, lastSignInAt: '2026-11-23T00:00:00.000Z' });
      expect(asDock.body.invitations.map((i: { id: string }) => i.id)).not.toContain(created.body.id);
      // A dockmaster reads the team but changes nothing.
      expect((await invite({ email: uniqueEmail('x'), role: 'org_admin' }, newDock)).status).toBe(403);

      unsubscribe();
      expect(events.filter((e) => e.entity === 'member').map((e) => e.action)).toEqual(['invited', 'joined']);
    });

    it('adds an existing account to the organization without touching its password', async () => {
      const created = await invite({ email: 'Admin@Harbour.test', role: 'org_admin' });
      expect(created.status).toBe(201);
      const { token } = await tokenFromMail('admin@harbour.test');
      const info = await call('GET', `/api/invitations/${token}`);
      expect(info.body).toMatchObject({ orgName: 'Acme Logistics', email: 'admin@harbour.test', role: 'org_admin', hasAccount: true });
      const [before] = await query<{ password_hash: string }>(`select password_hash from users where email = 'admin@harbour.test'`);
      const accepted = await call('POST', `/api/invitations/${token}/accept`, {}, {});
      expect(accepted.status).toBe(200);
      expect(accepted.body.signInPath).toBe('/orgadmin');
      const [after] = await query<{ password_hash: string }>(`select password_hash from users where email = 'admin@harbour.test'`);
      expect(after!.password_hash).toBe(before!.password_hash);
      const signIn = await call('POST', '/api/auth/token?grant_type=password', {}, { email: 'admin@harbour.test', password: DEMO_PASSWORD, orgId: acmeId });
      expect(signIn.status).toBe(200);
      // Leave Acme as it was for the other tests: one admin.
      const team = await call('GET', url('/team'), admin);
      const membership = team.body.members.find((m: { email: string }) => m.email === 'admin@harbour.test');
      expect((await call('POST', url(`/team/members/${membership.id}/deactivate`), admin)).status).toBe(200);
    });

    it('resend sends a new link and the old one stops working; an expired link is refused until resent', async () => {
      const email = uniqueEmail('resend');
      const created = await invite({ email, role: 'security', employeeId: 'SEC-9' });
      const { token: first } = await tokenFromMail(email);
      t.clock.advance(3_600_000);
      try {
        // Access tokens live an hour: a fresh session at each step.
        const resent = await call('POST', url(`/team/invitations/${created.body.id}/resend`), await sessionFor('admin@acme.test'));
        expect(resent.status).toBe(200);
        expect(resent.body).toMatchObject({ id: created.body.id, lastSentAt: '2026-11-23T01:00:00.000Z', expiresAt: '2026-11-30T01:00:00.000Z' });
        const { token: second } = await tokenFromMail(email);
        expect(second).not.toBe(first);
        expect((await call('GET', `/api/invitations/${first}`)).status).toBe(404);
        expect((await call('POST', `/api/invitations/${first}/accept`, {}, { fullName: 'Old Link', password: 'Gate-keeper-9' })).status).toBe(404);
        expect((await call('GET', `/api/invitations/${second}`)).status).toBe(200);
        expect(await count(`select count(*)::int as n from audit_log where action = 'invitation.resent' and resource_id = $1`, [created.body.id])).toBe(1);

        t.clock.advance(7 * 86_400_000);
        expect((await call('GET', `/api/invitations/${second}`)).status).toBe(404);
        const later = await sessionFor('admin@acme.test');
        const listed = (await call('GET', url('/team'), later)).body.invitations.find((i: { id: string }) => i.id === created.body.id);
        expect(listed.isExpired).toBe(true);
        expect((await call('POST', url(`/team/invitations/${created.body.id}/resend`), later)).status).toBe(200);
        const { token: third } = await tokenFromMail(email);
        expect((await call('GET', `/api/invitations/${third}`)).status).toBe(200);
      } finally {
        t.clock.set(NOW);
      }
    });

    it('revokes an invitation after which its link is refused', async () => {
      const email = uniqueEmail('revoke');
      const created = await invite({ email, role: 'dockmaster', employeeId: 'REV-1' });
      const { token } = await tokenFromMail(email);
      const revoked = await call('DELETE', url(`/team/invitations/${created.body.id}`), admin);
      expect(revoked.status).toBe(204);
      expect((await call('GET', `/api/invitations/${token}`)).status).toBe(404);
      expect((await call('POST', `/api/invitations/${token}/accept`, {}, { fullName: 'Too Late', password: 'Gate-keeper-9' })).status).toBe(404);
      const team = await call('GET', url('/team'), admin);
      expect(team.body.invitations.map((i: { id: string }) => i.id)).not.toContain(created.body.id);
      expect((await call('DELETE', url(`/team/invitations/${created.body.id}`), admin)).status).toBe(409);
      expect((await call('POST', url(`/team/invitations/${created.body.id}/resend`), admin)).status).toBe(409);
      expect(await count(`select count(*)::int as n from audit_log where action = 'invitation.revoked' and resource_id = $1`, [created.body.id])).toBe(1);
      // The e-mail address and the employee ID are free again.
      expect((await invite({ email, role: 'dockmaster', employeeId: 'rev-1' })).status).toBe(201);
    });
  });

  describe('validation', () => {
    it('refuses an employee ID already used by a member or a pending invitation, whatever its case, and changes nothing', async () => {
      const pending = await invite({ email: uniqueEmail('pending'), role: 'dockmaster', employeeId: 'PEND-42' });
      expect(pending.status).toBe(201);
      await t.deliverMail();
      const before = {
        invitations: await count(`select count(*)::int as n from org_invitations`),
        mail: await count(`select count(*)::int as n from mail_outbox`),
        audit: await count(`select count(*)::int as n from audit_log`),
      };
      // D1001 is the demo dockmaster's.
      for (const employeeId of ['d1001', 'pend-42', ' Pend-42 ']) {
        const res = await invite({ email: uniqueEmail('dup'), role: 'dockmaster', employeeId });
        expect(res.status, employeeId).toBe(400);
        expect(res.body.error.details).toEqual([{ path: 'employeeId', message: EMPLOYEE_ID_TAKEN }]);
      }
      // A member's new employee ID is checked the same way.
      const team = await call('GET', url('/team'), admin);
      const securityMember = team.body.members.find((m: { email: string }) => m.email === 'security@acme.test');
      const patched = await call('PATCH', url(`/team/members/${securityMember.id}`), admin, { employeeId: 'pEnD-42' });
      expect(patched.status).toBe(400);
      expect(patched.body.error.details).toEqual([{ path: 'employeeId', message: EMPLOYEE_ID_TAKEN }]);
      const patchedToMember = await call('PATCH', url(`/team/members/${securityMember.id}`), admin, { employeeId: 'D1001' });
      expect(patchedToMember.status).toBe(400);
      expect(
        await count(`select count(*)::int as n from org_memberships where id = $1 and employee_id = 'S1001'`, [securityMember.id]),
      ).toBe(1);
      expect({
        invitations: await count(`select count(*)::int as n from org_invitations`),
        mail: await count(`select count(*)::int as n from mail_outbox`),
        audit: await count(`select count(*)::int as n from audit_log`),
      }).toEqual(before);

      // The same employee ID in another organization is fine.
      expect((await invite({ email: uniqueEmail('harbour'), role: 'dockmaster', employeeId: 'PEND-42' }, harbourAdmin, harbourId)).status).toBe(201);
    });

    it('lets only one of two racing writes take an employee ID', async () => {
      const team = await call('GET', url('/team'), admin);
      const securityMember = team.body.members.find((m: { email: string }) => m.email === 'security@acme.test');
      const results = await Promise.all([
        invite({ email: uniqueEmail('race-a'), role: 'dockmaster', employeeId: 'RACE-1' }),
        invite({ email: uniqueEmail('race-b'), role: 'dockmaster', employeeId: 'race-1' }),
        call('PATCH', url(`/team/members/${securityMember.id}`), admin, { employeeId: 'Race-1' }),
      ]);
      expect(results.filter((r) => r.status === 200 || r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 400)).toHaveLength(2);
      for (const loser of results.filter((r) => r.status === 400)) {
        expect(loser.body.error.details).toEqual([{ path: 'employeeId', message: EMPLOYEE_ID_TAKEN }]);
      }
      const holders =
        (await count(`select count(*)::int as n from org_memberships where org_id = $1 and lower(employee_id) = 'race-1'`, [acmeId])) +
        (await count(`select count(*)::int as n from org_invitations where org_id = $1 and lower(employee_id) = 'race-1' and revoked_at is null and accepted_at is null`, [acmeId]));
      expect(holders).toBe(1);
      // Give the security member their own ID back if they won.
      await call('PATCH', url(`/team/members/${securityMember.id}`), admin, { employeeId: 'S1001' });
    });

    it('refuses an e-mail that is already a member or invited, and a gate role without an employee ID', async () => {
      const member = await invite({ email: 'DOCK@acme.test', role: 'dockmaster', employeeId: 'NEW-1' });
      expect(member.status).toBe(400);
      expect(member.body.error.details).toEqual([{ path: 'email', message: 'This person is already a member of your organization' }]);
      const email = uniqueEmail('twice');
      expect((await invite({ email, role: 'org_admin' })).status).toBe(201);
      const twice = await invite({ email: email.toUpperCase(), role: 'org_admin' });
      expect(twice.status).toBe(400);
      expect(twice.body.error.details[0].path).toBe('email');
      const noId = await invite({ email: uniqueEmail('noid'), role: 'security', employeeId: '  ' });
      expect(noId.status).toBe(400);
      expect(noId.body.error.details).toContainEqual({ path: 'employeeId', message: 'Employee ID is required for dockmasters and security staff' });
      const badRole = await invite({ email: uniqueEmail('role'), role: 'super_admin' });
      expect(badRole.status).toBe(400);
      expect(badRole.body.error.details).toContainEqual({ path: 'role', message: 'Please choose a role' });
      // Changing a member to a gate role needs an employee ID too.
      const team = await call('GET', url('/team'), admin);
      const me = team.body.members.find((m: { email: string }) => m.email === 'admin@acme.test');
      expect(me.employeeId).toBeNull();
      const toGate = await call('PATCH', url(`/team/members/${me.id}`), admin, { role: 'security' });
      expect(toGate.status).toBe(400);
      expect(toGate.body.error.details).toEqual([{ path: 'employeeId', message: 'Employee ID is required for dockmasters and security staff' }]);
    });

    it('answers a null, list or multipart body with a 4xx and changes nothing (issue 21)', async () => {
      const team = await call('GET', url('/team'), admin);
      const dockMember = team.body.members.find((m: { email: string }) => m.email === 'dock@acme.test');
      const invitationsBefore = await count(`select count(*)::int as n from org_invitations where org_id = $1`, [acmeId]);
      const send = (method: 'POST' | 'PATCH', path: string, contentType: string, payload: string) =>
        t.app.inject({ method, url: url(path), headers: { ...admin, 'content-type': contentType }, payload });
      const multipart = '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\nmp@example.test\r\n--xyz\r\nContent-Disposition: form-data; name="role"\r\n\r\norg_admin\r\n--xyz--\r\n';
      for (const [method, path] of [['POST', '/team/invitations'], ['PATCH', `/team/members/${dockMember.id}`]] as const) {
        for (const payload of ['null', '[]', '"text"', '42']) {
          const res = await send(method, path, 'application/json', payload);
          expect(res.statusCode, `${method} ${path} ${payload}`).toBe(400);
          expect(res.json().error.code).toBe('validation_error');
        }
        const res = await send(method, path, 'multipart/form-data; boundary=xyz', multipart);
        expect(res.statusCode, `${method} ${path} multipart`).toBe(415);
        expect(res.json().error.message).toBe('This request takes a JSON body (Content-Type: application/json), not a multipart form');
      }
      expect(await count(`select count(*)::int as n from org_invitations where org_id = $1`, [acmeId])).toBe(invitationsBefore);
      const after = await call('GET', url('/team'), admin);
      expect(after.body.members.find((m: { id: string }) => m.id === dockMember.id)).toEqual(dockMember);
      expect(await count(`select count(*)::int as n from error_events`)).toBe(0);
    });
  });

  describe('the last admin', () => {
    it('cannot be demoted or deactivated; with a second admin both work', async () => {
      const org = await createOrg(t.ctx.database, { name: `Solo Freight ${++seq}` });
      const first = await createUser(t.ctx.database, { email: uniqueEmail('solo-admin') });
      const firstMembership = await addMember(t.ctx.database, org.id, first.id, 'org_admin');
      const firstHeaders = await sessionFor(first.email, org.id);

      const demote = await call('PATCH', url(`/team/members/${firstMembership.id}`, org.id), firstHeaders, { role: 'dockmaster', employeeId: 'SOLO-1' });
      expect(demote.status).toBe(409);
      expect(demote.body.error).toMatchObject({ code: 'last_admin', message: expect.stringContaining('at least one active organization admin') });
      // Platform staff change an organization only by acting as a member (decision 029).
      const deactivate = await call('POST', url(`/team/members/${firstMembership.id}/deactivate`, org.id), superAdmin);
      expect(deactivate.status).toBe(403);
      expect(deactivate.body.error.code).toBe('platform_read_only');
      const self = await call('POST', url(`/team/members/${firstMembership.id}/deactivate`, org.id), firstHeaders);
      expect(self.status).toBe(409);
      expect(await count(`select count(*)::int as n from org_memberships where id = $1 and role = 'org_admin' and active`, [firstMembership.id])).toBe(1);

      // A deactivated admin does not count.
      const second = await createUser(t.ctx.database, { email: uniqueEmail('solo-second') });
      const secondMembership = await addMember(t.ctx.database, org.id, second.id, 'org_admin', { active: false });
      expect((await call('POST', url(`/team/members/${firstMembership.id}/deactivate`, org.id), firstHeaders)).status).toBe(409);
      expect((await call('POST', url(`/team/members/${secondMembership.id}/reactivate`, org.id), firstHeaders)).status).toBe(200);

      const demoted = await call('PATCH', url(`/team/members/${firstMembership.id}`, org.id), firstHeaders, { role: 'dockmaster', employeeId: 'SOLO-1' });
      expect(demoted.status).toBe(200);
      expect(demoted.body).toMatchObject({ role: 'dockmaster', employeeId: 'SOLO-1', isYou: true });
      // Now the second is the last one.
      expect((await call('POST', url(`/team/members/${secondMembership.id}/deactivate`, org.id), await sessionFor(second.email, org.id))).status).toBe(409);
      expect(await count(`select count(*)::int as n from audit_log where action = 'member.updated' and resource_id = $1`, [firstMembership.id])).toBe(1);
    });
  });

  describe('deactivation', () => {
    it("ends the member's sessions at once: the next request with their token is refused, and they cannot sign in", async () => {
      const email = uniqueEmail('leaver');
      const user = await createUser(t.ctx.database, { email, fullName: 'Lee Leaver' });
      const membership = await addMember(t.ctx.database, acmeId, user.id, 'dockmaster', { employeeId: 'LEAVE-1' });
      const gate = await call('POST', '/api/auth/dockmaster/token', {}, { siteId: northSiteId, employeeId: 'LEAVE-1', password: TEST_PASSWORD });
      expect(gate.status).toBe(200);
      const headers = { authorization: `Bearer ${gate.body.access_token}` };
      const plain = await call('POST', '/api/auth/token?grant_type=password', {}, { email, password: TEST_PASSWORD });
      const plainHeaders = { authorization: `Bearer ${plain.body.access_token}` };
      expect((await call('GET', url('/bookings'), headers)).status).toBe(200);

      const res = await call('POST', url(`/team/members/${membership.id}/deactivate`), admin);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ active: false, deactivatedAt: '2026-11-23T00:00:00.000Z' });

      expect((await call('GET', url('/bookings'), headers)).status).toBe(401);
      expect((await call('GET', '/api/auth/user', headers)).status).toBe(401);
      // No other membership: every session ended, including one without an organization.
      expect((await call('GET', '/api/auth/user', plainHeaders)).status).toBe(401);
      expect((await call('GET', url('/bookings'), plainHeaders)).status).toBe(401);
      expect(await count(`select count(*)::int as n from auth_sessions where user_id = $1 and revoked_reason = 'membership_deactivated'`, [user.id])).toBe(2);
      expect((await call('POST', '/api/auth/token?grant_type=refresh_token', {}, { refresh_token: gate.body.refresh_token })).status).toBe(400);

      const again = await call('POST', '/api/auth/dockmaster/token', {}, { siteId: northSiteId, employeeId: 'LEAVE-1', password: TEST_PASSWORD });
      expect(again.status).toBe(401);
      const asAdmin = await call('POST', '/api/auth/token?grant_type=password', {}, { email, password: TEST_PASSWORD, orgId: acmeId });
      expect(asAdmin.status).toBe(403);
      expect(await count(`select count(*)::int as n from audit_log where action = 'member.deactivated' and resource_id = $1`, [membership.id])).toBe(1);

      // Reactivated, they sign in again.
      expect((await call('POST', url(`/team/members/${membership.id}/reactivate`), admin)).body).toMatchObject({ active: true, deactivatedAt: null });
      expect((await call('POST', '/api/auth/dockmaster/token', {}, { siteId: northSiteId, employeeId: 'leave-1', password: TEST_PASSWORD })).status).toBe(200);
    });

    it('keeps the sessions of another organization the person still belongs to', async () => {
      const email = uniqueEmail('two-orgs');
      const user = await createUser(t.ctx.database, { email });
      const acmeMembership = await addMember(t.ctx.database, acmeId, user.id, 'dockmaster', { employeeId: 'TWO-1' });
      await addMember(t.ctx.database, harbourId, user.id, 'org_admin');
      const inAcme = await sessionFor(email, acmeId);
      const inHarbour = await sessionFor(email, harbourId);
      expect((await call('POST', url(`/team/members/${acmeMembership.id}/deactivate`), admin)).status).toBe(200);
      expect((await call('GET', url('/team'), inAcme)).status).toBe(401);
      expect((await call('GET', url('/team', harbourId), inHarbour)).status).toBe(200);
      // Their Harbour session cannot reach Acme either.
      expect((await call('GET', url('/team'), inHarbour)).status).toBe(404);
    });
  });

  describe('tenant boundary', () => {
    it('answers outsiders 404, a dockmaster 403 on writes, anonymous callers 401', async () => {
      const created = await invite({ email: uniqueEmail('boundary'), role: 'org_admin' });
      const team = await call('GET', url('/team'), admin);
      const dockMember = team.body.members.find((m: { email: string }) => m.email === 'dock@acme.test');
      const invitationId = created.body.id;
      const writes: Array<{ method: 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown }> = [
        { method: 'POST', path: '/team/invitations', body: { email: uniqueEmail('w'), role: 'org_admin' } },
        { method: 'POST', path: `/team/invitations/${invitationId}/resend` },
        { method: 'DELETE', path: `/team/invitations/${invitationId}` },
        { method: 'PATCH', path: `/team/members/${dockMember.id}`, body: { employeeId: 'HACK-1' } },
        { method: 'POST', path: `/team/members/${dockMember.id}/deactivate` },
        { method: 'POST', path: `/team/members/${dockMember.id}/reactivate` },
      ];
      const routes: Array<{ method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown }> = [{ method: 'GET', path: '/team' }, ...writes];
      const callers: Array<{ who: string; headers: () => Headers; status: number }> = [
        { who: "another organization's admin", headers: () => harbourAdmin, status: 404 },
        { who: 'security staff of the organization', headers: () => security, status: 404 },
        { who: 'anonymous', headers: () => ({}), status: 401 },
        { who: 'a forged token', headers: () => ({ authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x' }), status: 401 },
      ];
      for (const route of routes) {
        for (const caller of callers) {
          const res = await call(route.method, url(route.path), caller.headers(), route.body);
          expect({ route: `${route.method} ${route.path}`, who: caller.who, status: res.status }).toEqual({
            route: `${route.method} ${route.path}`,
            who: caller.who,
            status: caller.status,
          });
          expect(JSON.stringify(res.body)).not.toContain('dock@acme.test');
        }
      }
      expect((await call('GET', url('/team'), dock)).status).toBe(200);
      for (const route of writes) expect((await call(route.method, url(route.path), dock, route.body)).status, route.path).toBe(403);
      // Acme's ids through Harbour's own prefix, and ids that are not ids.
      for (const route of writes.slice(1)) expect((await call(route.method, url(route.path, harbourId), harbourAdmin, route.body)).status).toBe(404);
      expect((await call('POST', url('/team/members/not-a-uuid/deactivate'), admin)).status).toBe(404);
      expect((await call('DELETE', url('/team/invitations/1'), admin)).status).toBe(404);
      expect((await call('GET', '/api/invitations/not-a-token')).status).toBe(404);
      // Nothing moved.
      expect(await count(`select count(*)::int as n from org_memberships where id = $1 and active and employee_id = 'D1001'`, [dockMember.id])).toBe(1);
      expect(await count(`select count(*)::int as n from org_invitations where id = $1 and revoked_at is null`, [invitationId])).toBe(1);
    });
  });
});
