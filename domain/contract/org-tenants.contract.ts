import { z } from 'zod';
import {
  tenantBookingsQuerySchema,
  tenantBookingsSchema,
  tenantDetailSchema,
  tenantImportResultSchema,
  tenantInputSchema,
  tenantListQuerySchema,
  tenantListSchema,
  tenantPatchSchema,
} from '../org-tenants';
import { defineContract } from './define-contract';

// The organization's tenants (server/modules/tenants/org-tenants.routes.ts).

const tenantParams = z.object({ orgId: z.string(), tenantId: z.string().max(100) });

export const orgTenantsContract = defineContract({
  'GET /api/orgs/:orgId/tenants': { querystring: tenantListQuerySchema, response: { 200: tenantListSchema } },
  'POST /api/orgs/:orgId/tenants': { body: tenantInputSchema, response: { 201: tenantDetailSchema } },
  // The CSV as text/csv, or a multipart form with the file.
  'POST /api/orgs/:orgId/tenants/import': { consumes: ['text/csv', 'multipart/form-data'], response: { 200: tenantImportResultSchema } },
  'GET /api/orgs/:orgId/tenants/:tenantId': { params: tenantParams, response: { 200: tenantDetailSchema } },
  'GET /api/orgs/:orgId/tenants/:tenantId/bookings': { params: tenantParams, querystring: tenantBookingsQuerySchema, response: { 200: tenantBookingsSchema } },
  'PATCH /api/orgs/:orgId/tenants/:tenantId': { params: tenantParams, body: tenantPatchSchema, response: { 200: tenantDetailSchema } },
});
