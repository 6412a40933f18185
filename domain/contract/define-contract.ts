import type { z } from 'zod';

// The HTTP contract between the web app and the API (docs/decisions/026-typed-api-contract.md).
// Each operation is written once, as the key `'<METHOD> <full path>'` (path parameters as Fastify
// writes them, `:orgId`) and the zod schemas Fastify validates and serializes with. The server's
// route takes its `schema` from the entry (tags and summary stay beside the handler), the OpenAPI
// at /api/docs is generated from the same schemas, and the web's `apiCall` derives the types of
// params, query, body and answer from the entry — importing its types only, never the schemas.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `'GET /api/orgs/:orgId/bookings'`: the method and the path as the server registers it. */
export type ApiRouteKey = `${HttpMethod} /api/${string}`;

/** What Fastify validates and serializes for one operation (the same keys as a Fastify route schema). */
export type ApiRouteSchema = {
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  headers?: z.ZodType;
  /** The JSON answers by status; a success without content is `204: z.null()`. A file download has none (see produces). */
  response?: { readonly [status: number]: z.ZodType };
  /** Request bodies that are not JSON (the multipart uploads): documentation, and the web's cue to send FormData. */
  consumes?: readonly string[];
  /** Answers that are files (CSV, PDF, images): the web fetches them as files, never as JSON. */
  produces?: readonly string[];
};

/** A multipart upload: the body is read by the handler, so the entry has no body schema. */
export const MULTIPART_FORM = ['multipart/form-data'] as const;

/** One area's operations; the keys are checked to be `'<METHOD> /api/…'`. */
export function defineContract<T extends { [K in keyof T]: K extends ApiRouteKey ? ApiRouteSchema : never }>(routes: T): T {
  return routes;
}
