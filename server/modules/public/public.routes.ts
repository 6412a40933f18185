import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { quoteRequestSchema } from '../../../domain/quote-request';
import { publicSiteSchema } from '../../../domain/site-schemas';
import type { ModuleOptions } from '../../app';
import { perIpLimit } from '../../plugins/rate-limit';
import * as service from './public.service';

// Signed-out endpoints under /api/public, each rate limited per IP. No booking figures: an
// organization's bookings are shown only after sign-in, and only its own (its dashboard);
// GET /api/public/overview (live platform-wide totals for anyone) is gone (issue 21, decision 029).

const organizationOption = z.object({ id: z.string(), name: z.string() });

const siteStatusSchema = z.object({
  siteName: z.string(),
  timeZone: z.string(),
  localTime: z.string().describe("The site's local time now, HH:mm"),
  hoursToday: z.array(z.object({ open: z.string(), close: z.string() })).describe('Opening windows today, in order; empty when closed'),
  isOpenNow: z.boolean(),
});

const platformStatsSchema = z.object({
  organizations: z.number().int().describe('Active organizations'),
  users: z.number().int().describe('Active users'),
  uptimePercent: z.number().nullable().describe('Minutes up over the last 30 days, measured by the heartbeat; null without history'),
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
        summary: "A site's opening state and hours today, in its time zone (dockmaster login, drivers at the gate)",
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
