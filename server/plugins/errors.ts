import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isSensitiveKey, redactValue, sanitizeUrl, type ErrorSource } from '../../domain/error-monitoring-rules';
import { toStorableText } from '../../domain/text-rules';
import { systemClock, type Clock } from '../context';
import type { Database } from '../db/client';
import { errorEvents } from '../db/schema';
import { fingerprintOf } from './error-fingerprint';

/** The one error type: a machine code, a message a person can act on, an HTTP status. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** A refusal the caller may retry after a while: answered with Retry-After (seconds). */
export class RetryLaterError extends AppError {
  constructor(
    statusCode: 429 | 503,
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(statusCode, code, message, { retryAfterSeconds });
  }
}

export const notFound = (what = 'Resource') => new AppError(404, 'not_found', `${what} not found`);
export const badRequest = (message: string, details?: unknown) =>
  new AppError(400, 'bad_request', message, details);
export const unauthorized = (message = 'Authentication required') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'You do not have permission to do this') =>
  new AppError(403, 'forbidden', message);
export const conflict = (code: string, message: string, details?: unknown) =>
  new AppError(409, code, message, details);

export type ErrorBody = { error: { code: string; message: string; details?: unknown; requestId?: string } };

/** Postgres error codes that are the caller's fault, not ours. */
const PG_CLIENT_ERRORS: Record<string, [number, string, string]> = {
  '23505': [409, 'conflict', 'A record with these details already exists'],
  '23P01': [409, 'conflict', 'This time overlaps another booking'],
  '22P02': [400, 'bad_request', 'Invalid identifier or value'],
  '23503': [409, 'conflict', 'A related record does not exist or is still in use'],
};

function clientErrorCode(status: number, code?: string): string {
  if (status === 429) return 'rate_limited';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 404) return 'not_found';
  return code?.startsWith('FST_') || !code ? 'bad_request' : code.toLowerCase();
}

function pgCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } };
  if (typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return undefined;
}

/** The request headers kept with a server error: none that carries a credential (authorization, cookie…). */
const KEPT_HEADERS = ['user-agent', 'content-type', 'content-length', 'accept', 'origin', 'referer'] as const;

/**
 * What the error-monitoring screen shows of the request that failed: its route, parameters and
 * query, a few harmless headers and the body, every sensitive field redacted
 * (domain/error-monitoring.ts redactValue) — never the Authorization header, a cookie, a password or a token.
 */
export function requestDetails(request: FastifyRequest): Record<string, unknown> {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = request.headers[name];
    if (typeof value !== 'string' || isSensitiveKey(name)) continue;
    headers[name] = name === 'referer' || name === 'origin' ? sanitizeUrl(value) : value.slice(0, 300);
  }
  const body = request.body;
  return {
    route: request.routeOptions?.url ?? null,
    params: redactValue(request.params ?? {}),
    query: redactValue(request.query ?? {}),
    headers,
    ...(body === undefined || body === null ? {} : { body: typeof body === 'object' ? redactValue(body) : `[${typeof body} body]` }),
    ...(request.auth?.orgId ? { orgId: request.auth.orgId } : {}),
  };
}

export const errorsPlugin = fp(async (app: FastifyInstance, opts: { database: Database; clock?: Clock }) => {
  const clock = opts.clock ?? systemClock;
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    reply.code(404).send({
      error: { code: 'not_found', message: `Route ${request.method} ${request.url.split('?')[0]} not found` },
    } satisfies ErrorBody);
  });

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const requestId = request.id;
    if (error instanceof RetryLaterError) reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
    if (error instanceof AppError) {
      return reply.code(error.statusCode).send({
        error: { code: error.code, message: error.message, details: error.details, requestId },
      } satisfies ErrorBody);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'Invalid value',
      }));
      return reply.code(400).send({
        error: {
          code: 'validation_error',
          message: issues.map((i) => i.message).join(', '),
          details: issues,
          requestId,
        },
      } satisfies ErrorBody);
    }
    const code = pgCode(error);
    if (code && PG_CLIENT_ERRORS[code]) {
      const [status, errCode, message] = PG_CLIENT_ERRORS[code];
      return reply.code(status).send({ error: { code: errCode, message, requestId } } satisfies ErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status < 500 && !isResponseSerializationError(error)) {
      // Fastify's own client errors: bad JSON, body too large, unsupported media type, rate limit…
      return reply.code(status).send({
        error: { code: clientErrorCode(status, error.code), message: error.message, requestId },
      } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'request failed');
    await captureErrorEvent(opts.database, {
      requestId,
      method: request.method,
      url: sanitizeUrl(request.url),
      name: error.name || null,
      code: typeof error.code === 'string' ? error.code : null,
      message: error.message || 'Unknown error',
      stack: error.stack ?? null,
      userId: request.auth?.user.id ?? null,
      details: requestDetails(request),
      createdAt: clock.now(),
    }).catch((captureError: unknown) =>
      // Never silent: the capture's own failure and the original error, both in full.
      request.log.error({ err: captureError, originalError: error }, 'could not capture error event'),
    );
    return reply.code(500).send({
      error: { code: 'internal_error', message: 'Something went wrong on our side. Please try again.', requestId },
    } satisfies ErrorBody);
  });
});

export type ErrorEventInput = {
  /** 'server' (default) or 'browser'. */
  source?: ErrorSource;
  requestId: string | null;
  method: string | null;
  /** Already sanitized (sanitizeUrl): no tokens. */
  url: string | null;
  /** 500 for a server failure (default); null for a browser error. */
  statusCode?: number | null;
  name?: string | null;
  code: string | null;
  message: string;
  stack: string | null;
  userId: string | null;
  /** Redacted request or page details. */
  details?: Record<string, unknown>;
  /** Defaults to the database's clock. */
  createdAt?: Date;
};

/** A JSON value whose every text (keys too) PostgreSQL's jsonb accepts: no NUL, no lone surrogates. */
function storableJson(value: unknown): unknown {
  if (typeof value === 'string') return toStorableText(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [toStorableText(key), storableJson(item)]));
  }
  return value;
}

/**
 * Stores a failure for the error-monitoring screen with its fingerprint (the group it belongs to);
 * every text is made storable first (NUL, lone surrogates). Returns the fingerprint.
 */
export async function captureErrorEvent(database: Database, event: ErrorEventInput): Promise<string> {
  const text = (value: string | null | undefined, max: number) => (value === null || value === undefined ? null : toStorableText(value).slice(0, max));
  const source = event.source ?? 'server';
  const message = text(event.message, 2000) || 'Unknown error';
  const name = text(event.name, 200);
  const code = text(event.code, 200);
  const stack = text(event.stack, 8000);
  const fingerprint = fingerprintOf({ source, name, code, message, stack });
  const details = storableJson({ ...(event.details ?? {}), ...(name ? { name } : {}) }) as Record<string, unknown>;
  await database.db.insert(errorEvents).values({
    source,
    fingerprint,
    requestId: text(event.requestId, 200),
    method: text(event.method, 20),
    url: text(event.url, 2000),
    statusCode: event.statusCode === undefined ? (source === 'server' ? 500 : null) : event.statusCode,
    code,
    message,
    stack,
    userId: event.userId,
    details,
    ...(event.createdAt ? { createdAt: event.createdAt } : {}),
  });
  return fingerprint;
}
