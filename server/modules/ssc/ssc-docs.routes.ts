import fs from 'node:fs';
import path from 'node:path';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_KEY_PREFIX, API_KEY_SCOPE_LABELS, API_KEY_SCOPES, DEFAULT_API_KEY_RATE_LIMIT } from '../../../domain/api-keys';
import { SSC_PROBLEM_TITLES, SSC_PROBLEM_TYPES, SSC_WEBHOOK_EVENT_TYPES } from '../../../domain/ssc';
import type { ModuleOptions } from '../../context';
import { projectRoot } from '../../paths';
import { SWAGGER_UI_CSP } from '../../plugins/swagger-ui-csp';
import { SIGNING_SECRET_HEADER } from './ssc-webhooks.service';

// The carriers' reference, served without a key (nothing in it is secret):
// - /api/ssc/openapi.json: Baywise's profile of the SSC standard, cut from the OpenAPI that
//   @fastify/swagger writes from the routes' zod schemas (ssc-openapi.ts) — the same source as
//   /api/docs, so the two cannot differ;
// - /api/ssc/docs: that document in Swagger UI (@fastify/swagger-ui, its files served by us, its own
//   static CSP), which the developer portal (/developers) embeds;
// - /api/ssc/reference: what the portal shows beside it, read from the repository's sources (the
//   field mapping docs/ssc-mapping.md, the signature section of docs/webhooks.md, the scopes, the
//   default rate limit, the problem kinds and event types of domain/).

export const SSC_PREFIX = '/api/ssc';
/** Paths under /api/ssc that are the reference itself, not operations of the standard. */
export const SSC_REFERENCE_PATHS = ['/openapi.json', '/reference', '/docs'];

type OpenApiOperation = { responses?: Record<string, { description?: string; headers?: Record<string, unknown>; content?: unknown }>; parameters?: unknown[]; security?: unknown };
type OpenApiDocument = { openapi: string; info: Record<string, unknown>; paths: Record<string, Record<string, OpenApiOperation>>; components?: Record<string, unknown> };

export const SSC_SECURITY_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: `${API_KEY_PREFIX}…`,
  description: 'An API key an org admin makes under Settings › Integrations › API keys. It acts for one tenant and carries scopes.',
} as const;

const DESCRIPTION = [
  'Baywise’s profile of the Scheduling Standards Consortium appointments API v1.1: the operations Baywise implements, with the request and response schemas it accepts and answers and its real status codes.',
  '',
  '- RPC operations answer **200** with `status: SUCCESS`, or **200** with `status: FAILURE` and `problemDetails` for a well-formed request Baywise refuses (slot taken, out of hours, vehicle too tall…).',
  '- Protocol refusals use their HTTP status with the same failure body: 400 (schema), 401 (key), 403 (scope), 404 (not found), 405 (an RPC path takes POST only), 429 (rate limit, `Retry-After`).',
  '- Subscriptions are REST: 201 with `Location` (and the signing secret once), 204 on delete, 400/422 when refused.',
  '- Deviation (decision 020): a problem’s `title` carries its kind’s name and `type` the standard’s URI, because the standard’s own `oneOf` cannot validate a typed problem.',
  '- Field mapping: /developers#mapping (docs/ssc-mapping.md).',
].join('\n');

/** /api/ssc/openapi.json: the SSC operations of the app's OpenAPI, rebased on /api/ssc. */
export function sscOpenApiDocument(full: OpenApiDocument): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const [route, item] of Object.entries(full.paths)) {
    if (!route.startsWith(`${SSC_PREFIX}/`)) continue;
    const local = route.slice(SSC_PREFIX.length);
    if (SSC_REFERENCE_PATHS.some((p) => local === p || local.startsWith(`${p}/`))) continue;
    const operations: Record<string, OpenApiOperation> = {};
    for (const [method, operation] of Object.entries(item)) {
      const copy = structuredClone(operation);
      const responses = copy.responses ?? {};
      if (responses['429']) responses['429'].headers = { 'Retry-After': { description: 'Seconds until the key may call again', schema: { type: 'string' } } };
      if (responses['201']) {
        responses['201'].headers = {
          Location: { description: 'The new subscription', schema: { type: 'string', format: 'uri' } },
          [SIGNING_SECRET_HEADER]: { description: 'The subscription’s signing secret (whsec_…), sent once: keep it to verify deliveries', schema: { type: 'string' } },
        };
      }
      if (responses['204']) delete responses['204'].content;
      if (local.endsWith('/schedule-appointment')) {
        copy.parameters = [
          ...(copy.parameters ?? []),
          { name: 'Idempotency-Key', in: 'header', required: false, description: 'A retry with the same key answers the booking the first call made', schema: { type: 'string', maxLength: 200 } },
        ];
      }
      operations[method] = copy;
    }
    paths[local] = operations;
  }
  return {
    openapi: full.openapi,
    info: { title: 'Baywise SSC appointments API', version: '1.1.0', description: DESCRIPTION },
    servers: [{ url: SSC_PREFIX }],
    tags: [{ name: 'ssc', description: 'Appointments and webhook subscriptions (SSC v1.1)' }],
    paths,
    components: { securitySchemes: { sscApiKey: SSC_SECURITY_SCHEME } },
  } as OpenApiDocument;
}

function readDoc(file: string): string {
  return fs.readFileSync(path.join(projectRoot, 'docs', file), 'utf8');
}

/** The markdown between a heading and the next heading of the same level. */
export function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) throw new Error(`docs: no section ${heading}`);
  const level = heading.indexOf(' ');
  const end = lines.findIndex((line, i) => i > start && /^#+ /.test(line) && line.indexOf(' ') <= level);
  return lines.slice(start, end < 0 ? undefined : end).join('\n').trim();
}

/** What /developers shows beside the OpenAPI reference, from the repository's own sources. */
export function sscReference() {
  return {
    keyPrefix: API_KEY_PREFIX,
    scopes: API_KEY_SCOPES.map((scope) => ({ scope, label: API_KEY_SCOPE_LABELS[scope] })),
    defaultRateLimitPerMinute: DEFAULT_API_KEY_RATE_LIMIT,
    idempotencyHeader: 'Idempotency-Key',
    signingSecretHeader: SIGNING_SECRET_HEADER,
    eventTypes: [...SSC_WEBHOOK_EVENT_TYPES],
    problemKinds: Object.entries(SSC_PROBLEM_TITLES).map(([kind, title]) => ({ kind, title, type: SSC_PROBLEM_TYPES[kind as keyof typeof SSC_PROBLEM_TITLES] })),
    mappingMarkdown: readDoc('ssc-mapping.md'),
    signatureMarkdown: section(readDoc('webhooks.md'), '## Signature'),
  };
}

const sscDocsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app) => {
  const root = app as unknown as FastifyInstance;
  const document = () => sscOpenApiDocument(root.swagger() as unknown as OpenApiDocument);
  let reference: ReturnType<typeof sscReference> | null = null;

  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => reply.header('cache-control', 'no-cache').send(document()));
  app.get('/reference', { schema: { hide: true } }, async (_request, reply) => {
    reference ??= sscReference();
    return reply.header('cache-control', 'no-cache').send(reference);
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Its pages link their files from the route prefix, which does not know this plugin's.
    indexPrefix: SSC_PREFIX,
    staticCSP: SWAGGER_UI_CSP,
    transformSpecification: () => document(),
    uiConfig: { docExpansion: 'list', defaultModelsExpandDepth: 1, deepLinking: true },
  });
};

export default sscDocsRoutes;
