import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSC_PROBLEM_TITLES } from '../../../domain/ssc';
import { verifySignature, signatureHeader } from '../../delivery/signature';
import { projectRoot } from '../../paths';
import { addMember, bearer, createOrg, createSite, createUser, signIn } from '../../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../../test/harness';
import sscRoutes from './ssc.routes';

// The SSC surface's reference (issue 24): /api/ssc/openapi.json is a valid OpenAPI document
// (swagger-parser) naming every route of the SSC plugin's route table with its request and answer
// schemas, real codes and the API-key scheme; /api/docs carries the same answers; /api/ssc/reference
// serves the repository's mapping and signature docs. And the route-level conformance of the
// standard: a refused subscription answers a 4xx with the failure body (never 200 FAILURE), and
// another method on an RPC path answers 405 in the failure shape.

type Operation = { operationId?: string; requestBody?: { content: Record<string, { schema: object }> }; responses: Record<string, { content?: Record<string, { schema: object }>; headers?: object }>; security?: unknown };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, { type: string; scheme?: string }> } };

/** The SSC plugin's route table, as Fastify registers it (method, url, hidden or not). */
async function sscRouteTable(t: TestApp) {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const routes: { method: string; url: string; hidden: boolean }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ method, url: route.url, hidden: Boolean((route.schema as { hide?: boolean } | undefined)?.hide) });
  });
  await app.register(import('@fastify/rate-limit'), { global: false });
  await app.register(sscRoutes, { prefix: '/api/ssc', ctx: t.ctx });
  await app.ready();
  await app.close();
  return routes.filter((r) => r.method !== 'HEAD');
}

describe('the SSC OpenAPI document', () => {
  let t: TestApp;
  let document: Document;

  beforeAll(async () => {
    t = await createTestApp('pglite');
    const response = await t.app.inject({ url: '/api/ssc/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
  });
  afterAll(() => t?.close());

  it('is a valid OpenAPI document (swagger-parser)', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
    expect(document.components.securitySchemes.sscApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('lists every SSC route of the route table, and nothing else', async () => {
    const table = await sscRouteTable(t);
    const published = (table.filter((r) => !r.hidden)).map((r) => `${r.method} ${r.url.replace('/api/ssc', '').replace(/:(\w+)/g, '{$1}')}`).sort();
    const documented = Object.entries(document.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`)).sort();
    expect(published.length).toBe(10);
    expect(documented).toEqual(published);
    // The hidden ones are the 405 answers of the RPC paths (below).
    expect(table.filter((r) => r.hidden).every((r) => r.url.startsWith('/api/ssc/appointments/v1/') && r.method !== 'POST')).toBe(true);
  });

  it('gives each operation its request schema, every answer’s schema, its real success code and the key scheme', () => {
    const codes: Record<string, string> = {};
    for (const [p, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.security, `${method} ${p}`).toEqual([{ sscApiKey: [] }]);
        if (method === 'post' || method === 'put') expect(operation.requestBody?.content['application/json']?.schema, `${method} ${p}`).toBeTruthy();
        for (const [status, answer] of Object.entries(operation.responses)) {
          if (status === '204') expect(answer.content).toBeUndefined();
          else expect(answer.content?.['application/json']?.schema, `${method} ${p} ${status}`).toBeTruthy();
        }
        for (const status of ['401', '403', '429']) expect(Object.keys(operation.responses), `${method} ${p}`).toContain(status);
        codes[operation.operationId!] = Object.keys(operation.responses).find((s) => s.startsWith('2'))!;
      }
    }
    expect(codes).toEqual({
      'fetch-available-appointments': '200',
      'schedule-appointment': '200',
      'reschedule-appointment': '200',
      'cancel-appointment': '200',
      'fetch-appointment-details': '200',
      'get-subscriptions': '200',
      subscribe: '201',
      'get-subscription': '200',
      'update-subscription': '200',
      'delete-subscription': '204',
    });
    expect(Object.keys(document.paths['/webhooks/v1/subscriptions']!.post!.responses['201']!.headers!)).toEqual(['Location', 'baywise-signing-secret']);
  });

  it('is what /api/docs publishes for the SSC routes: the same answers', async () => {
    const general = (await t.app.inject({ url: '/api/docs/json' })).json() as Document;
    for (const [p, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const there = general.paths[`/api/ssc${p}`]?.[method];
        expect(there, `${method} ${p}`).toBeTruthy();
        expect(Object.keys(there!.responses).sort()).toEqual(Object.keys(operation.responses).sort());
        expect(there!.responses['200']?.content ?? there!.responses['201']?.content ?? null).toEqual(operation.responses['200']?.content ?? operation.responses['201']?.content ?? null);
      }
    }
  });

  it('serves Swagger UI for it at /api/ssc/docs with our own files, and the repository’s reference docs', async () => {
    const ui = await t.app.inject({ url: '/api/ssc/docs' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).not.toMatch(/https?:\/\/(?:unpkg|cdn|cdnjs)/);
    const spec = (await t.app.inject({ url: '/api/ssc/docs/json' })).json() as Document;
    expect(spec.paths).toEqual(document.paths);

    const reference = (await t.app.inject({ url: '/api/ssc/reference' })).json();
    expect(reference.mappingMarkdown).toBe(fs.readFileSync(path.join(projectRoot, 'docs/ssc-mapping.md'), 'utf8'));
    expect(reference.signatureMarkdown).toMatch(/^## Signature/);
    for (const language of ['Node.js', 'Python', 'C#']) expect(reference.signatureMarkdown).toContain(`### Verifying (${language})`);
    expect(reference.eventTypes).toEqual(['appointment-changed', 'fetch-available-appointments']);
    expect(reference.problemKinds.map((k: { title: string }) => k.title)).toEqual(Object.values(SSC_PROBLEM_TITLES));
  });

  it('documents a signature check that verifies Baywise’s own signatures (the Node snippet)', () => {
    const reference = fs.readFileSync(path.join(projectRoot, 'docs/webhooks.md'), 'utf8');
    const snippet = /### Verifying \(Node\.js\)\n\n```js\n([\s\S]*?)```/.exec(reference)![1]!;
    const verifySource = /function verify\([\s\S]*?\n\}/.exec(snippet)![0];
    const secret = 'whsec_test';
    const verify = new Function('crypto', 'secret', `${verifySource}; return verify;`)(crypto, secret) as (header: string, body: string) => boolean;
    const body = '{"reasonCode":"CANCELLED"}';
    const header = signatureHeader(secret, Math.floor(Date.now() / 1000), body);
    expect(verify(header, body)).toBe(true);
    expect(verify(header, `${body} `)).toBe(false);
    expect(verifySignature(secret, header, body, Math.floor(Date.now() / 1000))).toBe(true);
  });
});

describe.each(databaseKinds)('SSC route-level conformance on %s', (kind) => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { now: '2026-11-23T00:00:00Z' });
    const db = t.ctx.database;
    const orgId = (await createOrg(db, { name: 'Conformance Org' })).id;
    await createSite(db, orgId, { name: 'Conformance Yard', timeZone: 'Australia/Sydney' });
    const [{ id: tenantId }] = await db.query<{ id: string }>(`insert into tenants (org_id, name, contact_emails) values ($1, 'Conformance Freight', '{ops@conformance.example}') returning id`, [orgId]);
    const user = await createUser(db, { email: 'admin@conformance.example' });
    await addMember(db, orgId, user.id, 'org_admin');
    const admin = bearer(await signIn(t.app, 'admin@conformance.example'));
    const made = await t.app.inject({ method: 'POST', url: `/api/orgs/${orgId}/api-keys`, headers: admin, payload: { name: 'TMS', tenantId, scopes: ['availability:read', 'appointments:schedule', 'webhooks'] } });
    key = made.json().secret;
  });
  afterAll(() => t?.close());

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, payload?: unknown) => {
    const response = await t.app.inject({ method, url: `/api/ssc${url}`, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload: payload as never } : {}) });
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  };
  const isFailure = (body: { status: string; problemDetails: { title: string; detail?: string }[] }) => {
    expect(body.status).toBe('FAILURE');
    expect(body.problemDetails.length).toBeGreaterThan(0);
    for (const problem of body.problemDetails) expect(typeof problem.title).toBe('string');
  };

  it('refuses an unsafe callback URL with 422 and the failure body, and saves nothing', async () => {
    for (const callbackUrl of ['http://169.254.169.254/latest/meta-data', 'http://127.0.0.1/hook', 'ftp://tms.example.com/x']) {
      const res = await call('POST', '/webhooks/v1/subscriptions', { eventTypes: ['appointment-changed'], callbackUrl });
      expect(res.status, callbackUrl).toBe(422);
      isFailure(res.body);
      expect(res.body.problemDetails[0]).toMatchObject({ title: SSC_PROBLEM_TITLES.invalidArgument, arguments: [{ key: 'callbackUrl' }] });
      expect(res.headers.location).toBeUndefined();
    }
    expect(await t.ctx.database.query(`select id from ssc_webhook_subscriptions`)).toEqual([]);
  });

  it('refuses an update whose subscriptionId is not the URL’s with 400 and the failure body', async () => {
    const created = await call('POST', '/webhooks/v1/subscriptions', { eventTypes: ['appointment-changed'], callbackUrl: 'https://93.184.215.14/ssc' });
    expect(created.status).toBe(201);
    const id = created.body.subscriptionId as string;
    const res = await call('PUT', `/webhooks/v1/subscriptions/${id}`, { subscriptionId: '00000000-0000-4000-8000-000000000000', eventTypes: ['fetch-available-appointments'] });
    expect(res.status).toBe(400);
    isFailure(res.body);
    expect(res.body.problemDetails[0].arguments).toEqual([{ key: 'subscriptionId', detail: 'subscriptionId must be the id in the URL' }]);
    expect((await call('GET', `/webhooks/v1/subscriptions/${id}`)).body.eventTypes).toEqual(['appointment-changed']);
    // An unsafe callback on update: 422 too.
    expect((await call('PUT', `/webhooks/v1/subscriptions/${id}`, { callbackUrl: 'http://10.0.0.5/' })).status).toBe(422);
  });

  it('answers another method on an RPC path with 405, Allow: POST and the failure shape', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
      for (const op of ['fetch-available-appointments', 'schedule-appointment', 'fetch-appointment-details']) {
        const res = await call(method, `/appointments/v1/${op}`);
        expect(res.status, `${method} ${op}`).toBe(405);
        expect(res.headers.allow).toBe('POST');
        isFailure(res.body);
        expect(res.body.problemDetails[0]).toEqual({ title: 'Method Not Allowed', detail: `/api/ssc/appointments/v1/${op} takes POST, not ${method}` });
      }
    }
    // Without a key, the key check answers first (401, same shape).
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/ssc/appointments/v1/schedule-appointment' });
    expect(anonymous.statusCode).toBe(401);
    isFailure(anonymous.json());
  });

  it('answers any unknown path under /api/ssc with 404 in the failure shape, with or without a key', async () => {
    for (const [method, path] of [['GET', '/appointments/v2/schedule-appointment'], ['POST', '/appointments/v1/book'], ['DELETE', '/nothing/here?x=1']] as const) {
      const res = await call(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      isFailure(res.body);
      expect(res.body.problemDetails).toEqual([{ title: 'Not Found', detail: `No SSC operation at ${method} /api/ssc${path.split('?')[0]}: see /api/ssc/openapi.json` }]);
    }
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/ssc/unknown' });
    expect(anonymous.statusCode).toBe(404);
    isFailure(anonymous.json());
    // Outside /api/ssc the generic error stays.
    expect((await t.app.inject({ url: '/api/sscx' })).json()).toMatchObject({ error: { code: 'not_found' } });
  });
});
