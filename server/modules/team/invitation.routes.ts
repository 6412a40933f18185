import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { invitationContract as contract } from '../../../domain/contract/invitation.contract';
import type { ModuleOptions } from '../../context';
import { perIpLimit } from '../../plugins/rate-limit';
import * as service from './invitation.service';

// /api/invitations… : the invited person reads and accepts an invitation (no session). Limited per
// address like the other public credential endpoints.

const invitationRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/invitations/:token',
    {
      config: perIpLimit(ctx, 30),
      schema: {
        ...contract['GET /api/invitations/:token'],
        tags: ['team'],
        summary: 'What an invitation link invites to: organization, e-mail, role, and whether an account with that e-mail exists',
        description: 'An unknown, expired, revoked or accepted link answers 404 invalid_invitation.',
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.getInvitation(ctx, request.params.token);
    },
  );

  app.post(
    '/invitations/:token/accept',
    {
      config: perIpLimit(ctx, 10),
      schema: {
        ...contract['POST /api/invitations/:token/accept'],
        tags: ['team'],
        summary: 'Accepts an invitation: creates the account (name and password) or adds the membership to the existing one',
        description: 'An existing account keeps its password (none is needed). Then the person signs in as usual: org admins at /orgadmin, dockmasters and security staff at /dockmaster.',
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.acceptInvitation(ctx, request.params.token, request.body, request.ip);
    },
  );
};

export default invitationRoutes;
