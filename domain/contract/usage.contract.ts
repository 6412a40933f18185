import { usageCsvQuerySchema, usageQuerySchema, usageReportSchema } from '../usage';
import { defineContract } from './define-contract';

// Usage per organization (server/modules/usage/usage.routes.ts).

export const usageContract = defineContract({
  'GET /api/platform/usage': { querystring: usageQuerySchema, response: { 200: usageReportSchema } },
  'GET /api/platform/usage.csv': { querystring: usageCsvQuerySchema, produces: ['text/csv'] },
});
