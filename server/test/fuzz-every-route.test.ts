import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bookingRequestSchema } from '../../domain/booking-request';
import { webhookReadBodySchema } from '../../domain/plate-reads';
import {
  sscCancelRequestSchema,
  sscDetailsRequestSchema,
  sscFetchAvailableRequestSchema,
  sscRescheduleRequestSchema,
  sscScheduleRequestSchema,
  sscSubscribeRequestSchema,
  sscUpdateSubscriptionRequestSchema,
} from '../../domain/ssc';
import { seedDemoDataIfEmpty } from '../db/seed';
import { hashToken, signAccessToken } from '../auth/tokens';
import { manageTokenFor } from '../modules/bookings/manage-token';
import { captureErrorEvent } from '../plugins/errors';
import { PDF_BYTES, PNG_BYTES } from './files';
import { createTestApp, databaseKinds, type TestApp } from './harness';

// Every route of the OpenAPI document (issue 21 item 4), read from `app.swagger()` so a new route
// is fuzzed without anyone listing it: arbitrary path parameters, query strings, bodies and
// content types — shaped by the route's own JSON schema most of the time, so requests reach past
// "required" checks into the services, and plain junk the rest — sent signed in with a role that
// reaches the route (org admin for /api/orgs/*, super admin for /api/platform/*, an API key for
// /api/ssc/*, a camera token for /api/anpr/*…). Whatever comes in, the answer is never a 5xx.
//
// Bounded for CI: FUZZ_RUNS requests per route (default 6), seeded (FUZZ_SEED, default below; a
// failure prints the route's seed and the request). FUZZ_ROUTES='PATCH /api/orgs/\{orgId\}/bays'
// fuzzes the matching routes only; FUZZ_REPORT=1 prints each route's answers by status.

const NOW = '2026-11-23T00:00:00Z';
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
/** A regular expression over 'METHOD /path' to fuzz some routes only (while fixing one). */
const ONLY = process.env.FUZZ_ROUTES ? new RegExp(process.env.FUZZ_ROUTES) : null;
const BOUNDARY = 'fuzz-boundary-7MA4YWxkTrZu0gW';

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
};
type Parameter = { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema?: JsonSchema };
type Operation = { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } };
type Route = { method: string; path: string; operation: Operation };

// ── Values ──────────────────────────────────────────────────────────────────────────────────────

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'abc\u0000def',
  '\uD800',
  'x\uDC00y',
  '\u202Eevil\u202C',
  'line\nbreak',
  '\r\n\t',
  '🚚'.repeat(40),
  '%00',
  '../../etc/passwd',
  "'; drop table bookings; --",
  '<script>alert(1)</script>',
  '9999-12-31',
  '0001-01-01',
  '0000-00-00',
  '2026-02-30',
  '+275760-09-13',
  '9999-12-31T23:59:59Z',
  '24:00',
  '-1',
  'NaN',
  '1e308',
  'null',
  'true',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '__proto__',
  'constructor',
  'x'.repeat(5000),
];
const nastyString = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
);
const leaf = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, false, 0, -1, 2 ** 31, Number.MAX_SAFE_INTEGER, 1e308, -1e308),
);
const junk: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('any'), { maxLength: 3 }), fc.dictionary(nastyString, tie('any'), { maxKeys: 3 })),
})).any;

const DATES = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-30', '2026-12-24', '2027-01-01', '2026-03-29', '2026-10-04', '2025-01-01', '2028-02-29'];
const date = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...DATES) },
  { weight: 2, arbitrary: fc.date({ min: new Date('1970-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)) },
  { weight: 2, arbitrary: fc.constantFrom('9999-12-31', '9999-12-30', '0001-01-01', '1000-01-01', '2026-02-29', '2026-13-01', '', '2026-1-1') },
);
const dateTime = fc.oneof(
  { weight: 4, arbitrary: fc.date({ min: new Date('2026-10-01'), max: new Date('2027-03-01'), noInvalidDate: true }).map((d) => d.toISOString()) },
  { weight: 1, arbitrary: fc.constantFrom('2026-11-25T10:00:00+11:00', '2026-11-25T10:00:00', '9999-12-31T23:59:59Z', '0001-01-01T00:00:00Z', '1970-01-01T00:00:00Z', '2026-11-25') },
);
const timeOfDay = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45)).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
  fc.constantFrom('24:00', '23:59', '00:00', '9:00', '12:60'),
);
const email = fc.oneof(fc.constantFrom('admin@acme.test', 'dock@acme.test', 'someone@example.test', 'ops@coastalfreight.test', 'A@B.CO'), fc.emailAddress());
const url = fc.constantFrom('http://127.0.0.1:9/hook', 'https://hooks.example.test/x', 'http://[::1]:9/', 'http://[::ffff:7f00:1]/', 'http://169.254.169.254/latest', 'ftp://x.test/', 'javascript:alert(1)', 'https://user:pw@x.test/', 'http://localhost:9/a?b=c#d');
const timeZone = fc.constantFrom('UTC', 'Australia/Sydney', 'Pacific/Kiritimati', 'America/St_Johns', 'Not/AZone', 'utc', 'Etc/GMT+12');

/** Known good values by field or parameter name (ids of real rows), so requests reach the services. */
type Pools = Record<string, string[]>;

/**
 * How far a generated value strays: 'clean' keeps to the schema's shape with real ids and edge
 * values of the right kind (9999-12-31, a DST night, a range's bounds), so the request reaches the
 * service; 'mixed' puts nasty strings and junk anywhere too, so validation is tried as well.
 */
type Mode = 'clean' | 'mixed';

/** A string for a field called `name`: a real id or a value of the field's kind, and in 'mixed' mode nasty ones too. */
function stringFor(name: string, schema: JsonSchema, pools: Pools, mode: Mode): fc.Arbitrary<unknown> {
  const shaped: Array<fc.Arbitrary<unknown>> = [];
  const pool = pools[name];
  if (pool?.length) shaped.push(fc.constantFrom(...pool));
  if (schema.pattern) {
    try {
      shaped.push(fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length < 300));
    } catch {
      // a pattern fast-check cannot generate from: the other shapes cover it
    }
  }
  if (schema.format === 'uuid' || /Id$|^id$/.test(name)) {
    const known = Object.values(pools).flat().filter((v) => /^[0-9a-f-]{36}$/.test(v));
    shaped.push(known.length ? fc.oneof(fc.uuid(), fc.constantFrom(...known)) : fc.uuid());
  }
  if (schema.format === 'date-time' || /At$|DateTime$/.test(name)) shaped.push(dateTime);
  if (schema.format === 'date' || /date$|Date$|^from$|^to$|On$|Until$|^day$/.test(name)) shaped.push(date);
  if (/slot|[tT]ime$|^start|^end|opens|closes/.test(name)) shaped.push(timeOfDay, dateTime);
  if (schema.format === 'email' || /email/i.test(name)) shaped.push(email);
  if (/url/i.test(name)) shaped.push(url);
  if (/^tz$|[tT]imeZone/.test(name)) shaped.push(timeZone);
  if (/plate|registration/i.test(name)) shaped.push(fc.constantFrom('ABC123', 'ABC 123', 'XY-77', '0O0O0O', 'A'));
  if (shaped.length === 0) {
    const max = Math.min(schema.maxLength ?? 40, 40);
    const min = Math.min(schema.minLength ?? 0, max);
    shaped.push(fc.string({ minLength: Math.max(min, 1), maxLength: max }), fc.constantFrom('Fuzz', 'x', 'Gate 3', 'a b c'));
  }
  const value = fc.oneof(...shaped);
  return mode === 'clean' ? value : fc.oneof({ weight: 3, arbitrary: value }, { weight: 1, arbitrary: nastyString });
}

function numberFor(schema: JsonSchema, integer: boolean, mode: Mode): fc.Arbitrary<unknown> {
  const min = schema.minimum ?? -1_000_000;
  const max = schema.maximum ?? 1_000_000;
  const inRange = integer
    ? fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) })
    : fc.double({ min: Math.max(min, -1e9), max: Math.min(max, 1e9), noNaN: true });
  if (mode === 'clean') return fc.oneof({ weight: 4, arbitrary: inRange }, { weight: 1, arbitrary: fc.constantFrom(min, max) });
  const edges = fc.constantFrom(min - 1, max + 1, 0, -1, 0.5, 2 ** 31, 2 ** 53, 1e308, -1e308);
  return fc.oneof({ weight: 3, arbitrary: inRange }, { weight: 1, arbitrary: fc.constantFrom(min, max) }, { weight: 2, arbitrary: edges });
}

/** A value the schema describes (in 'mixed' mode, junk now and then). */
function valueFor(schema: JsonSchema | undefined, name: string, pools: Pools, mode: Mode, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 5) return mode === 'clean' ? fc.constant(undefined) : junk;
  const shaped = shapedFor(schema, name, pools, mode, depth);
  return mode === 'clean' ? shaped : fc.oneof({ weight: 10, arbitrary: shaped }, { weight: 1, arbitrary: junk });
}

function shapedFor(schema: JsonSchema, name: string, pools: Pools, mode: Mode, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) {
    const member = fc.constantFrom(...schema.enum);
    return mode === 'clean' ? member : fc.oneof({ weight: 6, arbitrary: member }, { weight: 1, arbitrary: nastyString });
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => valueFor(s, name, pools, mode, depth + 1)));
  if (schema.allOf?.length) return valueFor(Object.assign({}, ...schema.allOf) as JsonSchema, name, pools, mode, depth + 1);
  const types = ([] as string[]).concat(schema.type ?? (schema.properties ? 'object' : []));
  const options: Array<fc.Arbitrary<unknown>> = [];
  for (const type of types) {
    if (type === 'object') {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, valueFor(s, key, pools, mode, depth + 1)]));
      const required = (schema.required ?? []).filter((key) => key in model);
      const record = fc.record(model, { requiredKeys: required });
      options.push(
        mode === 'clean'
          ? record
          : fc
              .tuple(record, fc.option(fc.dictionary(nastyString, junk, { maxKeys: 2 }), { freq: 6 }))
              .map(([value, extra]) => (extra ? { ...extra, ...value } : value)),
      );
    } else if (type === 'array') {
      const minLength = mode === 'clean' ? Math.min(schema.minItems ?? 0, 3) : 0;
      options.push(fc.array(valueFor(schema.items, name, pools, mode, depth + 1), { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 4)) }));
    } else if (type === 'integer' || type === 'number') {
      options.push(numberFor(schema, type === 'integer', mode));
    } else if (type === 'boolean') {
      options.push(fc.boolean());
    } else if (type === 'null') {
      options.push(fc.constant(null));
    } else if (type === 'string') {
      options.push(stringFor(name, schema, pools, mode));
    }
  }
  if (schema.nullable || types.includes('null')) options.push(fc.constant(null));
  if (options.length) return fc.oneof(...options);
  return mode === 'clean' ? fc.constant(undefined) : junk;
}

// ── Requests ────────────────────────────────────────────────────────────────────────────────────

/** Bodies of the routes that validate by hand (their own error shape, or multipart): their schemas, for depth. */
const SCHEMALESS_BODIES: Record<string, z.ZodType> = {
  'POST /api/ssc/appointments/v1/fetch-available-appointments': sscFetchAvailableRequestSchema,
  'POST /api/ssc/appointments/v1/schedule-appointment': sscScheduleRequestSchema,
  'POST /api/ssc/appointments/v1/reschedule-appointment': sscRescheduleRequestSchema,
  'POST /api/ssc/appointments/v1/cancel-appointment': sscCancelRequestSchema,
  'POST /api/ssc/appointments/v1/fetch-appointment-details': sscDetailsRequestSchema,
  'POST /api/ssc/webhooks/v1/subscriptions': sscSubscribeRequestSchema,
  'PUT /api/ssc/webhooks/v1/subscriptions/{subscriptionId}': sscUpdateSubscriptionRequestSchema,
  'POST /api/anpr/{siteId}/reads': webhookReadBodySchema,
  'POST /api/public/bookings': bookingRequestSchema,
};

function bodySchemaOf(route: Route): JsonSchema | undefined {
  const declared = route.operation.requestBody?.content?.['application/json']?.schema;
  if (declared) return declared;
  const zod = SCHEMALESS_BODIES[`${route.method} ${route.path}`];
  // What the route reads (io 'input') and what its pipes check further in (io 'output').
  return zod ? { anyOf: (['input', 'output'] as const).map((io) => z.toJSONSchema(zod, { io, unrepresentable: 'any' }) as JsonSchema) } : undefined;
}

const FILES = fc.constantFrom<[string, Buffer]>(
  ['delivery.pdf', PDF_BYTES],
  ['photo.png', PNG_BYTES],
  ['tenants.csv', Buffer.from('name,email\nFuzz Freight,fuzz@example.test\n"Quoted, Co",q@example.test\n')],
  ['evil.pdf', Buffer.from('<html><script>alert(1)</script>')],
  ['empty.png', Buffer.alloc(0)],
  ['noise.bin', Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37) % 256))],
);

function multipartBody(fields: Record<string, unknown>, files: Array<{ field: string; name: string; bytes: Buffer }>, cutAt: number | null): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n${text}\r\n`));
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  const body = Buffer.concat(chunks);
  return cutAt === null ? body : body.subarray(0, Math.floor(body.length * cutAt));
}

type Encoded = { contentType?: string; payload?: string | Buffer };

/** How a body travels: JSON mostly; multipart (whole, or cut off), a JSON null, other types and broken text otherwise. */
function encodedBody(body: fc.Arbitrary<unknown>, takesJson: boolean): fc.Arbitrary<Encoded> {
  const json = body.map((value): Encoded => ({ contentType: 'application/json', payload: JSON.stringify(value) ?? 'null' }));
  const multipart = fc
    .tuple(
      body,
      fc.array(fc.tuple(fc.constantFrom('documents', 'file', 'logo', 'photo', 'image', 'csv'), FILES), { maxLength: 3 }),
      fc.option(fc.double({ min: 0.05, max: 0.98, noNaN: true }), { freq: 3 }),
      fc.boolean(),
    )
    .map(([value, files, cutAt, asDataField]): Encoded => {
      const fields = asDataField || !value || typeof value !== 'object' || Array.isArray(value) ? { data: value } : (value as Record<string, unknown>);
      return {
        contentType: `multipart/form-data; boundary=${BOUNDARY}`,
        payload: multipartBody(fields, files.map(([field, [name, bytes]]) => ({ field, name, bytes })), cutAt),
      };
    });
  const other = fc.tuple(fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json', 'application/xml', 'image/png', 'multipart/form-data', undefined), junk).map(
    ([contentType, value]): Encoded => ({ contentType, payload: contentType === 'image/png' ? PNG_BYTES : `${JSON.stringify(value)}`.slice(1) }),
  );
  return fc.oneof(
    { weight: takesJson ? 12 : 6, arbitrary: json },
    { weight: takesJson ? 2 : 6, arbitrary: multipart },
    { weight: 1, arbitrary: fc.constant<Encoded>({ contentType: 'application/json', payload: 'null' }) },
    { weight: 2, arbitrary: other },
  );
}

/** Path segments sent as they are: broken percent-escapes, an encoded NUL, a lone surrogate in UTF-8, a traversal. */
const RAW_PATH_PARTS = ['%', '%zz', '%ED%A0%80', '%C0%80', '%00', '..%2F..', '%2e%2e', 'a%2Fb'];

/** A path segment, percent-encoded (a lone surrogate, which encodeURIComponent refuses, as its UTF-8-like bytes). */
function encodePathPart(value: string): string {
  return [...value].map((char) => {
    try {
      return encodeURIComponent(char);
    } catch {
      return '%ED%A0%80';
    }
  }).join('');
}

type FuzzRequest = { url: string; encoded: Encoded | null };

function requestFor(route: Route, pools: Pools): fc.Arbitrary<FuzzRequest> {
  const params = route.operation.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const pathValues = fc.tuple(
    ...pathParams.map((p) => {
      const known = pools[p.name] ?? [];
      return fc.oneof(
        { weight: known.length ? 20 : 0, arbitrary: known.length ? fc.constantFrom(...known.map(encodePathPart)) : fc.constant('') },
        { weight: 1, arbitrary: fc.uuid() },
        { weight: 2, arbitrary: nastyString.filter((s) => s.length > 0).map(encodePathPart) },
        { weight: 1, arbitrary: fc.constantFrom(...RAW_PATH_PARTS) },
      );
    }),
  );
  const query = fc.tuple(
    fc.oneof(
      ...(['clean', 'mixed'] as const).map((mode) =>
        fc.record(Object.fromEntries(queryParams.map((p) => [p.name, valueFor(p.schema, p.name, pools, mode)])), { requiredKeys: [] }),
      ),
    ),
    fc.option(fc.dictionary(fc.constantFrom('page', 'x', '__proto__', 'orgId', 'siteId'), nastyString, { maxKeys: 2 }), { freq: 5 }),
  );
  const hasBody = !['GET', 'HEAD', 'DELETE'].includes(route.method);
  const bodySchema = bodySchemaOf(route);
  const body = encodedBody(
    bodySchema
      ? fc.oneof({ weight: 3, arbitrary: valueFor(bodySchema, 'body', pools, 'clean') }, { weight: 3, arbitrary: valueFor(bodySchema, 'body', pools, 'mixed') }, { weight: 1, arbitrary: junk })
      : junk,
    !!route.operation.requestBody?.content?.['application/json'],
  );
  return fc
    .record({
      path: pathValues,
      query,
      encoded: hasBody ? fc.option(body, { freq: 12 }) : fc.constant(null),
    })
    .map(({ path, query: [declared, extra], encoded }): FuzzRequest => {
      let i = 0;
      const url = route.path.replace(/\{[^}]+\}/g, () => String(path[i++]).slice(0, 2000));
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries({ ...(extra ?? {}), ...declared })) {
        if (value === undefined) continue;
        for (const item of Array.isArray(value) ? value : [value]) search.append(key, typeof item === 'string' ? item : JSON.stringify(item));
      }
      const qs = search.toString().slice(0, 6000);
      return { url: qs ? `${url}?${qs}` : url, encoded };
    });
}

// ── The run ─────────────────────────────────────────────────────────────────────────────────────

/** Every operation of the document. */
const routesOf = (doc: { paths: Record<string, Record<string, Operation>> }): Route[] =>
  Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );

/** A stable per-route seed: adding a route does not change what the others are sent. */
const seedOf = (route: Route) => [...`${route.method} ${route.path}`].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, SEED);

describe.each(databaseKinds)('no 5xx from any route of the OpenAPI document on %s', (kind) => {
  let t: TestApp;
  let routes: Route[] = [];
  const ids: Record<string, string> = {};
  const pools: Record<string, Pools> = {};
  let sscKey = '';
  let cameraToken = '';
  const statuses = new Map<string, Map<number, number>>();
  const examples = new Map<string, string>();
  let platformSettings: Array<Record<string, unknown>> = [];

  /** The platform settings as they were before the fuzz: one route's change (two-factor required, say) does not starve the next. */
  async function restorePlatformSettings() {
    await query(`delete from platform_settings`);
    for (const row of platformSettings) await query(`insert into platform_settings (key, value) values ($1, $2::jsonb)`, [row.key, JSON.stringify(row.value)]);
  }

  const query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.ctx.database.query<T>(text, params);
  const column = async (text: string, params?: unknown[]) => (await query<{ id: string }>(text, params)).map((r) => String(r.id));

  /** A fresh session of the user (signed in to `orgId`): a route that signs out or changes the account harms only its own run. */
  async function sessionFor(userEmail: string, orgId: string | null): Promise<string> {
    const [user] = await query<{ id: string }>(`select id from users where email = $1`, [userEmail]);
    const [session] = await query<{ id: string }>(
      `insert into auth_sessions (user_id, org_id, expires_at) values ($1, $2, $3::timestamptz + interval '1 day') returning id`,
      [user!.id, orgId, t.clock.now().toISOString()],
    );
    return (await signAccessToken(t.ctx, { userId: user!.id, sessionId: session!.id, email: userEmail })).token;
  }

  /** Who calls the route: the role that reaches it. */
  async function authorizationFor(path: string): Promise<string | null> {
    if (path.startsWith('/api/platform/')) return `Bearer ${await sessionFor('super@baywise.test', null)}`;
    if (path.startsWith('/api/ssc/')) return `Bearer ${sscKey}`;
    if (path.startsWith('/api/anpr/')) return `Bearer ${cameraToken}`;
    if (/^\/api\/(public|health|client-errors|invitations|billing)\b/.test(path)) return null;
    return `Bearer ${await sessionFor('admin@acme.test', ids.acme!)}`;
  }

  /** Known values of a parameter or field, by route family: destructive platform calls aim at another organization than the one fuzzed. */
  function poolFor(path: string): Pools {
    const family = path.startsWith('/api/platform/') ? 'platform' : path.startsWith('/api/sites/') || path.startsWith('/api/anpr/') ? 'gate' : path.startsWith('/api/public/') ? 'public' : 'org';
    return { ...pools.common, ...pools[family] };
  }

  beforeAll(async () => {
    // The payment webhook answers 503 until it has a signing secret: give it one, so its checks run.
    t = await createTestApp(kind, { now: NOW, env: { STRIPE_WEBHOOK_SECRET: 'whsec_fuzz_secret' } });
    await seedDemoDataIfEmpty(t.ctx);
    await query(
      `insert into platform_settings (key, value) values ('platform.config', '{"allowPrivateWebhookTargets": true}'::jsonb)
       on conflict (key) do update set value = platform_settings.value || excluded.value`,
    );
    ids.acme = (await column(`select id from organizations where slug = 'acme-logistics'`))[0]!;
    ids.harbour = (await column(`select id from organizations where slug = 'harbour-foods'`))[0]!;
    ids.north = (await column(`select id from sites where org_id = $1 and name = 'North Terminal'`, [ids.acme]))[0]!;
    ids.south = (await column(`select id from sites where org_id = $1 and name = 'South Terminal'`, [ids.acme]))[0]!;
    const admin = { authorization: `Bearer ${await sessionFor('admin@acme.test', ids.acme)}` };
    const post = async (url: string, payload: unknown, headers: Record<string, string> = admin, method: 'POST' | 'PUT' = 'POST') => {
      const res = await t.app.inject({ method, url, headers, payload: payload as never });
      expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
      return res.json();
    };
    const orgUrl = `/api/orgs/${ids.acme}`;
    const tenants = await column(`select id from tenants where org_id = $1 order by name`, [ids.acme]);
    const scopes = ['availability:read', 'appointments:schedule', 'appointments:reschedule', 'appointments:cancel', 'webhooks'];
    // The key and camera token the fuzz signs in with are not among the ids it may revoke.
    sscKey = (await post(`${orgUrl}/api-keys`, { name: 'Fuzz TMS', tenantId: tenants[0], scopes })).secret;
    const victimKey = (await post(`${orgUrl}/api-keys`, { name: 'Victim TMS', tenantId: tenants[1], scopes })).id;
    cameraToken = (await post(`${orgUrl}/settings/camera-tokens`, { siteId: ids.north, name: 'Fuzz camera' })).secret;
    const victimCamera = (await post(`${orgUrl}/settings/camera-tokens`, { siteId: ids.north, name: 'Victim camera' })).id;
    const webhook = (await post(`${orgUrl}/webhooks`, { url: 'http://127.0.0.1:9/hook', events: ['booking.created'] })).endpoint.id;
    await post(`${orgUrl}/tsr-connections`, { system: 'servicenow', baseUrl: 'http://127.0.0.1:9', username: 'fuzz', password: 'fuzz-password' }, admin, 'PUT');
    const subscription = (await post('/api/ssc/webhooks/v1/subscriptions', { eventTypes: ['appointment-changed'], callbackUrl: 'http://127.0.0.1:9/cb' }, { authorization: `Bearer ${sscKey}` })).subscriptionId;
    const holiday = (await post(`${orgUrl}/sites/${ids.south}/holidays`, { name: 'Fuzz Day', fromDate: '2027-01-05', toDate: '2027-01-06' })).holiday.id;
    const invitation = (await post(`${orgUrl}/team/invitations`, { email: 'invitee@example.test', role: 'security', employeeId: 'SEC-FUZZ' })).id;
    const invitationToken = (await t.outbox()).map((m) => /accept-invitation\?token=([A-Za-z0-9_-]+)/.exec(m.text ?? '')?.[1]).find(Boolean);
    const plateRead = (await post(`/api/sites/${ids.north}/plate-reads`, { plate: 'FUZZ1' })).id;
    await post('/api/public/quote-requests', { name: 'Q', company: 'Fuzz Co', email: 'q@example.test' }, {});
    const fingerprint = await captureErrorEvent(t.ctx.database, { requestId: 'fuzz', method: 'GET', url: '/api/x', code: null, message: 'seeded for the fuzz', stack: null, userId: null });

    const bookingsOf = (siteId: string) =>
      column(`select distinct on (status) id from bookings where site_id = $1 order by status, abs(extract(epoch from start_time - $2::timestamptz))`, [siteId, NOW]);
    const acmeBookings = [...(await bookingsOf(ids.north)), ...(await bookingsOf(ids.south))];
    const common: Pools = {
      bayId: await column(`select id from bays where org_id = $1 order by name limit 6`, [ids.acme]),
      bookingId: acmeBookings,
      tenantId: tenants.slice(0, 4),
      blackoutId: await column(`select id from blackouts where org_id = $1 limit 4`, [ids.acme]),
      seriesId: await column(`select id from blackout_series where org_id = $1 limit 3`, [ids.acme]),
      holidayId: [holiday],
      invitationId: [invitation],
      membershipId: await column(`select m.id from org_memberships m join users u on u.id = m.user_id where m.org_id = $1 and u.email <> 'admin@acme.test'`, [ids.acme]),
      keyId: [victimKey],
      tokenId: [victimCamera],
      webhookId: [webhook],
      subscriptionId: [subscription],
      system: ['servicenow', 'fmclarity'],
      id: plateRead ? [plateRead] : [],
      quoteId: await column(`select id from quote_requests`),
      planId: await column(`select id from plans`),
      invoiceId: await column(`select id from invoices where org_id = $1 limit 3`, [ids.harbour]),
      fingerprint: [fingerprint],
      token: invitationToken ? [invitationToken] : [],
      locationId: [ids.north, ids.south],
      documentId: [],
    };
    for (const [name, values] of Object.entries(common)) expect(values.every((v) => typeof v === 'string'), name).toBe(true);
    pools.common = common;
    pools.org = { orgId: [ids.acme], siteId: [ids.south, ids.north] };
    pools.gate = { siteId: [ids.north] };
    pools.platform = { orgId: [ids.harbour], siteId: [ids.north] };
    pools.public = {
      orgId: [ids.acme, ids.harbour],
      siteId: [ids.north, ids.south],
      token: acmeBookings.map((id) => manageTokenFor(t.ctx.authSecret, id)),
    };
    // The demo's bookings were seeded without manage links: give the fuzzed ones theirs.
    for (const id of acmeBookings) await query(`update bookings set manage_token_hash = $2 where id = $1`, [id, hashToken(manageTokenFor(t.ctx.authSecret, id))]);

    // Deletions last, so the rows they remove were there for every other route.
    routes = routesOf(t.app.swagger() as never).sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    platformSettings = await query(`select key, value from platform_settings`);
    // Each principal really reaches its routes: a fuzz of 401s would prove nothing.
    const reach = async (url: string, authorization: string | null) =>
      (await t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} })).statusCode;
    expect(await reach(`${orgUrl}/team`, await authorizationFor(`${orgUrl}/team`))).toBe(200);
    expect(await reach('/api/platform/audit', await authorizationFor('/api/platform/audit'))).toBe(200);
    expect(await reach(`/api/sites/${ids.north}/gate/overview`, await authorizationFor(`/api/sites/${ids.north}/gate/overview`))).toBe(200);
    expect(await reach('/api/ssc/webhooks/v1/subscriptions', `Bearer ${sscKey}`)).toBe(200);
  });
  afterAll(async () => {
    if (process.env.FUZZ_REPORT) {
      const lines = [...statuses].map(([route, counts]) => `${route}: ${[...counts].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`);
      console.log(lines.join('\n'));
      console.log([...examples].map(([key, example]) => `${key}: ${example}`).join('\n'));
    }
    await t?.close();
  });

  it('covers the whole document (more than 150 operations)', () => {
    expect(routes.length).toBeGreaterThan(150);
  });

  it('answers every route with less than 500, whatever it is sent', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => !ONLY || ONLY.test(`${r.method} ${r.path}`))) {
      const counts = new Map<number, number>();
      statuses.set(`${route.method} ${route.path}`, counts);
      const result = await fc.check(
        fc.asyncProperty(requestFor(route, poolFor(route.path)), async ({ url, encoded }) => {
          const authorization = await authorizationFor(route.path);
          const headers: Record<string, string> = {};
          if (authorization) headers.authorization = authorization;
          if (encoded?.contentType) headers['content-type'] = encoded.contentType;
          const res = await t.app.inject({
            method: route.method as 'GET',
            url,
            headers,
            ...(encoded?.payload !== undefined ? { payload: encoded.payload } : {}),
          });
          counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1);
          if (process.env.FUZZ_REPORT && !examples.has(`${route.method} ${route.path} ${res.statusCode}`)) {
            examples.set(`${route.method} ${route.path} ${res.statusCode}`, `${url.slice(0, 200)} → ${res.body.slice(0, 200)}`);
          }
          if (res.statusCode >= 500) {
            const requestId = (res.json() as { error?: { requestId?: string } }).error?.requestId ?? null;
            const [event] = await query<{ message: string; stack: string | null }>(`select message, stack from error_events where request_id = $1`, [requestId]);
            const sent = encoded?.payload === undefined ? '' : `\nbody: ${String(encoded.payload).slice(0, 600)}`;
            throw new Error(
              `${route.method} ${url} (${encoded?.contentType ?? 'no body'}) answered ${res.statusCode}: ${res.body.slice(0, 300)}${sent}\n` +
                `server error: ${event?.message}\n${event?.stack?.split('\n').slice(0, 8).join('\n')}`,
            );
          }
        }),
        { numRuns: RUNS, seed: seedOf(route), endOnFailure: true },
      );
      await restorePlatformSettings();
      // Every route runs even when one fails, so one run lists every 5xx; each names its seed and request.
      if (result.failed) failures.push(`${route.method} ${route.path} (seed ${result.seed}): ${String((result.errorInstance as Error)?.message ?? result.errorInstance)}`);
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
  }, 900_000);
});
