import { z } from 'zod';
import {
  auditFilterOptionsSchema,
  auditListSchema,
  orgAuditFilterSchema,
  orgAuditListQuerySchema,
  platformAuditFilterSchema,
  platformAuditListQuerySchema,
} from '../audit-log';
import { defineContract } from './define-contract';

// The audit log, read-only: the platform's and one organization's (server/modules/audit-log/audit-log.routes.ts).

const orgParams = z.object({ orgId: z.string() });

export const auditLogContract = defineContract({
  'GET /api/platform/audit': { querystring: platformAuditListQuerySchema, response: { 200: auditListSchema } },
  'GET /api/platform/audit/filters': { response: { 200: auditFilterOptionsSchema } },
  'GET /api/platform/audit/csv': { querystring: platformAuditFilterSchema, produces: ['text/csv'] },
  'GET /api/orgs/:orgId/audit': { params: orgParams, querystring: orgAuditListQuerySchema, response: { 200: auditListSchema } },
  'GET /api/orgs/:orgId/audit/filters': { params: orgParams, response: { 200: auditFilterOptionsSchema } },
  'GET /api/orgs/:orgId/audit/csv': { params: orgParams, querystring: orgAuditFilterSchema, produces: ['text/csv'] },
});
