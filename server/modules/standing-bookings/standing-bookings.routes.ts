import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { standingBookingsContract as contract } from '../../../domain/contract/standing-bookings.contract';
import type { ModuleOptions } from '../../context';
import { orgScope } from '../../plugins/org-scope';
import * as service from './standing-bookings.service';

// /api/orgs/:orgId/standing-bookings… — registered inside the organization scope (server/app.ts);
// every handler is for organization admins (the service checks).

const security = [{ bearer: [] }];
const tags = ['standing-bookings'];

const standingBookingRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/standing-bookings',
    { schema: { ...contract['GET /api/orgs/:orgId/standing-bookings'], tags, summary: 'The organization’s standing (recurring) bookings, requests first, one page at a time (org admins)', security } },
    async (request) => service.listStanding(ctx, orgScope(request), request.query),
  );

  app.post(
    '/standing-bookings',
    { schema: { ...contract['POST /api/orgs/:orgId/standing-bookings'], tags, summary: 'Creates a standing booking and books its dates up to its weeks ahead at once (org admins)', security } },
    async (request, reply) => reply.code(201).send(await service.createStanding(ctx, orgScope(request), request.body, request.ip)),
  );

  app.get(
    '/standing-bookings/conflicts',
    { schema: { ...contract['GET /api/orgs/:orgId/standing-bookings/conflicts'], tags, summary: 'Dates of standing bookings that could not be booked, soonest first (org admins)', security } },
    async (request) => service.listConflicts(ctx, orgScope(request)),
  );

  app.get(
    '/standing-bookings/:standingId',
    { schema: { ...contract['GET /api/orgs/:orgId/standing-bookings/:standingId'], tags, summary: 'One standing booking with its dates (org admins)', security } },
    async (request) => service.getStanding(ctx, orgScope(request), request.params.standingId),
  );

  app.put(
    '/standing-bookings/:standingId',
    {
      schema: {
        ...contract['PUT /api/orgs/:orgId/standing-bookings/:standingId'],
        tags,
        summary: 'Changes a standing booking; its upcoming bookings follow a new schedule, the haulier is e-mailed once (org admins)',
        security,
      },
    },
    async (request) => service.updateStanding(ctx, orgScope(request), request.params.standingId, request.body, request.ip),
  );

  app.post(
    '/standing-bookings/:standingId/cancel',
    { schema: { ...contract['POST /api/orgs/:orgId/standing-bookings/:standingId/cancel'], tags, summary: 'Cancels the series and every upcoming booking of it; one e-mail to the haulier (org admins)', security } },
    async (request) => service.cancelStanding(ctx, orgScope(request), request.params.standingId, request.body.reason, request.ip),
  );

  app.post(
    '/standing-bookings/:standingId/approve',
    { schema: { ...contract['POST /api/orgs/:orgId/standing-bookings/:standingId/approve'], tags, summary: 'Approves a haulier’s request for a standing booking and books its dates (org admins)', security } },
    async (request) => service.approveStanding(ctx, orgScope(request), request.params.standingId, request.ip),
  );

  app.post(
    '/standing-bookings/:standingId/decline',
    { schema: { ...contract['POST /api/orgs/:orgId/standing-bookings/:standingId/decline'], tags, summary: 'Declines a haulier’s request for a standing booking with a reason (org admins)', security } },
    async (request) => service.declineStanding(ctx, orgScope(request), request.params.standingId, request.body.reason, request.ip),
  );

  app.post(
    '/standing-bookings/:standingId/occurrences/:date/cancel',
    { schema: { ...contract['POST /api/orgs/:orgId/standing-bookings/:standingId/occurrences/:date/cancel'], tags, summary: 'Cancels one date of a standing booking (its booking, or an open conflict)', security } },
    async (request) => service.cancelOccurrence(ctx, orgScope(request), request.params.standingId, request.params.date, request.ip),
  );

  app.post(
    '/standing-bookings/:standingId/occurrences/:date/move',
    { schema: { ...contract['POST /api/orgs/:orgId/standing-bookings/:standingId/occurrences/:date/move'], tags, summary: 'Moves one date’s booking to another date and time of its site', security } },
    async (request) => service.moveOccurrence(ctx, orgScope(request), request.params.standingId, request.params.date, request.body, request.ip),
  );

  app.post(
    '/standing-bookings/:standingId/occurrences/:date/resolve',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/standing-bookings/:standingId/occurrences/:date/resolve'],
        tags,
        summary: 'Resolves a date that could not be booked: retry at the series’ time, pick another time, or skip it',
        security,
      },
    },
    async (request) => service.resolveConflict(ctx, orgScope(request), request.params.standingId, request.params.date, request.body, request.ip),
  );
};

export default standingBookingRoutes;
