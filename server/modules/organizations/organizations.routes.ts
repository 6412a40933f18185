import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { organizationsContract as contract } from '../../../domain/contract/organizations.contract';
import type { ModuleOptions } from '../../context';
import { requireAuth, requireOrgAccess } from '../../plugins/auth';
import * as service from './organizations.service';

const organizationRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/me/organizations',
    {
      schema: {
        ...contract['GET /api/me/organizations'],
        tags: ['organizations'],
        summary: 'Active organizations in which the caller has an active membership, by name',
        security: [{ bearer: [] }],
      },
    },
    async (request) => service.listMyOrganizations(ctx, requireAuth(request)),
  );

  app.get(
    '/orgs/:orgId/sites',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/sites'],
        tags: ['organizations'],
        summary: 'Active sites of an organization, by name (another organization answers 404)',
        security: [{ bearer: [] }],
      },
    },
    async (request) => service.listSites(ctx, await requireOrgAccess(ctx, request, request.params.orgId)),
  );
};

export default organizationRoutes;
