import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sscAdminContract as contract } from '../../../domain/contract/ssc-admin.contract';
import type { ModuleOptions } from '../../context';
import { forbidden } from '../../plugins/errors';
import { orgScope } from '../../plugins/org-scope';
import * as service from './ssc-reschedule-requests';

// /api/orgs/:orgId/bookings/:bookingId/reschedule-request/… — a carrier's reschedule of a confirmed
// booking awaiting the site (SSC API): accepted or refused by an org admin (refused before
// validation for others), each audited, the carrier told through appointment-changed.

const security = [{ bearer: [] }];
const tags = ['bookings'];
const ADMIN_ONLY = 'Only organization admins can accept or refuse a carrier’s reschedule request';

const sscRescheduleRequestRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.addHook('preValidation', async (request) => {
    if (orgScope(request).actor !== 'org_admin') throw forbidden(ADMIN_ONLY);
  });

  app.post(
    '/bookings/:bookingId/reschedule-request/accept',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/bookings/:bookingId/reschedule-request/accept'],
        tags,
        summary: 'Accepts a carrier’s reschedule request: the booking moves to the requested slot and stays approved',
        description: '409 when no request waits, the booking is no longer approved, or no bay of its site is free at the requested time (the request then still waits).',
        security,
      },
    },
    async (request) => service.acceptRescheduleRequest(ctx, orgScope(request), request.params.bookingId, request.ip),
  );

  app.post(
    '/bookings/:bookingId/reschedule-request/refuse',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/bookings/:bookingId/reschedule-request/refuse'],
        tags,
        summary: 'Refuses a carrier’s reschedule request: the booking keeps its slot; the carrier is told, with the reason',
        security,
      },
    },
    async (request) => service.refuseRescheduleRequest(ctx, orgScope(request), request.params.bookingId, request.body.reason?.trim() || null, request.ip),
  );
};

export default sscRescheduleRequestRoutes;
