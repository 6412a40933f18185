import { z } from 'zod';
import {
  blackoutListQuerySchema,
  blackoutListSchema,
  blackoutOptionsSchema,
  blackoutWriteResultSchema,
  createBlackoutSchema,
  createSeriesSchema,
  seriesDeleteResultSchema,
  seriesListQuerySchema,
  seriesListSchema,
  seriesSchema,
  seriesWriteResultSchema,
  updateBlackoutSchema,
  updateSeriesSchema,
} from '../org-blackouts';
import { defineContract } from './define-contract';

// Blackouts and recurring blackouts (server/modules/blackouts/org-blackouts.routes.ts).

const blackoutParams = z.object({ orgId: z.string(), blackoutId: z.string().max(100) });
const seriesParams = z.object({ orgId: z.string(), seriesId: z.string().max(100) });

export const orgBlackoutsContract = defineContract({
  'GET /api/orgs/:orgId/blackouts': { querystring: blackoutListQuerySchema, response: { 200: blackoutListSchema } },
  'GET /api/orgs/:orgId/blackout-options': { response: { 200: blackoutOptionsSchema } },
  'POST /api/orgs/:orgId/blackouts': { body: createBlackoutSchema, response: { 201: blackoutWriteResultSchema } },
  'PATCH /api/orgs/:orgId/blackouts/:blackoutId': { params: blackoutParams, body: updateBlackoutSchema, response: { 200: blackoutWriteResultSchema } },
  'DELETE /api/orgs/:orgId/blackouts/:blackoutId': { params: blackoutParams, response: { 204: z.null() } },
  'GET /api/orgs/:orgId/blackout-series': { querystring: seriesListQuerySchema, response: { 200: seriesListSchema } },
  'GET /api/orgs/:orgId/blackout-series/:seriesId': { params: seriesParams, response: { 200: seriesSchema } },
  'POST /api/orgs/:orgId/blackout-series': { body: createSeriesSchema, response: { 201: seriesWriteResultSchema } },
  'PATCH /api/orgs/:orgId/blackout-series/:seriesId': { params: seriesParams, body: updateSeriesSchema, response: { 200: seriesWriteResultSchema } },
  'DELETE /api/orgs/:orgId/blackout-series/:seriesId': { params: seriesParams, response: { 200: seriesDeleteResultSchema } },
});
