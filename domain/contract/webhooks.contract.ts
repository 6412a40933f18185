import { z } from 'zod';
import {
  webhookDeliveryListQuerySchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointInputSchema,
  webhookEndpointListSchema,
  webhookEndpointPatchSchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from '../webhooks';
import { defineContract } from './define-contract';

// Outbound webhook endpoints and their delivery logs (server/modules/webhooks/webhooks.routes.ts).

const endpointParams = z.object({ orgId: z.string(), webhookId: z.string().max(100) });
const deliveryParams = endpointParams.extend({ deliveryId: z.string().max(100) });

export const webhooksContract = defineContract({
  'GET /api/orgs/:orgId/webhooks': { response: { 200: webhookEndpointListSchema } },
  'POST /api/orgs/:orgId/webhooks': { body: webhookEndpointInputSchema, response: { 201: webhookEndpointWithSecretSchema } },
  'GET /api/orgs/:orgId/webhooks/:webhookId': { params: endpointParams, response: { 200: webhookEndpointSchema } },
  'PATCH /api/orgs/:orgId/webhooks/:webhookId': { params: endpointParams, body: webhookEndpointPatchSchema, response: { 200: webhookEndpointSchema } },
  'DELETE /api/orgs/:orgId/webhooks/:webhookId': { params: endpointParams, response: { 204: z.null() } },
  'POST /api/orgs/:orgId/webhooks/:webhookId/rotate-secret': { params: endpointParams, response: { 200: webhookEndpointWithSecretSchema } },
  'POST /api/orgs/:orgId/webhooks/:webhookId/test': { params: endpointParams, response: { 202: webhookDeliverySchema } },
  'GET /api/orgs/:orgId/webhooks/:webhookId/deliveries': { params: endpointParams, querystring: webhookDeliveryListQuerySchema, response: { 200: webhookDeliveryListSchema } },
  'POST /api/orgs/:orgId/webhooks/:webhookId/deliveries/:deliveryId/redeliver': { params: deliveryParams, response: { 202: webhookDeliverySchema } },
});
