import { z } from 'zod';
import {
  TSR_LINK_SYSTEMS,
  tsrConnectionInputSchema,
  tsrConnectionListSchema,
  tsrConnectionSchema,
  tsrDeliveryListSchema,
  tsrDeliverySchema,
  webhookDeliveryListQuerySchema,
} from '../webhooks';
import { defineContract } from './define-contract';

// ServiceNow / FMClarity connections (server/modules/tsr-link/tsr-link.routes.ts).

const systemParams = z.object({ orgId: z.string(), system: z.enum(TSR_LINK_SYSTEMS) });
const deliveryParams = systemParams.extend({ deliveryId: z.string().max(100) });

export const tsrLinkContract = defineContract({
  'GET /api/orgs/:orgId/tsr-connections': { response: { 200: tsrConnectionListSchema } },
  'PUT /api/orgs/:orgId/tsr-connections': { body: tsrConnectionInputSchema, response: { 200: tsrConnectionSchema } },
  'DELETE /api/orgs/:orgId/tsr-connections/:system': { params: systemParams, response: { 204: z.null() } },
  'GET /api/orgs/:orgId/tsr-connections/:system/deliveries': { params: systemParams, querystring: webhookDeliveryListQuerySchema, response: { 200: tsrDeliveryListSchema } },
  'POST /api/orgs/:orgId/tsr-connections/:system/deliveries/:deliveryId/redeliver': { params: deliveryParams, response: { 202: tsrDeliverySchema } },
});
