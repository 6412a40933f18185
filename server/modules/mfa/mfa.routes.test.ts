import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import { addMember, createOrg, createUser, TEST_PASSWORD } from '../../test/fixtures';
import { totpCode } from './totp';

// Two-factor sign-in (decision 018): enrolment with a TOTP app, ten single-use recovery codes, the
// code asked at sign-in, replay refusal, throttling like the password, and the platform setting
// that makes enrolment mandatory. Frozen clock: every code is computed for the app's "now".

const NOW = '2026-11-23T09:00:00Z';
const STEP_MS = 30_000;

type Res = { status: number; body: any };

describe.each(databaseKinds)('two-factor sign-in on %s', (kind) => {
  let t: TestApp;
  let orgId: string;

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const call = async (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}, payload?: unknown): Promise<Res> => {
    const response = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: response.statusCode, body: response.body ? response.json() : undefined };
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const password = (email: string, extra: object = {}) => call('POST', '/api/auth/token?grant_type=password', {}, { email, password: TEST_PASSWORD, ...extra });
  const mfaGrant = (payload: object) => call('POST', '/api/auth/token?grant_type=mfa', {}, payload);
  const actions = async (userId: string) =>
    (await query<{ action: string }>(`select action from audit_log where actor_id::text = $1 or resource_id = $1 order by created_at, id`, [userId])).map((r) => r.action);
  const setPlatformConfig = (value: object) =>
    query(`insert into platform_settings (key, value) values ('platform.config', $1::jsonb) on conflict (key) do update set value = excluded.value`, [JSON.stringify(value)]);

  /** A platform user signed in (no two-factor yet): their token. */
  const platformUser = async (email: string, role = 'super_admin') => {
    const user = await createUser(t.ctx.database, { email, platformRole: role });
    const signedIn = await password(email);
    expect(signedIn.status).toBe(200);
    return { id: user.id, token: signedIn.body.access_token as string };
  };

  /** Enrols the user now; answers the secret and the recovery codes. */
  const enrol = async (token: string) => {
    const started = await call('POST', '/api/auth/mfa/enrol', bearer(token));
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const secret = started.body.secret as string;
    const confirmed = await call('POST', '/api/auth/mfa/confirm', bearer(token), { code: totpCode(secret, t.clock.now()) });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    return { secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    orgId = (await createOrg(t.ctx.database, { name: 'Two Factor Freight' })).id;
    const admin = await createUser(t.ctx.database, { email: 'admin@twofactor.test' });
    await addMember(t.ctx.database, orgId, admin.id, 'org_admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('enrols a platform user: otpauth URI and QR code, a code confirms it, ten recovery codes stored hashed', async () => {
    const { id, token } = await platformUser('enrol@platform.test');
    expect((await call('GET', '/api/auth/mfa', bearer(token))).body).toEqual({
      enrolled: false,
      confirmedAt: null,
      recoveryCodesLeft: 0,
      canEnrol: true,
      required: false,
    });
    const started = await call('POST', '/api/auth/mfa/enrol', bearer(token));
    expect(started.status).toBe(200);
    const { secret, otpauthUri, qrCodeDataUrl } = started.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Baywise:enrol@platform.test');
    expect(uri.searchParams.get('issuer')).toBe('Baywise');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(qrCodeDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qrCodeDataUrl.split(',')[1], 'base64').toString()).toContain('<svg');
    // Stored sealed: the table alone does not hold the secret.
    const [sealed] = await query<{ secret: string }>(`select secret from user_mfa where user_id = $1`, [id]);
    expect(sealed!.secret).toMatch(/^v1:/);
    expect(sealed!.secret).not.toContain(secret);

    // A wrong code: a clear message, nothing changed.
    const wrong = await call('POST', '/api/auth/mfa/confirm', bearer(token), { code: '000000' === totpCode(secret, t.clock.now()) ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'invalid_mfa_code', message: 'That code is not valid. Enter the current code from your authenticator app.' });
    expect((await call('GET', '/api/auth/mfa', bearer(token))).body.enrolled).toBe(false);
    const badFormat = await call('POST', '/api/auth/mfa/confirm', bearer(token), { code: '12ab' });
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.error.message).toBe('Enter the 6-digit code from your authenticator app');

    const confirmed = await call('POST', '/api/auth/mfa/confirm', bearer(token), { code: totpCode(secret, t.clock.now()) });
    expect(confirmed.status).toBe(200);
    const codes = confirmed.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const stored = await query<{ code_hash: string }>(`select code_hash from mfa_recovery_codes where user_id = $1`, [id]);
    expect(stored).toHaveLength(10);
    expect(stored.map((r) => r.code_hash).join()).not.toContain(codes[0]!.replace(/-/g, ''));
    expect((await call('GET', '/api/auth/mfa', bearer(token))).body).toMatchObject({ enrolled: true, recoveryCodesLeft: 10, confirmedAt: NOW.replace('Z', '.000Z') });
    // Once on, a new enrolment is refused until it is turned off.
    expect((await call('POST', '/api/auth/mfa/enrol', bearer(token))).status).toBe(409);
    expect(await actions(id)).toEqual(['auth.signed_in', 'mfa.enrolment_started', 'mfa.enrolled']);
  });

  it('keeps enrolment to platform roles', async () => {
    const signedIn = await password('admin@twofactor.test');
    const res = await call('POST', '/api/auth/mfa/enrol', bearer(signedIn.body.access_token));
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe('Two-factor sign-in is available to platform staff accounts.');
    expect((await call('GET', '/api/auth/mfa', bearer(signedIn.body.access_token))).body.canEnrol).toBe(false);
  });

  it('asks for the code at sign-in; a wrong or replayed code is refused, a right one opens the session once', async () => {
    const { id, token } = await platformUser('signin@platform.test');
    const { secret } = await enrol(token);
    const first = await password('signin@platform.test');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ mfa_required: true, challenge_token: expect.any(String), expires_in: 300, methods: ['totp', 'recovery_code'] });
    expect(first.body.access_token).toBeUndefined();
    const challenge = first.body.challenge_token as string;
    // The challenge opens nothing by itself.
    expect((await call('GET', '/api/auth/user', bearer(challenge))).status).toBe(401);

    const stepBefore = (await query<{ last_used_step: string }>(`select last_used_step from user_mfa where user_id = $1`, [id]))[0]!.last_used_step;
    // The code of this step was spent by the enrolment: replayed.
    const replayed = await mfaGrant({ challenge_token: challenge, code: totpCode(secret, t.clock.now()) });
    expect(replayed.status).toBe(400);
    expect(replayed.body.error).toMatchObject({ code: 'mfa_code_replayed', message: 'That code has already been used. Wait for the next code and try again.' });
    // Two steps ahead: outside the window.
    const far = await mfaGrant({ challenge_token: challenge, code: totpCode(secret, new Date(t.clock.now().getTime() + 2 * STEP_MS)) });
    expect(far.body.error?.code).toBe('invalid_mfa_code');
    expect((await query<{ last_used_step: string }>(`select last_used_step from user_mfa where user_id = $1`, [id]))[0]!.last_used_step).toBe(stepBefore);
    expect((await actions(id)).filter((a) => a === 'auth.signed_in')).toHaveLength(1); // the sign-in before enrolling

    // The next step's code (one step of drift) is accepted.
    const ok = await mfaGrant({ challenge_token: challenge, code: ` ${totpCode(secret, new Date(t.clock.now().getTime() + STEP_MS)).replace(/(\d{3})/, '$1 ')}` });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ token_type: 'bearer', user: { email: 'signin@platform.test', platformRole: 'super_admin' } });
    expect((await call('GET', '/api/auth/user', bearer(ok.body.access_token))).body.mfa).toEqual({ enrolled: true, required: false, enrolmentRequired: false });
    const [entry] = await query<{ details: Record<string, unknown> }>(
      `select details from audit_log where actor_id = $1 and action = 'auth.signed_in' order by created_at desc, id desc limit 1`,
      [id],
    );
    expect(entry!.details).toEqual({ secondFactor: 'totp' });

    // The challenge is spent; the same code on a new challenge is a replay.
    expect((await mfaGrant({ challenge_token: challenge, code: totpCode(secret, t.clock.now()) })).body.error.code).toBe('invalid_grant');
    t.clock.advance(STEP_MS);
    const again = await password('signin@platform.test');
    const reused = await mfaGrant({ challenge_token: again.body.challenge_token, code: totpCode(secret, t.clock.now()) });
    expect(reused.body.error.code).toBe('mfa_code_replayed');
    t.clock.advance(STEP_MS);
    expect((await mfaGrant({ challenge_token: again.body.challenge_token, code: totpCode(secret, t.clock.now()) })).status).toBe(200);
  });

  it('still accepts codes for a secret stored in clear before secrets were sealed', async () => {
    const { id, token } = await platformUser('legacy@platform.test');
    const { secret } = await enrol(token);
    await query(`update user_mfa set secret = $2, last_used_step = null where user_id = $1`, [id, secret]);
    const challenge = (await password('legacy@platform.test')).body.challenge_token;
    const ok = await mfaGrant({ challenge_token: challenge, code: totpCode(secret, t.clock.now()) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('signs in with a recovery code once, and refuses it the second time', async () => {
    const { id, token } = await platformUser('recovery@platform.test');
    const { recoveryCodes } = await enrol(token);
    const challenge = (await password('recovery@platform.test')).body.challenge_token;
    const typed = ` ${recoveryCodes[3]!.toUpperCase().replace(/-/g, ' ')} `;
    const ok = await mfaGrant({ challenge_token: challenge, recovery_code: typed });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await actions(id)).toEqual(['auth.signed_in', 'mfa.enrolment_started', 'mfa.enrolled', 'mfa.recovery_code_used', 'auth.signed_in']);
    const [used] = await query<{ details: Record<string, unknown> }>(`select details from audit_log where actor_id = $1 and action = 'mfa.recovery_code_used'`, [id]);
    expect(used!.details).toEqual({ recoveryCodesLeft: 9 });
    expect((await call('GET', '/api/auth/mfa', bearer(ok.body.access_token))).body.recoveryCodesLeft).toBe(9);

    const next = (await password('recovery@platform.test')).body.challenge_token;
    const spent = await mfaGrant({ challenge_token: next, recovery_code: recoveryCodes[3] });
    expect(spent.status).toBe(400);
    expect(spent.body.error).toMatchObject({ code: 'invalid_recovery_code', message: 'That recovery code is not valid or has already been used.' });
    expect((await mfaGrant({ challenge_token: next, recovery_code: 'aaaa-bbbb-cccc-dddd' })).body.error.code).toBe('invalid_recovery_code');
    expect((await mfaGrant({ challenge_token: next })).body.error.message).toBe('Enter the 6-digit code from your authenticator app');
  });

  it('throttles wrong codes like wrong passwords, and lets the challenge expire', async () => {
    const { token } = await platformUser('throttle@platform.test');
    const { secret } = await enrol(token);
    const challenge = (await password('throttle@platform.test')).body.challenge_token;
    const wrong = totpCode(secret, new Date(t.clock.now().getTime() - 10 * STEP_MS));
    for (let i = 0; i < 3; i += 1) expect((await mfaGrant({ challenge_token: challenge, code: wrong })).status).toBe(400);
    const slowed = await t.app.inject({ method: 'POST', url: '/api/auth/token?grant_type=mfa', payload: { challenge_token: challenge, code: wrong } });
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().error.code).toBe('too_many_attempts');
    expect(slowed.headers['retry-after']).toBe('1');
    // Even the right code waits for the delay.
    const next = totpCode(secret, new Date(t.clock.now().getTime() + STEP_MS));
    expect((await mfaGrant({ challenge_token: challenge, code: next })).status).toBe(429);
    t.clock.advance(6 * 60_000);
    const expired = await mfaGrant({ challenge_token: challenge, code: totpCode(secret, t.clock.now()) });
    expect(expired.status).toBe(400);
    expect(expired.body.error).toMatchObject({ code: 'invalid_grant', message: 'Your sign-in has expired. Enter your e-mail and password again.' });
    expect((await mfaGrant({ challenge_token: 'forged.token.value', code: '123456' })).body.error.code).toBe('invalid_grant');
  });

  it('regenerates recovery codes with a code, and turns two-factor sign-in off with a recovery code', async () => {
    const { id, token } = await platformUser('manage@platform.test');
    const { secret, recoveryCodes } = await enrol(token);
    t.clock.advance(STEP_MS);
    const fresh = await call('POST', '/api/auth/mfa/recovery-codes', bearer(token), { code: totpCode(secret, t.clock.now()) });
    expect(fresh.status).toBe(200);
    expect(fresh.body.recoveryCodes).toHaveLength(10);
    expect(fresh.body.recoveryCodes).not.toContain(recoveryCodes[0]);
    // Turning off: a wrong proof changes nothing; an old recovery code no longer works.
    expect((await call('POST', '/api/auth/mfa/disable', bearer(token), { recoveryCode: recoveryCodes[0] })).body.error.code).toBe('invalid_recovery_code');
    expect((await call('POST', '/api/auth/mfa/disable', bearer(token), {})).status).toBe(400);
    expect((await call('GET', '/api/auth/mfa', bearer(token))).body.enrolled).toBe(true);
    const off = await call('POST', '/api/auth/mfa/disable', bearer(token), { recoveryCode: fresh.body.recoveryCodes[0] });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toMatchObject({ enrolled: false, recoveryCodesLeft: 0 });
    expect(await query(`select 1 from mfa_recovery_codes where user_id = $1`, [id])).toHaveLength(0);
    expect((await call('POST', '/api/auth/mfa/disable', bearer(token), { code: '123456' })).status).toBe(409);
    // The password alone signs in again.
    expect((await password('manage@platform.test')).body.access_token).toEqual(expect.any(String));
    expect((await actions(id)).filter((a) => a.startsWith('mfa.'))).toEqual([
      'mfa.enrolment_started',
      'mfa.enrolled',
      'mfa.recovery_codes_regenerated',
      'mfa.disabled',
    ]);
  });

  it('when the platform requires it, an unenrolled platform user reaches the enrolment routes only', async () => {
    await setPlatformConfig({ mfaRequired: true });
    try {
      const { token } = await platformUser('required@platform.test', 'platform_support');
      const me = await call('GET', '/api/auth/user', bearer(token));
      expect(me.status).toBe(200);
      expect(me.body.mfa).toEqual({ enrolled: false, required: true, enrolmentRequired: true });
      expect((await call('POST', '/api/rpc/get_current_user_role', bearer(token))).body).toBe('platform_support');
      for (const url of ['/api/platform/stats', `/api/orgs/${orgId}/sites`]) {
        const refused = await call('GET', url, bearer(token));
        expect(refused.status, url).toBe(403);
        expect(refused.body.error).toMatchObject({
          code: 'mfa_enrolment_required',
          message: 'Two-factor sign-in is required for platform roles. Set it up to continue.',
        });
      }
      expect((await call('GET', '/api/auth/mfa', bearer(token))).body).toMatchObject({ required: true, enrolled: false });
      // Organization members are not concerned.
      const member = await password('admin@twofactor.test');
      expect((await call('GET', `/api/orgs/${orgId}/sites`, bearer(member.body.access_token))).status).toBe(200);
      // Enrolling opens the same session at once.
      await enrol(token);
      expect((await call('GET', '/api/platform/stats', bearer(token))).status).toBe(200);
      expect((await call('GET', '/api/auth/user', bearer(token))).body.mfa.enrolmentRequired).toBe(false);
    } finally {
      await setPlatformConfig({});
    }
  });
});
