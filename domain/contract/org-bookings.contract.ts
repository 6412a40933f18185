import { z } from 'zod';
import { resolveAffectedResultSchema, resolveAffectedSchema } from '../affected-bookings';
import {
  adminBookingPreviewResultSchema,
  adminBookingSitesResultSchema,
  adminBookingSitesSchema,
  adminBookingPreviewSchema,
  adminBookingSchema,
  bookingDetailSchema,
  bookingExtendSchema,
  bookingListQuerySchema,
  bookingListSchema,
  bookingRescheduleSchema,
  bookingTransitionSchema,
} from '../org-bookings';
import { defineContract } from './define-contract';

// The organization's bookings (server/modules/bookings/org-bookings.routes.ts).

const bookingParams = z.object({ orgId: z.string(), bookingId: z.string().max(100) });
const documentParams = bookingParams.extend({ documentId: z.string().max(100) });

export const orgBookingsContract = defineContract({
  'GET /api/orgs/:orgId/bookings': { querystring: bookingListQuerySchema, response: { 200: bookingListSchema } },
  'POST /api/orgs/:orgId/bookings': { body: adminBookingSchema, response: { 201: bookingDetailSchema } },
  'POST /api/orgs/:orgId/bookings/preview': { body: adminBookingPreviewSchema, response: { 200: adminBookingPreviewResultSchema } },
  'POST /api/orgs/:orgId/bookings/preview-sites': { body: adminBookingSitesSchema, response: { 200: adminBookingSitesResultSchema } },
  'GET /api/orgs/:orgId/bookings/:bookingId': { params: bookingParams, response: { 200: bookingDetailSchema } },
  'POST /api/orgs/:orgId/bookings/:bookingId/transitions': { params: bookingParams, body: bookingTransitionSchema, response: { 200: bookingDetailSchema } },
  'POST /api/orgs/:orgId/bookings/:bookingId/extend': { params: bookingParams, body: bookingExtendSchema, response: { 200: bookingDetailSchema } },
  'POST /api/orgs/:orgId/bookings/:bookingId/reschedule': { params: bookingParams, body: bookingRescheduleSchema, response: { 200: bookingDetailSchema } },
  'POST /api/orgs/:orgId/bookings/resolve-affected': { body: resolveAffectedSchema, response: { 200: resolveAffectedResultSchema } },
  'GET /api/orgs/:orgId/bookings/:bookingId/documents/:documentId': { params: documentParams, produces: ['application/octet-stream'] },
});
