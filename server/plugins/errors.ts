import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { toStorableText } from '../../domain/text-rules';
import type { Database } from '../db/client';
import { errorEvents } from '../db/schema';

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

export const errorsPlugin = fp(async (app: FastifyInstance, opts: { database: Database }) => {
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
      url: request.url,
      code: typeof error.code === 'string' ? error.code : null,
      message: error.message || 'Unknown error',
      stack: error.stack ?? null,
      userId: request.auth?.user.id ?? null,
    }).catch((captureError: unknown) =>
      // Never silent: the capture's own failure and the original error, both in full.
      request.log.error({ err: captureError, originalError: error }, 'could not capture error event'),
    );
    return reply.code(500).send({
      error: { code: 'internal_error', message: 'Something went wrong on our side. Please try again.', requestId },
    } satisfies ErrorBody);
  });
});

type ErrorEventInput = {
  requestId: string;
  method: string;
  url: string;
  code: string | null;
  message: string;
  stack: string | null;
  userId: string | null;
};

/** Stores a server failure for the error-monitoring screen; every text is made storable first (NUL, lone surrogates). */
export async function captureErrorEvent(database: Database, event: ErrorEventInput): Promise<void> {
  const text = (value: string | null, max: number) => (value === null ? null : toStorableText(value).slice(0, max));
  await database.db.insert(errorEvents).values({
    requestId: text(event.requestId, 200),
    method: text(event.method, 20),
    url: text(event.url, 2000),
    statusCode: 500,
    code: text(event.code, 200),
    message: text(event.message, 2000) ?? 'Unknown error',
    stack: text(event.stack, 8000),
    userId: event.userId,
  });
}
