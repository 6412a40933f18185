import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiContract, apiContractAreas } from '../domain/api-contract';
import type { ApiRouteSchema } from '../domain/contract/define-contract';
import { createTestApp, type TestApp } from './test/harness';

// The contract (domain/api-contract.ts) cannot drift from the server: every entry is an operation
// the server has, at that method and path, with the same parameters, body and answers in the
// OpenAPI it publishes at /api/docs (both documents generated from zod by the same transform);
// and every operation the server publishes is in the contract — except the carriers' SSC API,
// whose contract is the standard's own document (server/modules/ssc/ssc.contract.test.ts).

type Operation = { parameters?: unknown; requestBody?: unknown; responses?: unknown };
type Document = { paths: Record<string, Record<string, Operation>> };

const OUTSIDE_THE_CONTRACT = /^\/api\/ssc\//;
const entries = Object.entries(apiContract as Record<string, ApiRouteSchema>);
const split = (key: string) => {
  const [method, path] = key.split(' ') as [string, string];
  return { method: method.toLowerCase(), path, openApiPath: path.replace(/:(\w+)/g, '{$1}') };
};

/** The OpenAPI the contract alone gives: one route per entry, its schema the entry, nothing else. */
async function contractDocument(): Promise<Document> {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, { openapi: { info: { title: 'contract', version: '1' } }, transform: jsonSchemaTransform });
  for (const [key, schema] of entries) {
    const { method, path } = split(key);
    app.route({ method: method.toUpperCase() as 'GET', url: path, schema, handler: async () => null });
  }
  await app.ready();
  const document = app.swagger() as unknown as Document;
  await app.close();
  return document;
}

describe('the API contract', () => {
  let t: TestApp;
  let served: Document;
  let contract: Document;

  beforeAll(async () => {
    t = await createTestApp('pglite');
    served = t.app.swagger() as unknown as Document;
    contract = await contractDocument();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('names each operation once, over every area', () => {
    const perArea = Object.values(apiContractAreas).reduce((sum, area) => sum + Object.keys(area).length, 0);
    expect(entries.length).toBe(perArea);
    expect(entries.length).toBeGreaterThan(150);
  });

  it('gives every operation a JSON answer for success, or says it answers a file', () => {
    const without = entries
      .filter(([, schema]) => !schema.produces && !Object.keys(schema.response ?? {}).some((status) => Number(status) >= 200 && Number(status) < 300))
      .map(([key]) => key);
    expect(without).toEqual([]);
  });

  it('has params schemas that name exactly the parameters of their path', () => {
    const mismatched = entries.flatMap(([key, schema]) => {
      if (!schema.params) return [];
      const inPath = [...split(key).path.matchAll(/:(\w+)/g)].map((m) => m[1]).sort();
      const inSchema = Object.keys((schema.params as z.ZodObject).shape).sort();
      return inPath.join() === inSchema.join() ? [] : [`${key}: ${inSchema.join()}`];
    });
    expect(mismatched).toEqual([]);
  });

  it('is what the server publishes: the same parameters, body and answers for every entry', () => {
    for (const [key] of entries) {
      const { method, openApiPath } = split(key);
      const published = served.paths[openApiPath]?.[method];
      expect(published, `${key} is not an operation of the server`).toBeDefined();
      const expected = contract.paths[openApiPath]![method]!;
      expect({ parameters: published!.parameters, requestBody: published!.requestBody, responses: published!.responses }, key).toEqual({
        parameters: expected.parameters,
        requestBody: expected.requestBody,
        responses: expected.responses,
      });
    }
  });

  it('holds every operation the server publishes (the SSC API has its own document)', () => {
    const missing = Object.entries(served.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`)
        .filter((key) => !OUTSIDE_THE_CONTRACT.test(key.split(' ')[1]!) && !(key in apiContract)),
    );
    expect(missing).toEqual([]);
  });
});
