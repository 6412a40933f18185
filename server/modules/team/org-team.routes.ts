import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orgTeamContract as contract } from '../../../domain/contract/org-team.contract';
import type { ModuleOptions } from '../../context';
import { orgScope } from '../../plugins/org-scope';
import * as service from './team.service';

// /api/orgs/:orgId/team… (members and invitations) — registered inside the organization scope
// (server/app.ts): strangers get 404, anonymous callers 401; writes are for org admins (403).

const security = [{ bearer: [] }];

const orgTeamRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/team',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/team'],
        tags: ['team'],
        summary: 'The organization’s members (name, e-mail, role, employee ID, active, last sign-in) and pending invitations',
        description: 'Org admins and dockmasters may read it; canManage says whether the caller may change it.',
        security,
      },
    },
    async (request) => service.getTeam(ctx, orgScope(request)),
  );

  app.post(
    '/team/invitations',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/team/invitations'],
        tags: ['team'],
        summary: 'Invites a person by e-mail: a one-time link, valid 7 days, to set a password and join with the role',
        description:
          'Dockmasters and security staff need an employee ID, unique in the organization among members and pending invitations whatever its case (400 with a field error otherwise). An e-mail that is already a member, or already has a pending invitation, answers 400 too.',
        security,
      },
    },
    async (request, reply) => reply.code(201).send(await service.inviteMember(ctx, orgScope(request), request.body, request.ip)),
  );

  app.post(
    '/team/invitations/:invitationId/resend',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/team/invitations/:invitationId/resend'],
        tags: ['team'],
        summary: 'Sends the invitation again with a new link (the old link stops working) valid for another 7 days',
        security,
      },
    },
    async (request) => service.resendInvitation(ctx, orgScope(request), request.params.invitationId, request.ip),
  );

  app.delete(
    '/team/invitations/:invitationId',
    {
      schema: { ...contract['DELETE /api/orgs/:orgId/team/invitations/:invitationId'], tags: ['team'], summary: 'Revokes a pending invitation: its link stops working', security },
    },
    async (request, reply) => {
      await service.revokeInvitation(ctx, orgScope(request), request.params.invitationId, request.ip);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/team/members/:membershipId',
    {
      schema: {
        ...contract['PATCH /api/orgs/:orgId/team/members/:membershipId'],
        tags: ['team'],
        summary: 'Changes a member’s role and/or employee ID',
        description: 'The last active organization admin cannot be demoted (409 last_admin).',
        security,
      },
    },
    async (request) => service.updateMember(ctx, orgScope(request), request.params.membershipId, request.body, request.ip),
  );

  app.post(
    '/team/members/:membershipId/deactivate',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/team/members/:membershipId/deactivate'],
        tags: ['team'],
        summary: 'Deactivates a member: their sessions for this organization end at once',
        description:
          'Every session of theirs ends when they have no other active membership and no platform role. The last active organization admin cannot be deactivated (409 last_admin), nor can callers deactivate themselves.',
        security,
      },
    },
    async (request) => service.deactivateMember(ctx, orgScope(request), request.params.membershipId, request.ip),
  );

  app.post(
    '/team/members/:membershipId/reactivate',
    {
      schema: { ...contract['POST /api/orgs/:orgId/team/members/:membershipId/reactivate'], tags: ['team'], summary: 'Reactivates a member', security },
    },
    async (request) => service.reactivateMember(ctx, orgScope(request), request.params.membershipId, request.ip),
  );
};

export default orgTeamRoutes;
