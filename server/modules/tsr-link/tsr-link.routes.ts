import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TSR_LINK_SYSTEMS, WEBHOOK_ADMIN_ONLY, tsrConnectionInputSchema, tsrConnectionListSchema, tsrConnectionSchema } from '../../../domain/webhooks';
import type { ModuleOptions } from '../../app';
import { forbidden } from '../../plugins/errors';
import { orgScope } from '../../plugins/org-scope';
import * as service from './tsr-link.service';

// /api/orgs/:orgId/tsr-connections… — the organization's ServiceNow / FMClarity connections (org
// admins only, refused before validation). Credentials go in, never out.

const security = [{ bearer: [] }];
const tags = ['webhooks'];

const tsrLinkRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.addHook('preValidation', async (request) => {
    if (orgScope(request).actor !== 'org_admin') throw forbidden(WEBHOOK_ADMIN_ONLY);
  });

  app.get(
    '/tsr-connections',
    { schema: { tags, summary: 'The organization’s TSR connections (no credentials)', security, response: { 200: tsrConnectionListSchema } } },
    async (request) => service.listConnections(ctx, orgScope(request)),
  );

  app.put(
    '/tsr-connections',
    {
      schema: {
        tags,
        summary: 'Creates or replaces the connection to ServiceNow or FMClarity (base URL and credentials, stored encrypted)',
        description: 'Bookings whose TSR URL points at a record on this base URL get a work note at every status change. See docs/webhooks.md.',
        security,
        body: tsrConnectionInputSchema,
        response: { 200: tsrConnectionSchema },
      },
    },
    async (request) => service.saveConnection(ctx, orgScope(request), request.body, request.ip),
  );

  app.delete(
    '/tsr-connections/:system',
    {
      schema: {
        tags,
        summary: 'Removes the connection (queued work notes for it are dropped)',
        security,
        params: z.object({ orgId: z.string(), system: z.enum(TSR_LINK_SYSTEMS) }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.deleteConnection(ctx, orgScope(request), request.params.system, request.ip);
      return reply.code(204).send(null);
    },
  );
};

export default tsrLinkRoutes;
