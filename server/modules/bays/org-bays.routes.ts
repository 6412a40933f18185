import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orgBaysContract as contract } from '../../../domain/contract/org-bays.contract';
import type { ModuleOptions } from '../../context';
import { orgScope } from '../../plugins/org-scope';
import * as service from './org-bays.service';

// /api/orgs/:orgId/bays… (issue 9: bays) — registered inside the organization scope, so every
// handler runs with the caller's scope already checked. Org admins write; dockmasters read.

const security = [{ bearer: [] }];
const AFFECTED =
  'Upcoming bookings the change leaves on a bay that no longer takes them answer 409 affected_bookings (listed in details.affected) and nothing changes; send the same request again with `resolution` (keep, reassign to another free compatible bay at the same time, or cancel with a reason e-mailed to the haulier) to apply the change and the resolution together. The outcomes come back with the bay.';

const orgBayRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/bays',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/bays'],
        tags: ['bays'],
        summary: 'The organization’s bays (one site, or all), in natural name order, with their upcoming bookings; one page at a time',
        security,
      },
    },
    async (request) => service.listBays(ctx, orgScope(request), request.query),
  );

  app.get(
    '/bays/:bayId',
    {
      schema: { ...contract['GET /api/orgs/:orgId/bays/:bayId'], tags: ['bays'], summary: 'One bay', security },
    },
    async (request) => service.getBay(ctx, orgScope(request), request.params.bayId),
  );

  app.post(
    '/bays',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/bays'],
        tags: ['bays'],
        summary: 'Adds a bay to a site of the organization (the booking portal offers it at once)',
        description: 'Org admins only. A name already used at the site (in any case) answers 400 with a field error on name.',
        security,
      },
    },
    async (request, reply) => reply.code(201).send(await service.createBay(ctx, orgScope(request), request.body, request.ip)),
  );

  app.patch(
    '/bays/:bayId',
    {
      schema: {
        ...contract['PATCH /api/orgs/:orgId/bays/:bayId'],
        tags: ['bays'],
        summary: 'Changes a bay: name, clearance, length, features, capacity (a bay without bookings may also move to another site)',
        description: `Org admins only. ${AFFECTED}`,
        security,
      },
    },
    async (request) => service.updateBay(ctx, orgScope(request), request.params.bayId, request.body ?? {}, request.ip),
  );

  app.post(
    '/bays/:bayId/deactivate',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/bays/:bayId/deactivate'],
        tags: ['bays'],
        summary: 'Closes a bay to new bookings',
        description: `Org admins only. ${AFFECTED}`,
        security,
      },
    },
    async (request) => service.deactivateBay(ctx, orgScope(request), request.params.bayId, request.body ?? {}, request.ip),
  );

  app.post(
    '/bays/:bayId/reactivate',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/bays/:bayId/reactivate'],
        tags: ['bays'],
        summary: 'Opens a closed bay to bookings again',
        description: 'Org admins only.',
        security,
      },
    },
    async (request) => service.reactivateBay(ctx, orgScope(request), request.params.bayId, request.ip),
  );

  app.delete(
    '/bays/:bayId',
    {
      schema: {
        ...contract['DELETE /api/orgs/:orgId/bays/:bayId'],
        tags: ['bays'],
        summary: 'Deletes a bay that has never had a booking',
        description: 'Org admins only. A bay with bookings (any status) answers 409 bay_has_bookings: deactivate it instead.',
        security,
      },
    },
    async (request, reply) => {
      await service.deleteBay(ctx, orgScope(request), request.params.bayId, request.ip);
      return reply.code(204).send(null);
    },
  );
};

export default orgBayRoutes;
