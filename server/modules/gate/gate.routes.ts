import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { gateContract as contract } from '../../../domain/contract/gate.contract';
import type { ModuleOptions } from '../../context';
import { siteScope } from '../../plugins/site-scope';
import { getEmergency, setEmergency } from './gate-emergency';
import { approve, checkInResponse, checkOutResponse, decline, extend, startAtBay } from './gate-moves';
import { overview, queue } from './gate-overview';
import { gateActorOf } from './gate-view';
import { walkIn } from './gate-walk-in';

// /api/sites/:siteId/gate… (issue 10): the gate and the bays of one site — registered inside the
// site scope (server/plugins/site-scope.ts), so each handler runs with the caller's site and role
// checked. Routes only translate HTTP; the rules are in gate-moves.ts, gate-walk-in.ts and
// gate-emergency.ts (shared checks: gate-rules.ts), the screens in gate-overview.ts.

const security = [{ bearer: [] }];
const tags = ['gate'];

const gateRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const actorOf = (request: FastifyRequest) => gateActorOf(siteScope(request), request.ip);

  app.get(
    '/gate/overview',
    { schema: { ...contract['GET /api/sites/:siteId/gate/overview'], tags, summary: 'The gate today: counters, live list, upcoming arrivals, bays, emergency state', security } },
    async (request) => overview(ctx, actorOf(request)),
  );

  app.get(
    '/gate/queue',
    { schema: { ...contract['GET /api/sites/:siteId/gate/queue'], tags, summary: 'Vehicles checked in and waiting, in order of arrival, with free compatible bays', security } },
    async (request) => queue(ctx, actorOf(request)),
  );

  app.post(
    '/gate/bookings/:bookingId/check-in',
    {
      schema: {
        ...contract['POST /api/sites/:siteId/gate/bookings/:bookingId/check-in'],
        tags,
        summary: 'Check a vehicle in (approved → checked in), from 60 minutes before its start until the no-show cut-off',
        security,
      },
    },
    async (request) => checkInResponse(ctx, actorOf(request), request.params.bookingId, request.body?.version),
  );

  app.post(
    '/gate/bookings/:bookingId/start',
    {
      schema: {
        ...contract['POST /api/sites/:siteId/gate/bookings/:bookingId/start'],
        tags,
        summary: 'Call a checked-in vehicle to its bay, or to another free compatible bay (→ in progress)',
        security,
      },
    },
    async (request) => startAtBay(ctx, actorOf(request), request.params.bookingId, request.body ?? {}),
  );

  app.post(
    '/gate/bookings/:bookingId/check-out',
    {
      schema: {
        ...contract['POST /api/sites/:siteId/gate/bookings/:bookingId/check-out'],
        tags,
        summary: 'Check a vehicle out (in progress or overstay → completed: Force Check Out); answers the dwell time',
        security,
      },
    },
    async (request) => checkOutResponse(ctx, actorOf(request), request.params.bookingId, request.body?.version),
  );

  app.post(
    '/gate/bookings/:bookingId/extend',
    { schema: { ...contract['POST /api/sites/:siteId/gate/bookings/:bookingId/extend'], tags, summary: 'Extend Time for an overstaying vehicle (a later end, back to in progress)', security } },
    async (request) => extend(ctx, actorOf(request), request.params.bookingId, request.body.version, request.body.endTime),
  );

  app.post(
    '/gate/bookings/:bookingId/approve',
    { schema: { ...contract['POST /api/sites/:siteId/gate/bookings/:bookingId/approve'], tags, summary: 'Approve a pending booking (org admins and dockmasters)', security } },
    async (request) => approve(ctx, actorOf(request), request.params.bookingId, request.body.version),
  );

  app.post(
    '/gate/bookings/:bookingId/decline',
    { schema: { ...contract['POST /api/sites/:siteId/gate/bookings/:bookingId/decline'], tags, summary: 'Decline a pending booking with a reason', security } },
    async (request) => decline(ctx, actorOf(request), request.params.bookingId, request.body.version, request.body.reason),
  );

  app.post(
    '/gate/walk-ins',
    {
      schema: {
        ...contract['POST /api/sites/:siteId/gate/walk-ins'],
        tags,
        summary: 'A vehicle without a booking: booked now on a compatible free bay and checked in',
        security,
      },
    },
    async (request, reply) => reply.code(201).send(await walkIn(ctx, actorOf(request), request.body)),
  );

  app.get(
    '/gate/emergency',
    { schema: { ...contract['GET /api/sites/:siteId/gate/emergency'], tags, summary: 'Whether the site is stopped for an emergency', security } },
    async (request) => getEmergency(ctx, actorOf(request)),
  );

  app.post(
    '/gate/emergency',
    {
      schema: {
        ...contract['POST /api/sites/:siteId/gate/emergency'],
        tags,
        summary: 'Emergency stop: the portal offers no slots at this site until it resumes; org admins are e-mailed',
        security,
      },
    },
    async (request) => setEmergency(ctx, actorOf(request), request.body.reason),
  );

  app.delete(
    '/gate/emergency',
    { schema: { ...contract['DELETE /api/sites/:siteId/gate/emergency'], tags, summary: 'Resume the site after an emergency stop', security } },
    async (request) => setEmergency(ctx, actorOf(request), null),
  );
};

export default gateRoutes;
