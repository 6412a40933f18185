import { z } from 'zod';
import { siteSchema } from '../site-schemas';
import { defineContract } from './define-contract';

// The caller's organizations and an organization's active sites (server/modules/organizations/organizations.routes.ts).

export const myOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  active: z.boolean(),
  role: z.string().describe('The caller’s role in this organization'),
});
export type MyOrganization = z.infer<typeof myOrganizationSchema>;

export const organizationsContract = defineContract({
  'GET /api/me/organizations': { response: { 200: z.array(myOrganizationSchema) } },
  'GET /api/orgs/:orgId/sites': { params: z.object({ orgId: z.string().max(100) }), response: { 200: z.array(siteSchema) } },
});
