import { orgDashboardQuerySchema, orgDashboardSchema } from '../org-dashboard';
import { defineContract } from './define-contract';

// The organization admin dashboard (server/modules/dashboard/org-dashboard.routes.ts).

export const orgDashboardContract = defineContract({
  'GET /api/orgs/:orgId/dashboard': { querystring: orgDashboardQuerySchema, response: { 200: orgDashboardSchema } },
});
