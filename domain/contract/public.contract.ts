import { z } from 'zod';
import { quoteRequestSchema } from '../quote-request';
import { publicSiteSchema } from '../site-schemas';
import { defineContract } from './define-contract';

// Signed-out figures and lists for the login pages and the landing page (server/modules/public/public.routes.ts).

export const organizationOptionSchema = z.object({ id: z.string(), name: z.string() });
export type OrganizationOption = z.infer<typeof organizationOptionSchema>;

export const siteStatusSchema = z.object({
  siteName: z.string(),
  timeZone: z.string(),
  localTime: z.string().describe("The site's local time now, HH:mm"),
  hoursToday: z.array(z.object({ open: z.string(), close: z.string() })).describe('Opening windows today, in order; empty when closed'),
  isOpenNow: z.boolean(),
});
export type SiteStatus = z.infer<typeof siteStatusSchema>;

export const publicPlatformStatsSchema = z.object({
  organizations: z.number().int().describe('Active organizations'),
  users: z.number().int().describe('Active users'),
  uptimePercent: z.number().nullable().describe('Minutes up over the last 30 days, measured by the heartbeat; null without history'),
});
export type PublicPlatformStats = z.infer<typeof publicPlatformStatsSchema>;

export const quoteRequestCreatedSchema = z.object({ id: z.string() });

export const publicContract = defineContract({
  'GET /api/public/organizations': { response: { 200: z.array(organizationOptionSchema) } },
  'GET /api/public/sites': { response: { 200: z.array(publicSiteSchema) } },
  'GET /api/public/sites/:siteId/status': { params: z.object({ siteId: z.string().max(100) }), response: { 200: siteStatusSchema } },
  'GET /api/public/platform-stats': { response: { 200: publicPlatformStatsSchema } },
  'POST /api/public/quote-requests': { body: quoteRequestSchema, response: { 201: quoteRequestCreatedSchema } },
});
