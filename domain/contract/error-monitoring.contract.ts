import { z } from 'zod';
import {
  clientErrorAcceptedSchema,
  clientErrorReportSchema,
  errorGroupDetailSchema,
  errorGroupListQuerySchema,
  errorGroupListSchema,
  errorGroupSchema,
} from '../error-monitoring';
import { defineContract } from './define-contract';

// Error groups for the platform administrators, and the web app's error reports (server/modules/error-monitoring/error-monitoring.routes.ts).

const params = z.object({ fingerprint: z.string().max(100) });

export const errorMonitoringContract = defineContract({
  'GET /api/platform/errors': { querystring: errorGroupListQuerySchema, response: { 200: errorGroupListSchema } },
  'GET /api/platform/errors/:fingerprint': { params, response: { 200: errorGroupDetailSchema } },
  'POST /api/platform/errors/:fingerprint/resolve': { params, response: { 200: errorGroupSchema } },
  'POST /api/platform/errors/:fingerprint/reopen': { params, response: { 200: errorGroupSchema } },
  'POST /api/client-errors': { body: clientErrorReportSchema, response: { 202: clientErrorAcceptedSchema } },
});
