import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { quoteRequestSchema } from '../../../domain/quote-request';
import { publicSiteSchema } from '../../../domain/site-schemas';
import type { ModuleOptions } from '../../app';
import { perIpLimit } from '../../plugins/rate-limit';
import * as service from './public.service';

// Signed-out endpoints under /api/public, each rate limited per IP.

const organizationOption = z.object({ id: z.string(), name: z.string() });

const siteStatusSchema = z.object({
  expectedToday: z.number().int().describe('Live bookings starting today (site time zone)'),
  checkedIn: z.number().int().describe('Of those, arrived at the gate'),
  bays: z.number().int().describe('Active bays'),
  baysAvailable: z.number().int().describe('Active bays with no vehicle at them and no blackout now'),
});

const platformStatsSchema = z.object({
  organizations: z.number().int(),
  users: z.number().int(),
  uptimeSeconds: z.number().int(),
  mrr: z.number().describe('Monthly recurring revenue of active subscriptions, USD'),
});

const overviewSchema = z.object({
  bookingsToday: z.number().int(),
  pendingRequests: z.number().int(),
  checkedInNow: z.number().int(),
  activeBays: z.number().int(),
});

const publicRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const limit = (max: number) => perIpLimit(ctx, max);

  app.get(
    '/organizations',
    {
      config: limit(60),
      schema: {
        tags: ['public'],
        summary: 'Active organizations by name (organization login list and booking form)',
        response: { 200: z.array(organizationOption) },
      },
    },
    async () => service.listOrganizations(ctx),
  );

  app.get(
    '/sites',
    {
      config: limit(60),
      schema: {
        tags: ['public'],
        summary: 'Active sites of active organizations (dockmaster login)',
        response: { 200: z.array(publicSiteSchema) },
      },
    },
    async () => service.listSites(ctx),
  );

  app.get(
    '/sites/:siteId/status',
    {
      config: limit(60),
      schema: {
        tags: ['public'],
        summary: "A site's figures for today (dockmaster login)",
        params: z.object({ siteId: z.string().max(100) }),
        response: { 200: siteStatusSchema },
      },
    },
    async (request) => service.siteStatus(ctx, request.params.siteId),
  );

  app.get(
    '/platform-stats',
    {
      config: limit(60),
      schema: {
        tags: ['public'],
        summary: 'Platform figures (super-admin login page)',
        response: { 200: platformStatsSchema },
      },
    },
    async () => service.platformStats(ctx),
  );

  app.get(
    '/overview',
    {
      config: limit(60),
      schema: {
        tags: ['public'],
        summary: "Today's overview over active organizations (organization admin login page)",
        response: { 200: overviewSchema },
      },
    },
    async () => service.overview(ctx),
  );

  app.post(
    '/quote-requests',
    {
      config: limit(5),
      schema: {
        tags: ['public'],
        summary: 'Request a quote (landing page)',
        body: quoteRequestSchema,
        response: { 201: z.object({ id: z.string() }) },
      },
    },
    async (request, reply) => {
      const created = await service.createQuoteRequest(ctx, request.body, { ip: request.ip ?? null });
      return reply.code(201).send(created);
    },
  );
};

export default publicRoutes;
