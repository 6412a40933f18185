import { platformConfigInputSchema, platformSettingsViewSchema, publicPlatformConfigSchema } from '../platform-settings';
import { defineContract } from './define-contract';

// The platform configuration and its public part (server/modules/platform-settings/platform-settings.routes.ts).

export const platformSettingsContract = defineContract({
  'GET /api/platform/settings': { response: { 200: platformSettingsViewSchema } },
  'PUT /api/platform/settings': { body: platformConfigInputSchema, response: { 200: platformSettingsViewSchema } },
  'GET /api/public/platform': { response: { 200: publicPlatformConfigSchema } },
});
