import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicContract as contract } from '../../../domain/contract/public.contract';
import type { ModuleOptions } from '../../context';
import { perIpLimit } from '../../plugins/rate-limit';
import * as service from './public.service';

// Signed-out endpoints under /api/public, each rate limited per IP. No booking figures: an
// organization's bookings are shown only after sign-in, and only its own (its dashboard);
// GET /api/public/overview (live platform-wide totals for anyone) is gone (issue 21, decision 029).

const publicRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const limit = (max: number) => perIpLimit(ctx, max);

  app.get(
    '/organizations',
    {
      config: limit(60),
      schema: {
        ...contract['GET /api/public/organizations'],
        tags: ['public'],
        summary: 'Active organizations by name (organization login list and booking form)',
      },
    },
    async () => service.listOrganizations(ctx),
  );

  app.get(
    '/sites',
    {
      config: limit(60),
      schema: {
        ...contract['GET /api/public/sites'],
        tags: ['public'],
        summary: 'Active sites of active organizations (dockmaster login)',
      },
    },
    async () => service.listSites(ctx),
  );

  app.get(
    '/sites/:siteId/status',
    {
      config: limit(60),
      schema: {
        ...contract['GET /api/public/sites/:siteId/status'],
        tags: ['public'],
        summary: "A site's opening state and hours today, in its time zone (dockmaster login, drivers at the gate)",
      },
    },
    async (request) => service.siteStatus(ctx, request.params.siteId),
  );

  app.get(
    '/platform-stats',
    {
      config: limit(60),
      schema: {
        ...contract['GET /api/public/platform-stats'],
        tags: ['public'],
        summary: 'Platform figures (super-admin login page)',
      },
    },
    async () => service.platformStats(ctx),
  );

  app.post(
    '/quote-requests',
    {
      config: limit(5),
      schema: {
        ...contract['POST /api/public/quote-requests'],
        tags: ['public'],
        summary: 'Request a quote (landing page)',
      },
    },
    async (request, reply) => {
      const created = await service.createQuoteRequest(ctx, request.body, { ip: request.ip ?? null });
      return reply.code(201).send(created);
    },
  );
};

export default publicRoutes;
