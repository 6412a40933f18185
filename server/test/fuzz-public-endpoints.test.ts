import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureErrorEvent } from '../plugins/errors';
import { createBay, createOrg, createSite, createUser, signIn } from './fixtures';
import { createTestApp, databaseKinds, type TestApp } from './harness';

// Whatever a careless client or an attacker sends to a public or auth endpoint, the answer is
// never a 5xx: arbitrary strings, numbers, nulls, nested objects and unicode (NUL, lone
// surrogates, RTL marks, a 1 MB string), in bodies, path parameters, query strings and headers.

const NASTY_STRINGS = [
  '\u0000',
  'abc\u0000def',
  '\uD800',
  'x\uDC00y',
  '\u202Eevil\u202C',
  '\u200F\u200E',
  'line\nbreak',
  '\r\n\t',
  '🚚'.repeat(50),
  '%00',
  "'; drop table bookings; --",
  '<script>alert(1)</script>',
  '9999-12-31',
  '0000-00-00',
  '24:00',
  '-1',
  'NaN',
  '1e308',
  '00000000-0000-0000-0000-000000000000',
];
const ONE_MB = 'A'.repeat(1_048_576);

const nastyString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constant(ONE_MB) },
);
const leaf = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, false, 0, -1, Number.MAX_SAFE_INTEGER, 1e308),
);
const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('any'), { maxLength: 4 }), fc.dictionary(nastyString, tie('any'), { maxKeys: 4 })),
})).any;

/** The field names the endpoints read, so generated bodies reach past "required" checks. */
const FIELDS = [
  'orgId', 'siteId', 'tsrNumber', 'tsrSystemType', 'tsrUrl', 'tenantName', 'contactName', 'tenantEmail', 'tenantPhone',
  'bookingType', 'date', 'slot', 'expectedDurationMin', 'durationMin', 'vehicleType', 'vehicleRegistration', 'vehicleHeightM',
  'vehicleLengthM', 'specialAccessNeeds', 'goodsDescription', 'driverInductionCompleted', 'termsAccepted', 'notes',
  'idempotencyKey', 'email', 'password', 'refresh_token', 'employeeId', 'fullName', 'type', 'token', 'phone',
  'currentPassword', 'name', 'company', 'sites', 'message', 'reason',
];
const body = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 12 }) },
  { weight: 1, arbitrary: value },
);

type Endpoint = { method: 'GET' | 'POST' | 'PUT'; url: string; signedIn?: boolean };
const ENDPOINTS: Endpoint[] = [
  { method: 'GET', url: '/api/health' },
  { method: 'GET', url: '/api/public/organizations' },
  { method: 'GET', url: '/api/public/sites' },
  { method: 'GET', url: '/api/public/sites/:id/status' },
  { method: 'GET', url: '/api/public/platform-stats' },
  { method: 'POST', url: '/api/public/quote-requests' },
  { method: 'GET', url: '/api/public/booking-info' },
  { method: 'POST', url: '/api/public/availability' },
  { method: 'POST', url: '/api/public/bookings' },
  { method: 'GET', url: '/api/public/manage/:id' },
  { method: 'POST', url: '/api/public/manage/:id/cancel' },
  { method: 'POST', url: '/api/public/manage/:id/availability' },
  { method: 'POST', url: '/api/public/manage/:id/reschedule' },
  { method: 'POST', url: '/api/auth/token' },
  { method: 'POST', url: '/api/auth/dockmaster/token' },
  { method: 'POST', url: '/api/auth/logout' },
  { method: 'POST', url: '/api/auth/logout', signedIn: true },
  { method: 'GET', url: '/api/auth/user', signedIn: true },
  { method: 'PUT', url: '/api/auth/user' },
  { method: 'PUT', url: '/api/auth/user', signedIn: true },
  { method: 'POST', url: '/api/auth/signup' },
  { method: 'POST', url: '/api/auth/recover' },
  { method: 'POST', url: '/api/auth/verify' },
  { method: 'POST', url: '/api/rpc/get_current_user_role', signedIn: true },
];

const CONTENT_TYPES = ['application/json', 'multipart/form-data', 'multipart/form-data; boundary=xyz', 'text/plain', 'application/x-www-form-urlencoded'];
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

describe.each(databaseKinds)('no 5xx from any input on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let siteId: string;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: '2026-11-23T00:00:00Z' });
    const org = await createOrg(t.ctx.database, { name: 'Fuzz Org' });
    orgId = org.id;
    const site = await createSite(t.ctx.database, org.id, { name: 'Fuzz Site', timeZone: 'Australia/Sydney' });
    siteId = site.id;
    await createBay(t.ctx.database, site, { name: 'F-1' });
    const user = await createUser(t.ctx.database, { email: 'fuzz@example.test' });
    token = (await signIn(t.app, user.email)).access_token;
  });
  afterAll(() => t.close());

  it.each(ENDPOINTS)('$method $url (signed in: $signedIn)', async (endpoint) => {
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.oneof(nastyString, fc.constant(siteId)),
        fc.option(fc.dictionary(fc.constantFrom('grant_type', 'x', 'org'), nastyString, { maxKeys: 2 })),
        fc.constantFrom(...CONTENT_TYPES),
        fc.boolean(),
        async (payload, param, query, contentType, asRawText) => {
          const url = endpoint.url.replace(':id', encodeURIComponent(param).slice(0, 4000));
          const search = query ? `?${new URLSearchParams(query as Record<string, string>).toString().slice(0, 4000)}` : '';
          const json = JSON.stringify(payload) ?? 'null';
          const res = await t.app.inject({
            method: endpoint.method,
            url: url + search,
            headers: {
              ...(endpoint.signedIn ? { authorization: `Bearer ${token}` } : {}),
              ...(endpoint.method === 'GET' ? {} : { 'content-type': asRawText ? contentType : 'application/json' }),
            },
            ...(endpoint.method === 'GET' ? {} : { payload: asRawText ? json.slice(0, 2_000_000) : json }),
          });
          if (res.statusCode >= 500) {
            throw new Error(`${endpoint.method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
          }
        },
      ),
      { numRuns: RUNS, seed: 20261123 },
    );
  });

  it('names the field when a text field holds a NUL, and writes nothing', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/api/auth/token?grant_type=password', { email: 'a\u0000@example.test', password: 'x' }, 'Email'],
      ['/api/auth/signup', { email: 'new@example.test', password: 'Password-1\u0000' }, 'Password'],
      ['/api/auth/recover', { email: 'fuzz@example.test\u0000' }, 'Email'],
      ['/api/auth/dockmaster/token', { siteId, employeeId: 'D1\u0000', password: 'x' }, 'Employee ID'],
      ['/api/public/quote-requests', { name: 'Q\u0000', company: 'Co', email: 'q@example.test' }, 'Name'],
      ['/api/public/quote-requests', { name: 'Q', company: 'Co', email: 'q@example.test', message: 'two\nlines are fine\u0000' }, 'Message'],
    ];
    for (const [url, payload, label] of cases) {
      const res = await t.app.inject({ method: 'POST', url, payload });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.message, url).toContain(`${label} contains characters that are not allowed`);
    }
    expect(await t.ctx.database.query('select id from quote_requests')).toEqual([]);
  });

  it('refuses a NUL or a line break in booking fields by name, keeping line breaks in notes', async () => {
    const booking = {
      orgId,
      tsrNumber: 'TSR-FUZZ-1',
      tenantName: 'Fuzz Freight',
      contactName: 'Fi',
      tenantEmail: 'fi@fuzz.example',
      date: '2026-11-25',
      slot: '09:00',
      vehicleType: 'rigid',
      vehicleRegistration: 'FUZZ1',
      vehicleHeightM: 3.5,
      driverInductionCompleted: true,
      termsAccepted: true,
    };
    const post = (overrides: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: { ...booking, ...overrides } });
    const nul = await post({ tsrNumber: 'TSR\u0000-1', notes: 'bad\u0000' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error.details.messages).toEqual([
      'TSR Number contains characters that are not allowed (control characters or line breaks)',
      'Notes contains characters that are not allowed (control characters)',
    ]);
    const newline = await post({ tsrNumber: 'TSR-1\nBcc: victim@example.test' });
    expect(newline.statusCode).toBe(400);
    expect((await post({ notes: 'Gate 3.\nCall ahead.' })).statusCode).toBe(201);
    expect(await t.ctx.database.query("select notes from bookings where tsr_number = 'TSR-FUZZ-1'")).toEqual([{ notes: 'Gate 3.\nCall ahead.' }]);
  });

  it('records a server error even when its text holds NUL or lone surrogates', async () => {
    await captureErrorEvent(t.ctx.database, {
      requestId: 'req-\u0000-1',
      method: 'POST',
      url: '/api/x?q=\u0000',
      code: null,
      message: 'invalid byte sequence \u0000 near \uD800',
      stack: 'Error: \u0000\n    at somewhere',
      userId: null,
    });
    const rows = await t.ctx.database.query<{ message: string }>("select message from error_events where request_id like 'req-%'");
    expect(rows).toEqual([{ message: 'invalid byte sequence \uFFFD near \uFFFD' }]);
  });
});
