import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  emergencyResultSchema,
  emergencyStateSchema,
  emergencyStopSchema,
  gateApproveSchema,
  gateDeclineSchema,
  gateExtendSchema,
  gateMoveResultSchema,
  gateMoveSchema,
  gateOverviewSchema,
  gateQueueSchema,
  gateStartSchema,
  walkInSchema,
} from '../../../domain/gate';
import type { ModuleOptions } from '../../context';
import { siteScope } from '../../plugins/site-scope';
import * as service from './gate.service';

// /api/sites/:siteId/gate… (issue 10): the gate and the bays of one site — registered inside the
// site scope (server/plugins/site-scope.ts), so each handler runs with the caller's site and role
// checked. Routes only translate HTTP; the rules are in gate.service.ts.

const siteParams = z.object({ siteId: z.string() });
const bookingParams = siteParams.extend({ bookingId: z.string().max(100) });
const security = [{ bearer: [] }];
const tags = ['gate'];

const gateRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const actorOf = (request: FastifyRequest) => service.gateActorOf(siteScope(request), request.ip);

  app.get(
    '/gate/overview',
    { schema: { tags, summary: 'The gate today: counters, live list, upcoming arrivals, bays, emergency state', security, params: siteParams, response: { 200: gateOverviewSchema } } },
    async (request) => service.overview(ctx, actorOf(request)),
  );

  app.get(
    '/gate/queue',
    { schema: { tags, summary: 'Vehicles checked in and waiting, in order of arrival, with free compatible bays', security, params: siteParams, response: { 200: gateQueueSchema } } },
    async (request) => service.queue(ctx, actorOf(request)),
  );

  app.post(
    '/gate/bookings/:bookingId/check-in',
    {
      schema: {
        tags,
        summary: 'Check a vehicle in (approved → checked in), from 60 minutes before its start until the no-show cut-off',
        security,
        params: bookingParams,
        body: gateMoveSchema.optional(),
        response: { 200: gateMoveResultSchema },
      },
    },
    async (request) => service.checkInResponse(ctx, actorOf(request), request.params.bookingId, request.body?.version),
  );

  app.post(
    '/gate/bookings/:bookingId/start',
    {
      schema: {
        tags,
        summary: 'Call a checked-in vehicle to its bay, or to another free compatible bay (→ in progress)',
        security,
        params: bookingParams,
        body: gateStartSchema.optional(),
        response: { 200: gateMoveResultSchema },
      },
    },
    async (request) => service.startAtBay(ctx, actorOf(request), request.params.bookingId, request.body ?? {}),
  );

  app.post(
    '/gate/bookings/:bookingId/check-out',
    {
      schema: {
        tags,
        summary: 'Check a vehicle out (in progress or overstay → completed: Force Check Out); answers the dwell time',
        security,
        params: bookingParams,
        body: gateMoveSchema.optional(),
        response: { 200: gateMoveResultSchema },
      },
    },
    async (request) => service.checkOutResponse(ctx, actorOf(request), request.params.bookingId, request.body?.version),
  );

  app.post(
    '/gate/bookings/:bookingId/extend',
    { schema: { tags, summary: 'Extend Time for an overstaying vehicle (a later end, back to in progress)', security, params: bookingParams, body: gateExtendSchema, response: { 200: gateMoveResultSchema } } },
    async (request) => service.extend(ctx, actorOf(request), request.params.bookingId, request.body.version, request.body.endTime),
  );

  app.post(
    '/gate/bookings/:bookingId/approve',
    { schema: { tags, summary: 'Approve a pending booking (org admins and dockmasters)', security, params: bookingParams, body: gateApproveSchema, response: { 200: gateMoveResultSchema } } },
    async (request) => service.approve(ctx, actorOf(request), request.params.bookingId, request.body.version),
  );

  app.post(
    '/gate/bookings/:bookingId/decline',
    { schema: { tags, summary: 'Decline a pending booking with a reason', security, params: bookingParams, body: gateDeclineSchema, response: { 200: gateMoveResultSchema } } },
    async (request) => service.decline(ctx, actorOf(request), request.params.bookingId, request.body.version, request.body.reason),
  );

  app.post(
    '/gate/walk-ins',
    {
      schema: {
        tags,
        summary: 'A vehicle without a booking: booked now on a compatible free bay and checked in',
        security,
        params: siteParams,
        body: walkInSchema,
        response: { 201: gateMoveResultSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await service.walkIn(ctx, actorOf(request), request.body)),
  );

  app.get(
    '/gate/emergency',
    { schema: { tags, summary: 'Whether the site is stopped for an emergency', security, params: siteParams, response: { 200: emergencyStateSchema } } },
    async (request) => service.getEmergency(ctx, actorOf(request)),
  );

  app.post(
    '/gate/emergency',
    {
      schema: {
        tags,
        summary: 'Emergency stop: the portal offers no slots at this site until it resumes; org admins are e-mailed',
        security,
        params: siteParams,
        body: emergencyStopSchema,
        response: { 200: emergencyResultSchema },
      },
    },
    async (request) => service.setEmergency(ctx, actorOf(request), request.body.reason),
  );

  app.delete(
    '/gate/emergency',
    { schema: { tags, summary: 'Resume the site after an emergency stop', security, params: siteParams, response: { 200: emergencyResultSchema } } },
    async (request) => service.setEmergency(ctx, actorOf(request), null),
  );
};

export default gateRoutes;
