import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orgDashboardContract as contract } from '../../../domain/contract/org-dashboard.contract';
import type { ModuleOptions } from '../../context';
import { orgScope } from '../../plugins/org-scope';
import * as service from './org-dashboard.service';

// /api/orgs/:orgId/dashboard — registered inside the organization scope (server/app.ts).

const orgDashboardRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/dashboard',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/dashboard'],
        tags: ['dashboard'],
        summary: 'The organization admin dashboard: today’s figures, latest requests, live operations and sites',
        description:
          'Computed at the server’s clock; "today" is each site’s own calendar day in its time zone. With siteId, one site of the organization only (another organization’s site answers 404).',
        security: [{ bearer: [] }],
      },
    },
    async (request) => service.getDashboard(ctx, orgScope(request), request.query),
  );
};

export default orgDashboardRoutes;
