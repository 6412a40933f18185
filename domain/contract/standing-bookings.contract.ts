import { z } from 'zod';
import {
  conflictListSchema,
  conflictResolutionSchema,
  occurrenceMoveSchema,
  standingBookingDetailSchema,
  standingBookingInputSchema,
  standingCancelSchema,
  standingDeclineSchema,
  standingListQuerySchema,
  standingListSchema,
} from '../standing-bookings';
import { defineContract } from './define-contract';

// The organization's standing (recurring) bookings (server/modules/standing-bookings/standing-bookings.routes.ts).

const seriesParams = z.object({ orgId: z.string(), standingId: z.string().max(100) });
const occurrenceParams = seriesParams.extend({ date: z.string().max(20) });
const detail = { 200: standingBookingDetailSchema };

export const standingBookingsContract = defineContract({
  'GET /api/orgs/:orgId/standing-bookings': { querystring: standingListQuerySchema, response: { 200: standingListSchema } },
  'POST /api/orgs/:orgId/standing-bookings': { body: standingBookingInputSchema, response: { 201: standingBookingDetailSchema } },
  'GET /api/orgs/:orgId/standing-bookings/conflicts': { response: { 200: conflictListSchema } },
  'GET /api/orgs/:orgId/standing-bookings/:standingId': { params: seriesParams, response: detail },
  'PUT /api/orgs/:orgId/standing-bookings/:standingId': { params: seriesParams, body: standingBookingInputSchema, response: detail },
  'POST /api/orgs/:orgId/standing-bookings/:standingId/cancel': { params: seriesParams, body: standingCancelSchema, response: detail },
  'POST /api/orgs/:orgId/standing-bookings/:standingId/approve': { params: seriesParams, response: detail },
  'POST /api/orgs/:orgId/standing-bookings/:standingId/decline': { params: seriesParams, body: standingDeclineSchema, response: detail },
  'POST /api/orgs/:orgId/standing-bookings/:standingId/occurrences/:date/cancel': { params: occurrenceParams, response: detail },
  'POST /api/orgs/:orgId/standing-bookings/:standingId/occurrences/:date/move': { params: occurrenceParams, body: occurrenceMoveSchema, response: detail },
  'POST /api/orgs/:orgId/standing-bookings/:standingId/occurrences/:date/resolve': { params: occurrenceParams, body: conflictResolutionSchema, response: detail },
});
