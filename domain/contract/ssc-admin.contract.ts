import { z } from 'zod';
import {
  sscSubscriptionSummaryListSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
} from '../webhooks';
import { bookingDetailSchema, rescheduleRefusalSchema } from '../org-bookings';
import { defineContract } from './define-contract';

// The carriers' SSC webhook subscriptions, seen by the organization's admins (server/modules/ssc/ssc-admin.routes.ts),
// and their reschedule requests awaiting the site.

const subscriptionParams = z.object({ orgId: z.string(), subscriptionId: z.string().max(100) });
const deliveryParams = subscriptionParams.extend({ deliveryId: z.string().max(100) });
const bookingParams = z.object({ orgId: z.string(), bookingId: z.string().max(100) });

export const sscAdminContract = defineContract({
  'GET /api/orgs/:orgId/ssc-subscriptions': { response: { 200: sscSubscriptionSummaryListSchema } },
  'GET /api/orgs/:orgId/ssc-subscriptions/:subscriptionId/deliveries': { params: subscriptionParams, querystring: webhookDeliveryListQuerySchema, response: { 200: webhookDeliveryListSchema } },
  'POST /api/orgs/:orgId/ssc-subscriptions/:subscriptionId/deliveries/:deliveryId/redeliver': { params: deliveryParams, response: { 202: webhookDeliverySchema } },
  'DELETE /api/orgs/:orgId/ssc-subscriptions/:subscriptionId': { params: subscriptionParams, response: { 204: z.null() } },
  // A carrier's reschedule of a confirmed booking awaiting the site (server/modules/ssc/ssc-reschedule-requests.routes.ts).
  'POST /api/orgs/:orgId/bookings/:bookingId/reschedule-request/accept': { params: bookingParams, response: { 200: bookingDetailSchema } },
  'POST /api/orgs/:orgId/bookings/:bookingId/reschedule-request/refuse': { params: bookingParams, body: rescheduleRefusalSchema, response: { 200: bookingDetailSchema } },
});
