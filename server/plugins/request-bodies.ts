import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from './errors';

/**
 * Request bodies a route does not read, or stops reading:
 *
 * - A multipart body sent to a route that takes JSON answers 415 before validation. (The multipart
 *   plugin accepts multipart on every route but leaves the body unread, so such a route would
 *   otherwise see no body at all.)
 * - An answer sent before the request body arrived in full — a refused upload: an 11th file, too
 *   many fields, a file too large, a bad part — says `Connection: close`, and the rest of the body
 *   is discarded while the answer goes out; Node then ends the connection. Left as it was, the rest
 *   of the body would sit unread on a paused socket and the next request on that keep-alive
 *   connection would never be answered (issue 21 item 3). A client sends its next request on a
 *   new connection.
 */
export const requestBodiesPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    if (request.isMultipart() && request.routeOptions.schema?.body) {
      throw new AppError(415, 'unsupported_media_type', 'This request takes a JSON body (Content-Type: application/json), not a multipart form');
    }
  });

  app.addHook('onSend', async (request, reply) => {
    const raw = request.raw;
    if (raw.complete || raw.destroyed) return;
    reply.header('connection', 'close');
    raw.resume();
  });
});

/**
 * The client's mistakes a multipart reader meets, as the error to answer with (null for anything
 * else, which is ours): a form with too many fields or parts (413), a request that is not
 * multipart, and a body that ends before its closing boundary — busboy's "Unexpected end of form",
 * or the file part in progress closing early ("Premature close") — 400.
 */
export function multipartClientError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string })?.code;
  const message = (error as Error)?.message ?? '';
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') return new AppError(413, 'payload_too_large', 'The form has too many fields');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new AppError(400, 'bad_request', 'Expected a multipart form submission');
  if (code === 'FST_PROTO_VIOLATION') return new AppError(400, 'bad_request', 'The form has a field name that is not allowed');
  if (code === 'ERR_STREAM_PREMATURE_CLOSE' || /boundary|multipart|unexpected end/i.test(message)) {
    return new AppError(400, 'bad_request', 'The multipart form submission is malformed or was cut off');
  }
  return null;
}
