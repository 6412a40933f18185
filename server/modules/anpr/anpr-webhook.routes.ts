import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { capturedAtProblem, MAX_PLATE_PHOTO_BYTES, webhookReadBodySchema } from '../../../domain/plate-reads';
import { anprWebhookContract as contract } from '../../../domain/contract/anpr-webhook.contract';
import type { ModuleOptions } from '../../context';
import { badRequest, unauthorized } from '../../plugins/errors';
import { findCameraToken, markCameraTokenUsed, type CameraTokenMatch } from '../org-settings/camera-tokens';
import { closePlateOcrIfLoaded } from './plate-ocr-loader';
import { platesInImage, readMultipartImage } from './plate-photo';
import { recordPlateRead } from './plate-reads.service';

// POST /api/anpr/:siteId/reads (issue 10): a site camera posts its reads with the site's camera
// token (Authorization: Bearer bwcam_…), no session. JSON {plate, confidence?, camera?, capturedAt?},
// or a picture (Content-Type image/*, or multipart with one file) read on the server. Same
// matching, repeat and automatic check-in rules as the gate's reads. See docs/anpr-webhook.md.
//
// Any failure of the token — missing, malformed, unknown, revoked, another site's, or a site that
// does not exist — is the same 401: the answer never tells whether a site exists.

/** Reads a camera may post per token and minute. */
export const CAMERA_READS_PER_MINUTE = 120;
const INVALID_TOKEN = 'A valid camera token is required (Authorization: Bearer <token>)';

declare module 'fastify' {
  interface FastifyRequest {
    cameraToken?: CameraTokenMatch;
  }
}

function bearerOf(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match ? match[1]! : null;
}

/** The rate-limit key: the token (hashed, so secrets never sit in the limiter's store); callers without one share the IP's key. */
function tokenKey(request: FastifyRequest): string {
  const token = bearerOf(request);
  return token ? `camera:${createHash('sha256').update(token).digest('hex')}` : `camera-ip:${request.ip}`;
}

const zodDetails = (error: z.ZodError) => error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));

const anprWebhookRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.addHook('onClose', closePlateOcrIfLoaded);
  // Pictures posted as they are (a JPEG body with Content-Type image/jpeg): kept as a buffer.
  app.addContentTypeParser(/^image\//i, { parseAs: 'buffer', bodyLimit: MAX_PLATE_PHOTO_BYTES }, (_request, body, done) => done(null, body));

  app.post(
    '/anpr/:siteId/reads',
    {
      config: ctx.config.rateLimitDisabled ? {} : { rateLimit: { max: CAMERA_READS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: tokenKey } },
      // The token is checked before the body is read: an unknown caller's upload is never parsed.
      onRequest: async (request) => {
        const { siteId } = request.params as { siteId: string };
        const secret = bearerOf(request);
        const token = secret ? await findCameraToken(ctx.database.db, siteId, secret) : null;
        if (!token) throw unauthorized(INVALID_TOKEN);
        request.cameraToken = token;
      },
      schema: {
        ...contract['POST /api/anpr/:siteId/reads'],
        tags: ['anpr'],
        summary: "A site camera's plate read (JSON, or a picture as image/* or multipart), with the site's camera token",
      },
    },
    async (request) => {
      const token = request.cameraToken!;
      let reads: string[];
      let details: { confidence?: number; camera?: string; capturedAt?: Date } = {};
      if (request.isMultipart()) {
        reads = await platesInImage(await readMultipartImage(request));
      } else if (Buffer.isBuffer(request.body)) {
        reads = await platesInImage(request.body);
      } else {
        if (request.body !== undefined && (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body))) {
          throw badRequest('Send the read as a JSON object {"plate": "…"}, a picture (Content-Type image/*) or a multipart form with one picture');
        }
        const parsed = webhookReadBodySchema.safeParse(request.body ?? {});
        if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid read', zodDetails(parsed.error));
        const { plate, confidence, camera, capturedAt } = parsed.data;
        reads = [plate];
        details = { confidence, camera: camera || undefined, capturedAt: capturedAt ? new Date(capturedAt) : undefined };
        // Year 9999 or 1970 is a camera's broken clock, not a read to file under that time (issue 21).
        const problem = details.capturedAt ? capturedAtProblem(details.capturedAt, ctx.clock.now()) : null;
        if (problem) throw badRequest(problem, [{ path: 'capturedAt', message: problem }]);
      }
      const now = ctx.clock.now();
      const result = await recordPlateRead(
        ctx,
        {
          orgId: token.orgId,
          siteId: token.siteId,
          reads,
          source: 'webhook',
          confidence: details.confidence,
          camera: details.camera ?? token.name,
          capturedAt: details.capturedAt,
          cameraTokenId: token.id,
        },
        { role: 'camera', auditActor: null, ip: request.ip, details: { camera_token_id: token.id, camera: details.camera ?? token.name } },
      );
      await markCameraTokenUsed(ctx.database.db, token, now);
      app.usage.record(token.orgId, 'webhook_call');
      return result;
    },
  );
};

export default anprWebhookRoutes;
