import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { WEBHOOK_ADMIN_ONLY } from '../../../domain/webhooks';
import { webhooksContract as contract } from '../../../domain/contract/webhooks.contract';
import type { ModuleOptions } from '../../context';
import { forbidden } from '../../plugins/errors';
import { orgScope } from '../../plugins/org-scope';
import * as service from './webhooks.service';

// /api/orgs/:orgId/webhooks… — inside the organization scope (server/app.ts). Org admins only:
// a dockmaster is refused before the body is validated (403, learning nothing from a 400).

const security = [{ bearer: [] }];
const tags = ['webhooks'];

const webhookRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.addHook('preValidation', async (request) => {
    if (orgScope(request).actor !== 'org_admin') throw forbidden(WEBHOOK_ADMIN_ONLY);
  });

  app.get(
    '/webhooks',
    { schema: { ...contract['GET /api/orgs/:orgId/webhooks'], tags, summary: 'The organization’s webhook endpoints with their last delivery (org admins)', security } },
    async (request) => service.listEndpoints(ctx, orgScope(request)),
  );

  app.post(
    '/webhooks',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/webhooks'],
        tags,
        summary: 'Adds a webhook endpoint; answers its signing secret, shown this once (org admins)',
        description:
          'The URL must be http(s) and must not resolve to a loopback, private or link-local address (unless the platform allows private targets): 422 unsafe_url otherwise. Deliveries are signed: see docs/webhooks.md.',
        security,
      },
    },
    async (request, reply) => reply.code(201).send(await service.createEndpoint(ctx, orgScope(request), request.body, request.ip)),
  );

  app.get(
    '/webhooks/:webhookId',
    { schema: { ...contract['GET /api/orgs/:orgId/webhooks/:webhookId'], tags, summary: 'One webhook endpoint', security } },
    async (request) => service.getEndpoint(ctx, orgScope(request), request.params.webhookId),
  );

  app.patch(
    '/webhooks/:webhookId',
    {
      schema: {
        ...contract['PATCH /api/orgs/:orgId/webhooks/:webhookId'],
        tags,
        summary: 'Changes an endpoint: URL, description, events, or enables / disables it',
        security,
      },
    },
    async (request) => service.updateEndpoint(ctx, orgScope(request), request.params.webhookId, request.body, request.ip),
  );

  app.delete(
    '/webhooks/:webhookId',
    { schema: { ...contract['DELETE /api/orgs/:orgId/webhooks/:webhookId'], tags, summary: 'Removes an endpoint and its delivery log', security } },
    async (request, reply) => {
      await service.deleteEndpoint(ctx, orgScope(request), request.params.webhookId, request.ip);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhooks/:webhookId/rotate-secret',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/webhooks/:webhookId/rotate-secret'],
        tags,
        summary: 'Replaces the signing secret (the old one stops at once); answers the new secret, shown this once',
        security,
      },
    },
    async (request) => service.rotateSecret(ctx, orgScope(request), request.params.webhookId, request.ip),
  );

  app.post(
    '/webhooks/:webhookId/test',
    {
      schema: { ...contract['POST /api/orgs/:orgId/webhooks/:webhookId/test'], tags, summary: 'Queues a webhook.ping delivery to the endpoint', security },
    },
    async (request, reply) => reply.code(202).send(await service.sendTest(ctx, orgScope(request), request.params.webhookId, request.ip)),
  );

  app.get(
    '/webhooks/:webhookId/deliveries',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/webhooks/:webhookId/deliveries'],
        tags,
        summary: 'The endpoint’s delivery log, latest first: status, response code, duration, next attempt',
        security,
      },
    },
    async (request) => service.listDeliveries(ctx, orgScope(request), request.params.webhookId, request.query.page),
  );

  app.post(
    '/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/webhooks/:webhookId/deliveries/:deliveryId/redeliver'],
        tags,
        summary: 'Sends a delivered or failed event again (same event id and body, a new delivery)',
        security,
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.redeliver(ctx, orgScope(request), request.params.webhookId, request.params.deliveryId, request.ip)),
  );
};

export default webhookRoutes;
