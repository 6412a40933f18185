import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { siteSchema } from '../../../domain/site-schemas';
import type { ModuleOptions } from '../../context';
import { requireAuth, requireOrgAccess } from '../../plugins/auth';
import * as service from './organizations.service';

const myOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  active: z.boolean(),
  role: z.string().describe('The caller’s role in this organization'),
});

const organizationRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/me/organizations',
    {
      schema: {
        tags: ['organizations'],
        summary: 'Active organizations in which the caller has an active membership, by name',
        security: [{ bearer: [] }],
        response: { 200: z.array(myOrganizationSchema) },
      },
    },
    async (request) => service.listMyOrganizations(ctx, requireAuth(request)),
  );

  app.get(
    '/orgs/:orgId/sites',
    {
      schema: {
        tags: ['organizations'],
        summary: 'Active sites of an organization, by name (another organization answers 404)',
        security: [{ bearer: [] }],
        params: z.object({ orgId: z.string().max(100) }),
        response: { 200: z.array(siteSchema) },
      },
    },
    async (request) => service.listSites(ctx, await requireOrgAccess(ctx, request, request.params.orgId)),
  );
};

export default organizationRoutes;
