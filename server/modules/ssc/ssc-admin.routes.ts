import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { WEBHOOK_ADMIN_ONLY } from '../../../domain/webhooks';
import { sscAdminContract as contract } from '../../../domain/contract/ssc-admin.contract';
import type { ModuleOptions } from '../../context';
import { forbidden } from '../../plugins/errors';
import { orgScope } from '../../plugins/org-scope';
import * as service from './ssc-admin.service';

// /api/orgs/:orgId/ssc-subscriptions… — the carriers' SSC webhook subscriptions of the
// organization's tenants, their delivery logs and their removal (org admins only, refused before
// validation: a dockmaster learns nothing from a 400).

const security = [{ bearer: [] }];
const tags = ['webhooks'];

const sscAdminRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.addHook('preValidation', async (request) => {
    if (orgScope(request).actor !== 'org_admin') throw forbidden(WEBHOOK_ADMIN_ONLY);
  });

  app.get(
    '/ssc-subscriptions',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/ssc-subscriptions'],
        tags,
        summary: 'The SSC webhook subscriptions carriers created for the organization’s tenants, with the key that made each and its last delivery',
        security,
      },
    },
    async (request) => service.listSubscriptions(ctx, orgScope(request)),
  );

  app.get(
    '/ssc-subscriptions/:subscriptionId/deliveries',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/ssc-subscriptions/:subscriptionId/deliveries'],
        tags,
        summary: 'What was posted to the subscription’s callback URL, latest first: status, response code, duration, next attempt',
        security,
      },
    },
    async (request) => service.listDeliveries(ctx, orgScope(request), request.params.subscriptionId, request.query.page),
  );

  app.post(
    '/ssc-subscriptions/:subscriptionId/deliveries/:deliveryId/redeliver',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/ssc-subscriptions/:subscriptionId/deliveries/:deliveryId/redeliver'],
        tags,
        summary: 'Posts a delivered or failed event to the subscription’s callback URL again (a new delivery of the same event, audited)',
        description: '400 while the delivery is still being attempted; 409 when the subscription has no callback URL.',
        security,
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.redeliver(ctx, orgScope(request), request.params.subscriptionId, request.params.deliveryId, request.ip)),
  );

  app.delete(
    '/ssc-subscriptions/:subscriptionId',
    {
      schema: {
        ...contract['DELETE /api/orgs/:orgId/ssc-subscriptions/:subscriptionId'],
        tags,
        summary: 'Removes a carrier’s subscription, its delivery log and what is still queued for it (audited as the admin)',
        security,
      },
    },
    async (request, reply) => {
      await service.deleteSubscription(ctx, orgScope(request), request.params.subscriptionId, request.ip);
      return reply.code(204).send(null);
    },
  );
};

export default sscAdminRoutes;
