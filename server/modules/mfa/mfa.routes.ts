import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mfaContract as contract } from '../../../domain/contract/mfa.contract';
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
    { schema: { ...contract['GET /api/auth/mfa'], tags, security, summary: 'Two-factor sign-in: on or off, recovery codes left, and whether the platform requires it' } },
    async (request) => mfa.getStatus(ctx, requireAuth(request)),
  );

  app.post(
    '/auth/mfa/enrol',
    {
      config: limit,
      schema: {
        ...contract['POST /api/auth/mfa/enrol'],
        tags,
        security,
        summary: 'Start enrolling an authenticator app: a new secret, its otpauth URI and a QR code (platform roles)',
      },
    },
    async (request, reply) => reply.headers(noStore).send(await mfa.startEnrolment(ctx, requireAuth(request), requestMeta(request))),
  );

  app.post(
    '/auth/mfa/confirm',
    {
      config: limit,
      schema: {
        ...contract['POST /api/auth/mfa/confirm'],
        tags,
        security,
        summary: 'Finish enrolling with the first code from the app; answers ten single-use recovery codes, shown this once',
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
        ...contract['POST /api/auth/mfa/disable'],
        tags,
        security,
        summary: 'Turn two-factor sign-in off, with a current code or a recovery code',
      },
    },
    async (request) => mfa.disable(ctx, requireAuth(request), request.body, requestMeta(request)),
  );

  app.post(
    '/auth/mfa/recovery-codes',
    {
      config: limit,
      schema: {
        ...contract['POST /api/auth/mfa/recovery-codes'],
        tags,
        security,
        summary: 'Replace the recovery codes with ten new ones (a current code is required)',
      },
    },
    async (request, reply) =>
      reply.headers(noStore).send(await mfa.regenerateRecoveryCodes(ctx, requireAuth(request), request.body.code, requestMeta(request))),
  );
};

export default mfaRoutes;
