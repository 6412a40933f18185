import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  mfaConfirmSchema,
  mfaEnrolmentSchema,
  mfaProofSchema,
  mfaRegenerateSchema,
  mfaStatusSchema,
  recoveryCodesSchema,
} from '../../../domain/auth-schemas';
import type { ModuleOptions } from '../../context';
import { requireAuth } from '../../plugins/auth';
import { perIpLimit } from '../../plugins/rate-limit';
import { requestMeta } from '../../auth/attempts';
import * as mfa from './mfa.service';

// /api/auth/mfa…: the signed-in user's own two-factor sign-in (decision 018). Reachable by a
// platform session that must still enrol; never by an impersonation session (server/plugins/auth.ts).

const tags = ['auth'];
const security = [{ bearer: [] }];

const mfaRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const limit = perIpLimit(ctx, 20);
  const noStore = { 'cache-control': 'no-store' };

  app.get(
    '/auth/mfa',
    { schema: { tags, security, summary: 'Two-factor sign-in: on or off, recovery codes left, and whether the platform requires it', response: { 200: mfaStatusSchema } } },
    async (request) => mfa.getStatus(ctx, requireAuth(request)),
  );

  app.post(
    '/auth/mfa/enrol',
    {
      config: limit,
      schema: {
        tags,
        security,
        summary: 'Start enrolling an authenticator app: a new secret, its otpauth URI and a QR code (platform roles)',
        response: { 200: mfaEnrolmentSchema },
      },
    },
    async (request, reply) => reply.headers(noStore).send(await mfa.startEnrolment(ctx, requireAuth(request), requestMeta(request))),
  );

  app.post(
    '/auth/mfa/confirm',
    {
      config: limit,
      schema: {
        tags,
        security,
        summary: 'Finish enrolling with the first code from the app; answers ten single-use recovery codes, shown this once',
        body: mfaConfirmSchema,
        response: { 200: recoveryCodesSchema },
      },
    },
    async (request, reply) =>
      reply.headers(noStore).send(await mfa.confirmEnrolment(ctx, requireAuth(request), request.body.code, requestMeta(request))),
  );

  app.post(
    '/auth/mfa/disable',
    {
      config: limit,
      schema: {
        tags,
        security,
        summary: 'Turn two-factor sign-in off, with a current code or a recovery code',
        body: mfaProofSchema,
        response: { 200: mfaStatusSchema },
      },
    },
    async (request) => mfa.disable(ctx, requireAuth(request), request.body, requestMeta(request)),
  );

  app.post(
    '/auth/mfa/recovery-codes',
    {
      config: limit,
      schema: {
        tags,
        security,
        summary: 'Replace the recovery codes with ten new ones (a current code is required)',
        body: mfaRegenerateSchema,
        response: { 200: recoveryCodesSchema },
      },
    },
    async (request, reply) =>
      reply.headers(noStore).send(await mfa.regenerateRecoveryCodes(ctx, requireAuth(request), request.body.code, requestMeta(request))),
  );
};

export default mfaRoutes;
