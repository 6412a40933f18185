import { createHash } from 'node:crypto';
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { kioskContract as contract } from '../../../domain/contract/kiosk.contract';
import type { ModuleOptions } from '../../context';
import { orgScope, requireOrgAdmin } from '../../plugins/org-scope';
import { siteScope } from '../../plugins/site-scope';
import { gateActorOf } from '../gate/gate-view';
import { authenticateKiosk, kioskSecretOf, markKioskUsed, type KioskDevice } from './kiosk-devices';
import * as service from './kiosk.service';

// The gate kiosk (issue 26, decision 041), three groups of routes:
// - /api/orgs/:orgId/settings/kiosk-devices… — admins register and revoke devices (org scope);
// - /api/kiosk/… — the tablet itself, authenticated by its device secret (Authorization: Kiosk …),
//   no session; it acts on its own site only (another site's booking is "not found");
// - /api/sites/:siteId/kiosk/walk-in-requests… — the dock screens' pending requests (site scope).

/** Kiosk calls per device and minute: reads (the waiting screen polls) and check-ins / requests. */
export const KIOSK_READS_PER_MINUTE = 120;
export const KIOSK_WRITES_PER_MINUTE = 30;

declare module 'fastify' {
  interface FastifyRequest {
    kioskDevice?: KioskDevice;
  }
}

/** The rate-limit key: the device's secret (hashed, so secrets never sit in the limiter's store); callers without one share the IP's key. */
function deviceKey(request: FastifyRequest): string {
  const secret = kioskSecretOf(request.headers.authorization);
  return secret ? `kiosk:${createHash('sha256').update(secret).digest('hex')}` : `kiosk-ip:${request.ip}`;
}

const security = [{ bearer: [] }];

/** /api/orgs/:orgId/settings/kiosk-devices… (inside the organization scope). */
export const orgKioskDeviceRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const tags = ['settings'];
  app.get(
    '/settings/kiosk-devices',
    {
      schema: { ...contract['GET /api/orgs/:orgId/settings/kiosk-devices'], tags, summary: 'The gate kiosks of every site: name, site, last four characters, created, last used, revoked', security },
    },
    async (request) => service.listDevices(ctx, orgScope(request)),
  );

  app.post(
    '/settings/kiosk-devices',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/settings/kiosk-devices'],
        tags,
        summary: 'Registers a gate kiosk for a site; its secret is in this answer only (audited)',
        description: 'The kiosk sends it as "Authorization: Kiosk <secret>" to /api/kiosk/…. Only its hash is stored.',
        security,
      },
      preValidation: async (request) => requireOrgAdmin(orgScope(request)),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await service.createDevice(ctx, orgScope(request), request.body, request.ip));
    },
  );

  app.delete(
    '/settings/kiosk-devices/:deviceId',
    { schema: { ...contract['DELETE /api/orgs/:orgId/settings/kiosk-devices/:deviceId'], tags, summary: 'Revokes a gate kiosk at once (audited)', security } },
    async (request, reply) => {
      await service.revokeDevice(ctx, orgScope(request), request.params.deviceId, request.ip);
      return reply.code(204).send(null);
    },
  );
};

/** /api/kiosk/… — the tablet, with its device secret. */
export const kioskRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const tags = ['kiosk'];
  const limit = (max: number): { rateLimit?: RateLimitOptions } => (ctx.config.rateLimitDisabled ? {} : { rateLimit: { max, timeWindow: '1 minute', keyGenerator: deviceKey } });
  app.decorateRequest('kioskDevice', undefined);
  // The device is checked before the body is read; every answer is the device's own.
  app.addHook('onRequest', async (request, reply) => {
    const device = await authenticateKiosk(ctx.database.db, kioskSecretOf(request.headers.authorization));
    request.kioskDevice = device;
    reply.header('cache-control', 'no-store');
    await markKioskUsed(ctx.database.db, device, ctx.clock.now());
  });
  const deviceOf = (request: FastifyRequest) => request.kioskDevice!;

  app.get(
    '/kiosk/me',
    { config: limit(KIOSK_READS_PER_MINUTE), schema: { ...contract['GET /api/kiosk/me'], tags, summary: 'The kiosk’s site, its time zone and organization' } },
    async (request) => service.kioskMe(deviceOf(request)),
  );

  app.get(
    '/kiosk/logo',
    { config: limit(KIOSK_READS_PER_MINUTE), schema: { ...contract['GET /api/kiosk/logo'], tags, summary: 'The organization’s logo, for the kiosk’s screen' } },
    async (request, reply) => {
      const logo = await service.kioskLogo(ctx, deviceOf(request));
      return reply.type(logo.contentType).header('cache-control', 'private, max-age=300').send(logo.body);
    },
  );

  app.post(
    '/kiosk/check-in',
    {
      config: limit(KIOSK_WRITES_PER_MINUTE),
      schema: {
        ...contract['POST /api/kiosk/check-in'],
        tags,
        summary: 'A driver checks in by arrival code (typed or the QR code’s text) or plate: go to a bay, wait to be called, or why not and what to do',
        description: 'The gate’s own check-in (window, one visit per vehicle, stopped site). A booking of another site or organization is 404, like an unknown one.',
      },
    },
    async (request) => service.kioskCheckIn(ctx, deviceOf(request), request.body, request.ip),
  );

  app.get(
    '/kiosk/bookings/:bookingId/status',
    { config: limit(KIOSK_READS_PER_MINUTE), schema: { ...contract['GET /api/kiosk/bookings/:bookingId/status'], tags, summary: 'A booking of the kiosk’s site: status, place in the queue, bay' } },
    async (request) => service.kioskBookingStatus(ctx, deviceOf(request), request.params.bookingId),
  );

  app.post(
    '/kiosk/walk-in-requests',
    {
      config: limit(KIOSK_WRITES_PER_MINUTE),
      schema: { ...contract['POST /api/kiosk/walk-in-requests'], tags, summary: 'A truck without a booking asks to come in: a pending request on the dock screens (audited)' },
    },
    async (request, reply) => reply.code(201).send(await service.createWalkInRequest(ctx, deviceOf(request), request.body, request.ip)),
  );
};

/** /api/sites/:siteId/kiosk/walk-in-requests… (inside the site scope). */
export const siteKioskRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const tags = ['gate'];
  const actorOf = (request: FastifyRequest) => gateActorOf(siteScope(request), request.ip);

  app.get(
    '/kiosk/walk-in-requests',
    { schema: { ...contract['GET /api/sites/:siteId/kiosk/walk-in-requests'], tags, summary: 'Pending walk-in requests from the site’s kiosks, oldest first', security } },
    async (request) => service.listWalkInRequests(ctx, actorOf(request)),
  );

  app.post(
    '/kiosk/walk-in-requests/:requestId/accept',
    {
      schema: {
        ...contract['POST /api/sites/:siteId/kiosk/walk-in-requests/:requestId/accept'],
        tags,
        summary: 'Accepts a kiosk walk-in request: the gate’s walk-in (bay picked, checked in), request marked accepted (org admins and dockmasters)',
        security,
      },
    },
    async (request, reply) => reply.code(201).send(await service.acceptWalkInRequest(ctx, actorOf(request), request.params.requestId, request.body)),
  );

  app.post(
    '/kiosk/walk-in-requests/:requestId/decline',
    {
      schema: {
        ...contract['POST /api/sites/:siteId/kiosk/walk-in-requests/:requestId/decline'],
        tags,
        summary: 'Declines a kiosk walk-in request, with an optional reason (org admins and dockmasters)',
        security,
      },
    },
    async (request) => service.declineWalkInRequest(ctx, actorOf(request), request.params.requestId, request.body),
  );
};
