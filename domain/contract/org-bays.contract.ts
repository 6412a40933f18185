import { z } from 'zod';
import {
  bayActionSchema,
  bayCreateSchema,
  bayItemSchema,
  bayListQuerySchema,
  bayListSchema,
  bayUpdateSchema,
  bayWriteResultSchema,
} from '../org-bays';
import { defineContract } from './define-contract';

// The organization's bays (server/modules/bays/org-bays.routes.ts).

const bayParams = z.object({ orgId: z.string(), bayId: z.string().max(100) });

export const orgBaysContract = defineContract({
  'GET /api/orgs/:orgId/bays': { querystring: bayListQuerySchema, response: { 200: bayListSchema } },
  'GET /api/orgs/:orgId/bays/:bayId': { params: bayParams, response: { 200: bayItemSchema } },
  'POST /api/orgs/:orgId/bays': { body: bayCreateSchema, response: { 201: bayWriteResultSchema } },
  'PATCH /api/orgs/:orgId/bays/:bayId': { params: bayParams, body: bayUpdateSchema, response: { 200: bayWriteResultSchema } },
  'POST /api/orgs/:orgId/bays/:bayId/deactivate': { params: bayParams, body: bayActionSchema.nullish(), response: { 200: bayWriteResultSchema } },
  'POST /api/orgs/:orgId/bays/:bayId/reactivate': { params: bayParams, response: { 200: bayWriteResultSchema } },
  'DELETE /api/orgs/:orgId/bays/:bayId': { params: bayParams, response: { 204: z.null() } },
});
