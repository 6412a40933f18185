import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { impersonationContract as contract } from '../../../domain/contract/impersonation.contract';
import type { ModuleOptions } from '../../context';
import { requireAuth, requirePlatformAdmin } from '../../plugins/auth';
import { requestMeta } from '../../auth/attempts';
import * as service from './impersonation.service';

// Impersonation (decision 017). Starting and ending from the platform side live under
// /api/platform (never reachable by an impersonation session); ending from the member's side is
// /api/impersonations/end, called with the impersonation session.

const tags = ['impersonation'];
const security = [{ bearer: [] }];

const impersonationRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.post(
    '/platform/impersonations',
    {
      // The role is checked before the body: a stranger learns nothing from a 400.
      preValidation: async (request) => {
        requirePlatformAdmin(request);
      },
      schema: {
        ...contract['POST /api/platform/impersonations'],
        tags,
        security,
        summary: "Act as one organization's member (super admin or platform support; a reason; 30 minutes at most)",
        description:
          'Answers the member\'s session (access and refresh tokens, as a sign-in does) and what the impersonation is. Refused: oneself, platform administrators, deactivated users or memberships, organizations that are not active; unknown ids answer 404. Audited as impersonation.start.',
      },
    },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await service.startImpersonation(ctx, requireAuth(request), request.body, requestMeta(request))),
  );

  app.post(
    '/platform/impersonations/:sessionId/end',
    {
      preValidation: async (request) => {
        requirePlatformAdmin(request);
      },
      schema: {
        ...contract['POST /api/platform/impersonations/:sessionId/end'],
        tags,
        security,
        summary: 'End an impersonation one started (after its 30 minutes, records it as expired)',
      },
    },
    async (request) => {
      const ended = await service.endImpersonationStartedBy(ctx, requireAuth(request), request.params.sessionId, requestMeta(request));
      ctx.realtime?.endSession?.(ended.id); // the member session's sockets close on every node
      return ended;
    },
  );

  app.post(
    '/impersonations/end',
    {
      schema: {
        ...contract['POST /api/impersonations/end'],
        tags,
        security,
        summary: 'End the impersonation this session is (the banner’s End); audited as impersonation.end',
      },
    },
    async (request) => {
      const ended = await service.endCurrentImpersonation(ctx, requireAuth(request), requestMeta(request));
      ctx.realtime?.endSession?.(ended.id); // its sockets close on every node
      return ended;
    },
  );
};

export default impersonationRoutes;
