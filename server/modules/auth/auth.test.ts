import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { addMember, bearer, createOrg, createSite, createUser, signIn, TEST_PASSWORD } from '../../test/fixtures';
import { SignJWT } from 'jose';
import { FREE_ACCOUNT_FAILURES } from '../../auth/sign-in-throttle';

describe.each(databaseKinds)('auth API on %s', (kind) => {
  let t: TestApp;
  let acme: { id: string };
  let site: { id: string; orgId: string };
  let suspended: { id: string };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: '2026-11-23T09:00:00Z' });
    const db = t.ctx.database;
    acme = await createOrg(db, { name: 'Acme Test' });
    suspended = await createOrg(db, { name: 'Suspended Co', status: 'suspended' });
    site = await createSite(db, acme.id, { name: 'North' });
    const admin = await createUser(db, { email: 'admin@acme.example' });
    await addMember(db, acme.id, admin.id, 'org_admin');
    const dock = await createUser(db, { email: 'dock@acme.example' });
    await addMember(db, acme.id, dock.id, 'dockmaster', { employeeId: 'D1001' });
    const former = await createUser(db, { email: 'former@acme.example' });
    await addMember(db, acme.id, former.id, 'dockmaster', { active: false, employeeId: 'D2002' });
    const guard = await createUser(db, { email: 'guard@acme.example' });
    await addMember(db, acme.id, guard.id, 'security', { employeeId: 'S3003' });
    const suspendedAdmin = await createUser(db, { email: 'admin@suspended.example' });
    await addMember(db, suspended.id, suspendedAdmin.id, 'org_admin');
    await createUser(db, { email: 'super@platform.example', platformRole: 'super_admin' });
    await createUser(db, { email: 'unconfirmed@acme.example', emailConfirmedAt: null });
  });
  afterAll(() => t.close());

  const token = (payload: object, grant = 'password') =>
    t.app.inject({ method: 'POST', url: `/api/auth/token?grant_type=${grant}`, payload });
  const role = async (accessToken: string) =>
    (
      await t.app.inject({ method: 'POST', url: '/api/rpc/get_current_user_role', headers: { authorization: `Bearer ${accessToken}` } })
    ).json();

  describe('password sign-in', () => {
    it('returns a session with access and refresh tokens and the role', async () => {
      const res = await token({ email: 'Admin@Acme.example', password: TEST_PASSWORD });
      expect(res.statusCode).toBe(200);
      const session = res.json();
      expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600, user: { email: 'admin@acme.example' } });
      expect(session.expires_at).toBe(Math.floor(Date.parse('2026-11-23T09:00:00Z') / 1000) + 3600);
      expect(await role(session.access_token)).toBe('org_admin');
    });

    it('answers the same generic message for a wrong password and an unknown e-mail', async () => {
      const wrong = await token({ email: 'admin@acme.example', password: 'nope' });
      const unknown = await token({ email: 'nobody@acme.example', password: 'nope' });
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(401);
        expect(res.json().error).toMatchObject({ code: 'invalid_credentials', message: 'Invalid login credentials' });
      }
    });

    it('refuses missing fields with a clear message', async () => {
      const res = await token({ email: '', password: '' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toContain('Email is required');
      expect(res.json().error.message).toContain('Password is required');
      expect((await token({}, 'client_credentials')).statusCode).toBe(400);
    });

    it('refuses an unconfirmed e-mail', async () => {
      const res = await token({ email: 'unconfirmed@acme.example', password: TEST_PASSWORD });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('email_not_confirmed');
    });

    it('gives a platform admin their platform role', async () => {
      const session = await signIn(t.app, 'super@platform.example');
      expect(await role(session.access_token)).toBe('super_admin');
    });

    it('gives a user whose only membership is inactive no role', async () => {
      const session = await signIn(t.app, 'former@acme.example');
      expect(await role(session.access_token)).toBeNull();
    });
  });

  describe('organization sign-in', () => {
    it('signs in a member of the chosen organization', async () => {
      const res = await token({ email: 'admin@acme.example', password: TEST_PASSWORD, orgId: acme.id });
      expect(res.statusCode).toBe(200);
    });

    it('refuses an organization the user does not belong to', async () => {
      const res = await token({ email: 'admin@acme.example', password: TEST_PASSWORD, orgId: suspended.id });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('no_membership');
    });

    it('refuses an inactive membership', async () => {
      const res = await token({ email: 'former@acme.example', password: TEST_PASSWORD, orgId: acme.id });
      expect(res.statusCode).toBe(403);
    });

    it('refuses a suspended organization', async () => {
      const res = await token({ email: 'admin@suspended.example', password: TEST_PASSWORD, orgId: suspended.id });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatchObject({ code: 'org_suspended' });
    });

    it('tells a member of only suspended organizations at the e-mail sign-in why, and whom to contact', async () => {
      // Without a suspension on record or a support contact: the platform administrator.
      const bare = await token({ email: 'admin@suspended.example', password: TEST_PASSWORD });
      expect(bare.statusCode).toBe(403);
      expect(bare.json().error).toMatchObject({ code: 'org_suspended', message: 'Suspended Co is suspended. To restore access, contact your Baywise platform administrator.' });
      expect(bare.json().access_token).toBeUndefined();

      // With the reason given when it was suspended and the platform's support contact.
      await t.ctx.database.query(
        `insert into audit_log (org_id, actor_email, action, resource_type, resource_id, details) values ($1, 'super@platform.example', 'organization.suspended', 'organization', $2, $3::jsonb)`,
        [suspended.id, suspended.id, JSON.stringify({ name: 'Suspended Co', reason: 'Invoice INV-0042 unpaid for 60 days' })],
      );
      const before = await t.ctx.database.query<{ value: unknown }>(`select value from platform_settings where key = 'platform.config'`);
      await t.ctx.database.query(
        `insert into platform_settings (key, value) values ('platform.config', $1::jsonb)
         on conflict (key) do update set value = platform_settings.value || excluded.value`,
        [JSON.stringify({ supportEmail: 'help@baywise.example', supportPhone: '+61 2 9000 0000' })],
      );
      try {
        const told = await token({ email: 'admin@suspended.example', password: TEST_PASSWORD });
        expect(told.statusCode).toBe(403);
        expect(told.json().error.message).toBe(
          'Suspended Co is suspended: Invoice INV-0042 unpaid for 60 days. To restore access, contact Baywise support at help@baywise.example or +61 2 9000 0000.',
        );
        // The same through the organization's own sign-in; a wrong password still tells nothing.
        const viaOrg = await token({ email: 'admin@suspended.example', password: TEST_PASSWORD, orgId: suspended.id });
        expect(viaOrg.json().error.message).toBe(told.json().error.message);
        const wrong = await token({ email: 'admin@suspended.example', password: 'not-the-password' });
        expect(wrong.statusCode).toBe(401);
        expect(wrong.body).not.toContain('Suspended Co');
      } finally {
        if (before[0]) await t.ctx.database.query(`update platform_settings set value = $1::jsonb where key = 'platform.config'`, [JSON.stringify(before[0].value)]);
        else await t.ctx.database.query(`delete from platform_settings where key = 'platform.config'`);
      }
    });
  });

  describe('dockmaster sign-in', () => {
    const dock = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/dockmaster/token', payload });

    it('checks employee ID and password at the chosen site', async () => {
      const res = await dock({ siteId: site.id, employeeId: 'd1001', password: TEST_PASSWORD });
      expect(res.statusCode).toBe(200);
      expect(await role(res.json().access_token)).toBe('dockmaster');
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(res.json()) });
      expect(me.json()).toMatchObject({ siteId: site.id, orgId: acme.id, role: 'dockmaster' });
    });

    it('lets security staff in at the gate with their own role', async () => {
      const res = await dock({ siteId: site.id, employeeId: 'S3003', password: TEST_PASSWORD });
      expect(res.statusCode).toBe(200);
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(res.json()) });
      expect(me.json()).toMatchObject({ siteId: site.id, orgId: acme.id, role: 'security' });
    });

    it('refuses a wrong password, an unknown employee ID and an inactive membership alike', async () => {
      for (const payload of [
        { siteId: site.id, employeeId: 'D1001', password: 'wrong' },
        { siteId: site.id, employeeId: 'D9999', password: TEST_PASSWORD },
        { siteId: site.id, employeeId: 'D2002', password: TEST_PASSWORD },
      ]) {
        const res = await dock(payload);
        expect(res.statusCode).toBe(401);
        expect(res.json().error.message).toBe('Invalid employee ID or password');
      }
    });

    it('refuses missing fields', async () => {
      const res = await dock({ siteId: '', employeeId: '', password: '' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toContain('Please choose a site');
    });
  });

  describe('sessions', () => {
    it('rotates refresh tokens and revokes the session when a spent one comes back', async () => {
      const first = await signIn(t.app, 'admin@acme.example');
      const refreshed = await token({ refresh_token: first.refresh_token }, 'refresh_token');
      expect(refreshed.statusCode).toBe(200);
      const second = refreshed.json();
      expect(second.refresh_token).not.toBe(first.refresh_token);

      t.clock.advance(60_000); // past the two-tabs grace
      const reuse = await token({ refresh_token: first.refresh_token }, 'refresh_token');
      expect(reuse.statusCode).toBe(400);
      expect(reuse.json().error.code).toBe('invalid_grant');
      // The whole session is gone: the newer refresh token and the access token stop working.
      expect((await token({ refresh_token: second.refresh_token }, 'refresh_token')).statusCode).toBe(400);
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(second) });
      expect(me.statusCode).toBe(401);
    });

    it('expires access tokens after their lifetime', async () => {
      const session = await signIn(t.app, 'admin@acme.example');
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(session) })).statusCode).toBe(200);
      t.clock.advance(3601_000);
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(session) })).statusCode).toBe(401);
      // …and the refresh token still renews it.
      expect((await token({ refresh_token: session.refresh_token }, 'refresh_token')).statusCode).toBe(200);
    });

    it('sign-out revokes the access token and the refresh token at once', async () => {
      const session = await signIn(t.app, 'admin@acme.example');
      const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(session) });
      expect(out.statusCode).toBe(204);
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(session) })).statusCode).toBe(401);
      expect((await token({ refresh_token: session.refresh_token }, 'refresh_token')).statusCode).toBe(400);
    });

    it('refuses a forged token', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { authorization: 'Bearer abc.def.ghi' } });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
    });
  });

  describe('sign-up, confirmation and recovery by e-mail', () => {
    it('confirms a new account through the e-mailed link, then signs in', async () => {
      const weak = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'new@haulier.example', password: 'short' } });
      expect(weak.statusCode).toBe(400);
      expect(weak.json().error.message).toContain('Password should be at least 8 characters');

      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { email: 'new@haulier.example', password: 'Longer-pass-1', fullName: 'New Person' },
      });
      expect(res.statusCode).toBe(200);
      expect((await token({ email: 'new@haulier.example', password: 'Longer-pass-1' })).json().error.code).toBe('email_not_confirmed');

      const mail = (await t.outbox()).find((m) => m.subject === 'Confirm your Baywise account');
      const link = mail?.text?.match(/\/auth\/confirm\?token=([\w-]+)/);
      expect(link).toBeTruthy();
      const verify = await t.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { type: 'signup', token: link![1] } });
      expect(verify.statusCode).toBe(200);
      expect((await token({ email: 'new@haulier.example', password: 'Longer-pass-1' })).statusCode).toBe(200);
      // A link works once.
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { type: 'signup', token: link![1] } })).statusCode).toBe(400);
    });

    it('resets a password through the e-mailed link and ends existing sessions', async () => {
      const user = await createUser(t.ctx.database, { email: 'forgetful@acme.example' });
      const before = await signIn(t.app, user.email);
      const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/recover', payload: { email: 'ghost@acme.example' } });
      const known = await t.app.inject({ method: 'POST', url: '/api/auth/recover', payload: { email: user.email } });
      expect(unknown.json()).toEqual(known.json());

      const mail = (await t.outbox()).find((m) => m.subject === 'Reset your Baywise password' && m.text?.includes('reset-password'));
      const resetToken = mail!.text!.match(/reset-password\?token=([\w-]+)/)![1];
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/auth/verify',
        payload: { type: 'recovery', token: resetToken, password: 'Brand-new-pass-2' },
      });
      expect(reset.statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(before) })).statusCode).toBe(401);
      expect((await token({ email: user.email, password: TEST_PASSWORD })).statusCode).toBe(401);
      expect((await token({ email: user.email, password: 'Brand-new-pass-2' })).statusCode).toBe(200);
    });

    it('does the same work for a known and an unknown address, and makes the token and mail off the request path (issue 21)', async () => {
      const user = await createUser(t.ctx.database, { email: 'timing@acme.example' });
      await t.deliverMail();
      const count = async (table: string) => (await t.ctx.database.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;
      // What each request does: its SQL (on PostgreSQL, every statement any pooled client sends), the rows it writes, the mail it sends.
      const send = vi.spyOn(t.ctx.mailer, 'send');
      const observe = async (email: string) => {
        const statements: string[] = [];
        const spy =
          kind === 'postgres'
            ? vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
                const q = args[0] as string | { text: string };
                statements.push(typeof q === 'string' ? q : q.text);
                return original.apply(this, args as never);
              } as never)
            : null;
        const before = { tokens: await count('auth_tokens'), outbox: await count('mail_outbox'), audit: await count('audit_log') };
        const response = await t.app.inject({ method: 'POST', url: '/api/auth/recover', payload: { email } });
        spy?.mockRestore();
        const after = { tokens: await count('auth_tokens'), outbox: await count('mail_outbox'), audit: await count('audit_log') };
        const { date: _date, 'x-request-id': _id, ...headers } = response.headers;
        return {
          answer: { status: response.statusCode, headers, body: response.body },
          statements: statements.map((text) => text.replace(/\s+/g, ' ')),
          written: { tokens: after.tokens - before.tokens, outbox: after.outbox - before.outbox, audit: after.audit - before.audit },
        };
      };
      const original = pg.Client.prototype.query;
      const known = await observe('Timing@Acme.example');
      const unknown = await observe('nobody-timing@acme.example');
      expect(unknown.answer).toEqual(known.answer);
      expect(known.answer.status).toBe(200);
      expect(unknown.statements).toEqual(known.statements);
      if (kind === 'postgres') expect(known.statements.length).toBeGreaterThan(2);
      // One queued mail and one audit entry each; no token yet, no mail sent while the caller waits.
      expect(known.written).toEqual({ tokens: 0, outbox: 1, audit: 1 });
      expect(unknown.written).toEqual(known.written);
      expect(send).not.toHaveBeenCalled();
      send.mockRestore();
      // The worker then makes the token and mails the account; for the unknown address it sends nothing.
      const mails = (await t.outbox()).filter((m) => m.subject === 'Reset your Baywise password');
      const to = mails.map((m) => (Array.isArray(m.to) ? m.to[0] : m.to)?.text);
      expect(to.filter((address) => address === user.email)).toHaveLength(1);
      expect(to).not.toContain('nobody-timing@acme.example');
      expect(await t.ctx.database.query(`select kind from auth_tokens where user_id = $1`, [user.id])).toEqual([{ kind: 'recovery' }]);
    });

    it('audits a recovery request, known e-mail or not, and answers alike', async () => {
      const user = await createUser(t.ctx.database, { email: 'audited@acme.example' });
      const entries = () =>
        t.ctx.database.query<{ actor_id: string | null; actor_role: string; resource_id: string | null; details: Record<string, unknown> }>(
          `select actor_id, actor_role, resource_id, details from audit_log where action = 'auth.password_recovery_requested' order by created_at`,
        );
      const before = (await entries()).length;
      const known = await t.app.inject({ method: 'POST', url: '/api/auth/recover', payload: { email: 'Audited@Acme.example' } });
      const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/recover', payload: { email: 'nobody-here@acme.example' } });
      expect(known.statusCode).toBe(200);
      expect(unknown.json()).toEqual(known.json());
      const written = (await entries()).slice(before);
      expect(written).toEqual([
        { actor_id: null, actor_role: 'public', resource_id: user.id, details: { email: 'audited@acme.example', accountFound: true } },
        { actor_id: null, actor_role: 'public', resource_id: null, details: { email: 'nobody-here@acme.example', accountFound: false } },
      ]);
    });

    it('refuses sign-up while the platform has it closed, and says so before anyone tries', async () => {
      const setSignUp = (open: boolean) =>
        t.ctx.database.query(
          `insert into platform_settings (key, value) values ('platform.config', $1::jsonb) on conflict (key) do update set value = excluded.value`,
          [JSON.stringify({ selfSignUpOpen: open })],
        );
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/settings' })).json()).toEqual({ signUpOpen: true });
      await setSignUp(false);
      try {
        expect((await t.app.inject({ method: 'GET', url: '/api/auth/settings' })).json()).toEqual({ signUpOpen: false });
        const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'closed@haulier.example', password: 'Longer-pass-1' } });
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toMatchObject({ code: 'signup_closed', message: 'Sign-up is closed. Ask your organization administrator to invite you.' });
        expect(await t.ctx.database.query(`select 1 from users where email = 'closed@haulier.example'`)).toHaveLength(0);
      } finally {
        await setSignUp(true);
      }
    });

    it('changes a password only with the current one', async () => {
      const user = await createUser(t.ctx.database, { email: 'changer@acme.example' });
      const session = await signIn(t.app, user.email);
      const bad = await t.app.inject({
        method: 'PUT',
        url: '/api/auth/user',
        headers: bearer(session),
        payload: { password: 'Another-pass-3', currentPassword: 'wrong' },
      });
      expect(bad.statusCode).toBe(400);
      const good = await t.app.inject({
        method: 'PUT',
        url: '/api/auth/user',
        headers: bearer(session),
        payload: { fullName: 'Changer', password: 'Another-pass-3', currentPassword: TEST_PASSWORD },
      });
      expect(good.statusCode).toBe(200);
      expect(good.json().user.fullName).toBe('Changer');
      expect((await token({ email: user.email, password: 'Another-pass-3' })).statusCode).toBe(200);
    });
  });

  describe('rate limits', () => {
    const attempt = (email: string, password: string, remoteAddress: string, cookie?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/token?grant_type=password',
        remoteAddress,
        headers: cookie ? { cookie } : {},
        payload: { email, password },
      });
    const deviceCookie = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0]!;

    it('slows an attacker down without locking the owner out of a recognised browser', async () => {
      await createUser(t.ctx.database, { email: 'target@acme.example' });
      // The owner signed in from their browser yesterday: it carries the recognised-device cookie.
      const earlier = await attempt('target@acme.example', TEST_PASSWORD, '198.51.100.7');
      expect(earlier.statusCode).toBe(200);
      const cookie = deviceCookie(earlier);
      expect(cookie).toMatch(/^bw_device=/);
      expect(String(earlier.headers['set-cookie'])).toContain('HttpOnly');

      // An attacker guesses from another address: after a few free tries each guess must wait longer.
      const answers: number[] = [];
      for (let i = 0; i < 8; i++) answers.push((await attempt('target@acme.example', `guess-${i}`, '203.0.113.66')).statusCode);
      expect(answers.slice(0, FREE_ACCOUNT_FAILURES)).toEqual(Array(FREE_ACCOUNT_FAILURES).fill(401));
      expect(answers.slice(FREE_ACCOUNT_FAILURES + 1)).toContain(429);
      const throttled = await attempt('target@acme.example', TEST_PASSWORD, '203.0.113.66');
      expect(throttled.statusCode).toBe(429);
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
      expect(throttled.json().error.code).toBe('too_many_attempts');

      // The owner's recognised browser signs in at once with the right password…
      expect((await attempt('target@acme.example', TEST_PASSWORD, '198.51.100.7', cookie)).statusCode).toBe(200);
      // …and a forged cookie is worth nothing.
      const forged = await attempt('target@acme.example', TEST_PASSWORD, '198.51.100.8', cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
      expect([200, 429]).toContain(forged.statusCode);
    });

    it('delays an unrecognised browser only for a while: the delay ends, nothing stays locked', async () => {
      await createUser(t.ctx.database, { email: 'second@acme.example' });
      for (let i = 0; i < FREE_ACCOUNT_FAILURES + 2; i++) await attempt('second@acme.example', `guess-${i}`, '203.0.113.67');
      const waiting = await attempt('second@acme.example', TEST_PASSWORD, '198.51.100.9');
      expect(waiting.statusCode).toBe(429);
      t.clock.advance(Number(waiting.headers['retry-after']) * 1000);
      expect((await attempt('second@acme.example', TEST_PASSWORD, '198.51.100.9')).statusCode).toBe(200);
    });

    it('counts a burst of parallel guesses one by one: only the free tries are checked', async () => {
      await createUser(t.ctx.database, { email: 'burst@acme.example' });
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => attempt('burst@acme.example', `guess-${i}`, `198.51.100.${100 + i}`)),
      );
      expect(answers.filter((res) => res.statusCode === 401)).toHaveLength(FREE_ACCOUNT_FAILURES);
      expect(answers.filter((res) => res.statusCode === 429)).toHaveLength(12 - FREE_ACCOUNT_FAILURES);
    });

    it('slows an address that guesses across many accounts', async () => {
      const answers: number[] = [];
      for (let i = 0; i < 14; i++) answers.push((await attempt(`spray${i}@acme.example`, 'Password1', '203.0.113.70')).statusCode);
      expect(answers).toContain(429);
      // Another address is not affected.
      expect((await attempt('admin@acme.example', TEST_PASSWORD, '198.51.100.20')).statusCode).toBe(200);
    });

    it('limits sign-in attempts per IP, and a forged X-Forwarded-For does not dodge it', async () => {
      let last = 0;
      for (let i = 0; i < 25 && last !== 429; i++) {
        last = (
          await t.app.inject({
            method: 'POST',
            url: '/api/auth/token?grant_type=password',
            remoteAddress: '203.0.113.9',
            headers: { 'x-forwarded-for': `10.0.${i}.1` },
            payload: { email: `x${i}@y.example`, password: 'p' },
          })
        ).statusCode;
      }
      expect(last).toBe(429);
    });

    it('marks token answers no-store and refuses a correctly signed token without an expiry', async () => {
      const res = await token({ email: 'admin@acme.example', password: TEST_PASSWORD });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['permissions-policy']).toContain('camera=(self)');
      const session = res.json();
      const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1], 'base64url').toString());
      const forever = await new SignJWT({ sid: claims.sid, email: claims.email })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(claims.iss)
        .setAudience(claims.aud)
        .setIssuedAt(claims.iat)
        .sign(t.ctx.authSecret);
      const user = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { authorization: `Bearer ${forever}` } });
      expect(user.statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(session) })).statusCode).toBe(200);
    });
  });
});
