import { z } from 'zod';
import {
  cameraTokenCreateSchema,
  cameraTokenSchema,
  createdCameraTokenSchema,
  numberPlateSettingsSchema,
  orgProfilePatchSchema,
  orgSettingsPatchSchema,
  orgSettingsViewSchema,
} from '../org-settings';
import { defineContract, MULTIPART_FORM } from './define-contract';

// The organization's own settings, logo and camera tokens (server/modules/org-settings/org-settings.routes.ts).

const orgParams = z.object({ orgId: z.string() });
const tokenParams = orgParams.extend({ tokenId: z.string().max(100) });

export const orgSettingsContract = defineContract({
  'GET /api/orgs/:orgId/settings': { params: orgParams, response: { 200: orgSettingsViewSchema } },
  'PATCH /api/orgs/:orgId/settings/profile': { params: orgParams, body: orgProfilePatchSchema, response: { 200: orgSettingsViewSchema } },
  'PATCH /api/orgs/:orgId/settings': { params: orgParams, body: orgSettingsPatchSchema, response: { 200: orgSettingsViewSchema } },
  'GET /api/orgs/:orgId/settings/number-plates': { params: orgParams, response: { 200: numberPlateSettingsSchema } },
  'PUT /api/orgs/:orgId/settings/logo': { params: orgParams, consumes: MULTIPART_FORM, response: { 200: orgSettingsViewSchema } },
  'GET /api/orgs/:orgId/settings/logo': { params: orgParams, produces: ['image/png', 'image/jpeg', 'image/webp'] },
  'DELETE /api/orgs/:orgId/settings/logo': { params: orgParams, response: { 200: orgSettingsViewSchema } },
  'GET /api/orgs/:orgId/settings/camera-tokens': { params: orgParams, response: { 200: z.array(cameraTokenSchema) } },
  'POST /api/orgs/:orgId/settings/camera-tokens': { params: orgParams, body: cameraTokenCreateSchema, response: { 201: createdCameraTokenSchema } },
  'DELETE /api/orgs/:orgId/settings/camera-tokens/:tokenId': { params: tokenParams, response: { 204: z.null() } },
});
