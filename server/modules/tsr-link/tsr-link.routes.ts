import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { WEBHOOK_ADMIN_ONLY } from '../../../domain/webhooks';
import { tsrLinkContract as contract } from '../../../domain/contract/tsr-link.contract';
import type { ModuleOptions } from '../../context';
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
    { schema: { ...contract['GET /api/orgs/:orgId/tsr-connections'], tags, summary: 'The organization’s TSR connections (no credentials)', security } },
    async (request) => service.listConnections(ctx, orgScope(request)),
  );

  app.put(
    '/tsr-connections',
    {
      schema: {
        ...contract['PUT /api/orgs/:orgId/tsr-connections'],
        tags,
        summary: 'Creates or replaces the connection to ServiceNow or FMClarity (base URL and credentials, stored encrypted)',
        description: 'Bookings whose TSR URL points at a record on this base URL get a work note at every status change. See docs/webhooks.md.',
        security,
      },
    },
    async (request) => service.saveConnection(ctx, orgScope(request), request.body, request.ip),
  );

  app.delete(
    '/tsr-connections/:system',
    {
      schema: {
        ...contract['DELETE /api/orgs/:orgId/tsr-connections/:system'],
        tags,
        summary: 'Removes the connection (queued work notes for it are dropped)',
        security,
      },
    },
    async (request, reply) => {
      await service.deleteConnection(ctx, orgScope(request), request.params.system, request.ip);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/tsr-connections/:system/deliveries',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/tsr-connections/:system/deliveries'],
        tags,
        summary: 'The connection’s delivery log, latest first: each work note’s booking, status, response code, duration, next attempt',
        security,
      },
    },
    async (request) => service.listDeliveries(ctx, orgScope(request), request.params.system, request.query.page),
  );

  app.post(
    '/tsr-connections/:system/deliveries/:deliveryId/redeliver',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/tsr-connections/:system/deliveries/:deliveryId/redeliver'],
        tags,
        summary: 'Sends a delivered or failed work note again (a new delivery of the same note, to the same record)',
        description: '409 when the connection is off, or its base URL has changed since the note was queued.',
        security,
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.redeliver(ctx, orgScope(request), request.params.system, request.params.deliveryId, request.ip)),
  );
};

export default tsrLinkRoutes;
