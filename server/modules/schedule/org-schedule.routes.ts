import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orgScheduleContract as contract } from '../../../domain/contract/org-schedule.contract';
import type { ModuleOptions } from '../../context';
import { orgScope } from '../../plugins/org-scope';
import * as service from './org-schedule.service';

// /api/orgs/:orgId/schedule — registered inside the organization scope (server/app.ts).

const orgScheduleRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/schedule',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/schedule'],
        tags: ['schedule'],
        summary: 'One site’s day or week: its active bays, the bookings that hold a bay and the blackouts, over site-local days',
        description: 'from and to are the site’s own calendar days, inclusive, at most 14 of them. A site of another organization answers 404.',
        security: [{ bearer: [] }],
      },
    },
    async (request) => service.getSchedule(ctx, orgScope(request), request.query),
  );
};

export default orgScheduleRoutes;
