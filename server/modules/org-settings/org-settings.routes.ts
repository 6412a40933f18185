import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MAX_LOGO_BYTES } from '../../../domain/org-settings';
import { orgSettingsContract as contract } from '../../../domain/contract/org-settings.contract';
import type { ModuleOptions } from '../../context';
import { orgScope, requireOrgAdmin } from '../../plugins/org-scope';
import { readLogoUpload } from './logo-upload';
import * as service from './org-settings.service';

// /api/orgs/:orgId/settings… — the organization's own settings, inside the organization scope
// (server/app.ts): anonymous 401, another organization 404 before any handler runs. Admins
// change them; dockmasters read the number-plate settings their scanner uses.

const tags = ['settings'];
const security = [{ bearer: [] }];

const orgSettingsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/settings',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/settings'],
        tags,
        summary: 'The organization’s profile and settings (booking policy, notifications, number plates) — admins',
        security,
      },
    },
    async (request) => service.getSettings(ctx, orgScope(request)),
  );

  app.patch(
    '/settings/profile',
    {
      schema: {
        ...contract['PATCH /api/orgs/:orgId/settings/profile'],
        tags,
        summary: 'Changes the organization’s name and contact details (audited)',
        security,
      },
      preValidation: async (request) => requireOrgAdmin(orgScope(request)),
    },
    async (request) => service.updateProfile(ctx, orgScope(request), request.body, request.ip),
  );

  app.patch(
    '/settings',
    {
      schema: {
        ...contract['PATCH /api/orgs/:orgId/settings'],
        tags,
        summary: 'Changes part of the settings: booking policy, new-request recipients, number plates (audited)',
        description: 'Only the fields sent change. Recipients "custom" need at least one address (checked on the settings as they would be).',
        security,
      },
      preValidation: async (request) => requireOrgAdmin(orgScope(request)),
    },
    async (request) => service.updateSettings(ctx, orgScope(request), request.body, request.ip),
  );

  app.get(
    '/settings/number-plates',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/settings/number-plates'],
        tags,
        summary: 'Number-plate recognition settings: match threshold and automatic check-in (admins and dockmasters)',
        security,
      },
    },
    async (request) => service.getNumberPlateSettings(ctx, orgScope(request)),
  );

  app.put(
    '/settings/logo',
    {
      schema: {
        ...contract['PUT /api/orgs/:orgId/settings/logo'],
        tags,
        summary: 'Uploads or replaces the logo (multipart, one file in the field "logo")',
        description: `PNG, JPEG or WebP by content (not by name), at most ${MAX_LOGO_BYTES / 1024 / 1024} MB. The replaced image is deleted.`,
        security,
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
      schema: { ...contract['GET /api/orgs/:orgId/settings/logo'], tags, summary: 'The organization’s logo image', security },
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
      schema: { ...contract['DELETE /api/orgs/:orgId/settings/logo'], tags, summary: 'Removes the logo (audited; the image is deleted)', security },
    },
    async (request) => service.removeLogo(ctx, orgScope(request), request.ip),
  );

  app.get(
    '/settings/camera-tokens',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/settings/camera-tokens'],
        tags,
        summary: 'The ANPR cameras’ webhook tokens of every site: name, site, last four characters, created, last used, revoked',
        security,
      },
    },
    async (request) => service.listCameraTokens(ctx, orgScope(request)),
  );

  app.post(
    '/settings/camera-tokens',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/settings/camera-tokens'],
        tags,
        summary: 'Makes a webhook token for a site’s camera; the secret is in this answer only',
        description: 'The camera sends it as "Authorization: Bearer <secret>" to POST /api/anpr/{siteId}/reads. Only its hash is stored.',
        security,
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
      schema: { ...contract['DELETE /api/orgs/:orgId/settings/camera-tokens/:tokenId'], tags, summary: 'Revokes a camera token at once', security },
    },
    async (request, reply) => {
      await service.revokeCameraToken(ctx, orgScope(request), request.params.tokenId, request.ip);
      return reply.code(204).send(null);
    },
  );
};

export default orgSettingsRoutes;
