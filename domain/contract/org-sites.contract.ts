import { z } from 'zod';
import {
  createHolidayResultSchema,
  createSiteSchema,
  deactivateSiteResultSchema,
  deactivateSiteSchema,
  holidayInputSchema,
  holidayListSchema,
  orgSiteListSchema,
  orgSiteSchema,
  updateSiteResultSchema,
  updateSiteSchema,
} from '../org-sites';
import { defineContract } from './define-contract';

// Settings › Sites & hours (server/modules/sites/org-sites.routes.ts).

const siteParams = z.object({ orgId: z.string(), siteId: z.string().max(100) });
const holidayParams = siteParams.extend({ holidayId: z.string().max(100) });

export const orgSitesContract = defineContract({
  'GET /api/orgs/:orgId/sites/all': { response: { 200: orgSiteListSchema } },
  'POST /api/orgs/:orgId/sites': { body: createSiteSchema, response: { 201: orgSiteSchema } },
  'GET /api/orgs/:orgId/sites/:siteId': { params: siteParams, response: { 200: orgSiteSchema } },
  'PATCH /api/orgs/:orgId/sites/:siteId': { params: siteParams, body: updateSiteSchema, response: { 200: updateSiteResultSchema } },
  // An empty POST is a deactivation without a resolution.
  'POST /api/orgs/:orgId/sites/:siteId/deactivate': { params: siteParams, body: deactivateSiteSchema.nullish(), response: { 200: deactivateSiteResultSchema } },
  'POST /api/orgs/:orgId/sites/:siteId/reactivate': { params: siteParams, response: { 200: orgSiteSchema } },
  'GET /api/orgs/:orgId/sites/:siteId/holidays': { params: siteParams, response: { 200: holidayListSchema } },
  'POST /api/orgs/:orgId/sites/:siteId/holidays': { params: siteParams, body: holidayInputSchema, response: { 201: createHolidayResultSchema } },
  'DELETE /api/orgs/:orgId/sites/:siteId/holidays/:holidayId': { params: holidayParams, response: { 204: z.null() } },
});
