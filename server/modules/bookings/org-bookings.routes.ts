import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orgBookingsContract as contract } from '../../../domain/contract/org-bookings.contract';
import type { ModuleOptions } from '../../context';
import { orgScope } from '../../plugins/org-scope';
import * as service from './org-bookings.service';

// /api/orgs/:orgId/bookings… — registered inside the organization scope (server/app.ts), so every
// handler runs with the caller's scope already checked.

const security = [{ bearer: [] }];

/** RFC 6266 filename with a plain ASCII fallback. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

const orgBookingRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/bookings',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/bookings'],
        tags: ['bookings'],
        summary: 'The organization’s bookings: filtered, sorted, one page at a time',
        security,
      },
    },
    async (request) => service.listBookings(ctx, orgScope(request), request.query),
  );

  app.post(
    '/bookings',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/bookings'],
        tags: ['bookings'],
        summary: 'An admin books a slot for a tenant (same validation and allocation as the portal)',
        description: 'May choose the bay and override the minimum advance (recorded in the audit log); approved at once unless approve is false.',
        security,
      },
    },
    async (request, reply) => reply.code(201).send(await service.createAdminBooking(ctx, orgScope(request), request.body, request.ip)),
  );

  app.post(
    '/bookings/preview',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/bookings/preview'],
        tags: ['bookings'],
        summary: 'The bay an admin booking would get now (the allocator’s first choice); nothing is written',
        security,
      },
    },
    async (request) => service.previewAdminBooking(ctx, orgScope(request), request.body),
  );

  app.post(
    '/bookings/preview-sites',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/bookings/preview-sites'],
        tags: ['bookings'],
        summary: 'Where an admin booking could go at each site, when the organization lets hauliers choose the site; nothing is written',
        security,
      },
    },
    async (request) => service.previewAdminBookingSites(ctx, orgScope(request), request.body),
  );

  app.get(
    '/bookings/:bookingId',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/bookings/:bookingId'],
        tags: ['bookings'],
        summary: 'One booking with its documents, history and the moves the caller may make',
        security,
      },
    },
    async (request) => service.getBooking(ctx, orgScope(request), request.params.bookingId),
  );

  app.post(
    '/bookings/:bookingId/transitions',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/bookings/:bookingId/transitions'],
        tags: ['bookings'],
        summary: 'Moves a booking to another status (approve, decline with a reason, cancel, check in, start, check out, no-show)',
        description: 'Carries the version the caller saw: a newer one answers 409 stale_version; a move the lifecycle does not allow answers 409 illegal_transition naming the current status.',
        security,
      },
    },
    async (request) => service.transitionBooking(ctx, orgScope(request), request.params.bookingId, request.body, request.ip),
  );

  app.post(
    '/bookings/:bookingId/extend',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/bookings/:bookingId/extend'],
        tags: ['bookings'],
        summary: 'Extend Time: a later end for an overstaying booking, when its bay is free until then',
        security,
      },
    },
    async (request) => service.extendBooking(ctx, orgScope(request), request.params.bookingId, request.body, request.ip),
  );

  app.post(
    '/bookings/:bookingId/reschedule',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/bookings/:bookingId/reschedule'],
        tags: ['bookings'],
        summary: 'Moves a pending or approved booking to another time and/or bay, under the same rules as a new booking',
        description: 'Atomic: the booking moves only if a compatible bay (the one asked for, or the best-fit one) is free for its whole duration; otherwise 409 and nothing changes.',
        security,
      },
    },
    async (request) => service.rescheduleBooking(ctx, orgScope(request), request.params.bookingId, request.body, request.ip),
  );

  app.post(
    '/bookings/resolve-affected',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/bookings/resolve-affected'],
        tags: ['bookings'],
        summary: 'Moves listed bookings to another free compatible bay at their own time, or cancels them with a reason e-mailed to the haulier',
        description: 'For bookings a setup change left listed (e.g. outside new opening hours). Org admins only. One outcome per booking: moved, not_moved (no free compatible bay), cancelled or skipped.',
        security,
      },
    },
    async (request) => service.resolveAffected(ctx, orgScope(request), request.body, request.ip),
  );

  app.get(
    '/bookings/:bookingId/documents/:documentId',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/bookings/:bookingId/documents/:documentId'],
        tags: ['bookings'],
        summary: 'Downloads a booking document (always as an attachment)',
        security,
      },
    },
    async (request, reply) => {
      const { doc, body } = await service.getDocument(ctx, orgScope(request), request.params.bookingId, request.params.documentId);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', contentDisposition(doc.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(body);
    },
  );
};

export default orgBookingRoutes;
