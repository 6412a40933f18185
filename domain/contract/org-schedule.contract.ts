import { scheduleQuerySchema, scheduleSchema } from '../org-schedule';
import { defineContract } from './define-contract';

// One site's day or week (server/modules/schedule/org-schedule.routes.ts).

export const orgScheduleContract = defineContract({
  'GET /api/orgs/:orgId/schedule': { querystring: scheduleQuerySchema, response: { 200: scheduleSchema } },
});
