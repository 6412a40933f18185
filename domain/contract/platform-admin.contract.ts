import { z } from 'zod';
import {
  createdOrganizationSchema,
  createOrganizationSchema,
  organizationAuditQuerySchema,
  organizationAuditSchema,
  organizationChangeSchema,
  organizationDetailSchema,
  organizationFormOptionsSchema,
  organizationListQuerySchema,
  organizationListSchema,
  platformStatsQuerySchema,
  platformStatsSchema,
  recentActivityQuerySchema,
  recentActivitySchema,
  suspendOrganizationSchema,
} from '../platform-admin';
import { defineContract } from './define-contract';

// The super-admin dashboard and the organizations screens (server/modules/platform-admin/platform-admin.routes.ts).

const orgParams = z.object({ orgId: z.string().max(100) });

export const platformAdminContract = defineContract({
  'GET /api/platform/stats': { querystring: platformStatsQuerySchema, response: { 200: platformStatsSchema } },
  'GET /api/platform/organizations': { querystring: organizationListQuerySchema, response: { 200: organizationListSchema } },
  'GET /api/platform/organization-options': { response: { 200: organizationFormOptionsSchema } },
  'POST /api/platform/organizations': { body: createOrganizationSchema, response: { 201: createdOrganizationSchema } },
  'GET /api/platform/recent-activity': { querystring: recentActivityQuerySchema, response: { 200: recentActivitySchema } },
  'GET /api/platform/organizations/:orgId': { params: orgParams, response: { 200: organizationDetailSchema } },
  'GET /api/platform/organizations/:orgId/audit': { params: orgParams, querystring: organizationAuditQuerySchema, response: { 200: organizationAuditSchema } },
  'POST /api/platform/organizations/:orgId/suspend': { params: orgParams, body: suspendOrganizationSchema, response: { 200: organizationChangeSchema } },
  'POST /api/platform/organizations/:orgId/reactivate': { params: orgParams, response: { 200: organizationChangeSchema } },
});
