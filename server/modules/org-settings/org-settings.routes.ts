import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cameraTokenCreateSchema,
  cameraTokenSchema,
  createdCameraTokenSchema,
  MAX_LOGO_BYTES,
  numberPlateSettingsSchema,
  orgProfilePatchSchema,
  orgSettingsPatchSchema,
  orgSettingsViewSchema,
} from '../../../domain/org-settings';
import type { ModuleOptions } from '../../context';
import { orgScope, requireOrgAdmin } from '../../plugins/org-scope';
import { readLogoUpload } from './logo-upload';
import * as service from './org-settings.service';

// /api/orgs/:orgId/settings… — the organization's own settings, inside the organization scope
// (server/app.ts): anonymous 401, another organization 404 before any handler runs. Admins
// change them; dockmasters read the number-plate settings their scanner uses.

const tags = ['settings'];
const security = [{ bearer: [] }];
const orgParams = z.object({ orgId: z.string() });
const tokenParams = orgParams.extend({ tokenId: z.string().max(100) });

const orgSettingsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/settings',
    {
      schema: {
        tags,
        summary: 'The organization’s profile and settings (booking policy, notifications, number plates) — admins',
        security,
        params: orgParams,
        response: { 200: orgSettingsViewSchema },
      },
    },
    async (request) => service.getSettings(ctx, orgScope(request)),
  );

  app.patch(
    '/settings/profile',
    {
      schema: {
        tags,
        summary: 'Changes the organization’s name and contact details (audited)',
        security,
        params: orgParams,
        body: orgProfilePatchSchema,
        response: { 200: orgSettingsViewSchema },
      },
      preValidation: async (request) => requireOrgAdmin(orgScope(request)),
    },
    async (request) => service.updateProfile(ctx, orgScope(request), request.body, request.ip),
  );

  app.patch(
    '/settings',
    {
      schema: {
        tags,
        summary: 'Changes part of the settings: booking policy, new-request recipients, number plates (audited)',
        description: 'Only the fields sent change. Recipients "custom" need at least one address (checked on the settings as they would be).',
        security,
        params: orgParams,
        body: orgSettingsPatchSchema,
        response: { 200: orgSettingsViewSchema },
      },
      preValidation: async (request) => requireOrgAdmin(orgScope(request)),
    },
    async (request) => service.updateSettings(ctx, orgScope(request), request.body, request.ip),
  );

  app.get(
    '/settings/number-plates',
    {
      schema: {
        tags,
        summary: 'Number-plate recognition settings: match threshold and automatic check-in (admins and dockmasters)',
        security,
        params: orgParams,
        response: { 200: numberPlateSettingsSchema },
      },
    },
    async (request) => service.getNumberPlateSettings(ctx, orgScope(request)),
  );

  app.put(
    '/settings/logo',
    {
      schema: {
        tags,
        summary: 'Uploads or replaces the logo (multipart, one file in the field "logo")',
        description: `PNG, JPEG or WebP by content (not by name), at most ${MAX_LOGO_BYTES / 1024 / 1024} MB. The replaced image is deleted.`,
        security,
        params: orgParams,
        consumes: ['multipart/form-data'],
        response: { 200: orgSettingsViewSchema },
      },
    },
    async (request) => {
      const scope = orgScope(request);
      // Refused before the body is read.
      requireOrgAdmin(scope);
      return service.replaceLogo(ctx, scope, await readLogoUpload(request), request.ip);
    },
  );

  app.get(
    '/settings/logo',
    {
      schema: { tags, summary: 'The organization’s logo image', security, params: orgParams },
    },
    async (request, reply) => {
      const logo = await service.getLogo(ctx, orgScope(request));
      reply
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-cache')
        .header('etag', logo.etag)
        .header('content-disposition', 'inline; filename="logo"');
      if (request.headers['if-none-match'] === logo.etag) return reply.code(304).send();
      return reply.type(logo.contentType).send(logo.body);
    },
  );

  app.delete(
    '/settings/logo',
    {
      schema: { tags, summary: 'Removes the logo (audited; the image is deleted)', security, params: orgParams, response: { 200: orgSettingsViewSchema } },
    },
    async (request) => service.removeLogo(ctx, orgScope(request), request.ip),
  );

  app.get(
    '/settings/camera-tokens',
    {
      schema: {
        tags,
        summary: 'The ANPR cameras’ webhook tokens of every site: name, site, last four characters, created, last used, revoked',
        security,
        params: orgParams,
        response: { 200: z.array(cameraTokenSchema) },
      },
    },
    async (request) => service.listCameraTokens(ctx, orgScope(request)),
  );

  app.post(
    '/settings/camera-tokens',
    {
      schema: {
        tags,
        summary: 'Makes a webhook token for a site’s camera; the secret is in this answer only',
        description: 'The camera sends it as "Authorization: Bearer <secret>" to POST /api/anpr/{siteId}/reads. Only its hash is stored.',
        security,
        params: orgParams,
        body: cameraTokenCreateSchema,
        response: { 201: createdCameraTokenSchema },
      },
      preValidation: async (request) => requireOrgAdmin(orgScope(request)),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await service.createCameraToken(ctx, orgScope(request), request.body, request.ip));
    },
  );

  app.delete(
    '/settings/camera-tokens/:tokenId',
    {
      schema: { tags, summary: 'Revokes a camera token at once', security, params: tokenParams },
    },
    async (request, reply) => {
      await service.revokeCameraToken(ctx, orgScope(request), request.params.tokenId, request.ip);
      return reply.code(204).send();
    },
  );
};

export default orgSettingsRoutes;
