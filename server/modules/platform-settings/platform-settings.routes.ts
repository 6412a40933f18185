import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { PUBLIC_CONFIG_CACHE_SECONDS, SUPPORT_CANNOT_EDIT_SETTINGS, canEditPlatformSettings } from '../../../domain/platform-settings';
import { platformSettingsContract as contract } from '../../../domain/contract/platform-settings.contract';
import type { ModuleOptions } from '../../context';
import { requirePlatformAdmin } from '../../plugins/auth';
import { forbidden } from '../../plugins/errors';
import { perIpLimit } from '../../plugins/rate-limit';
import * as service from './platform-settings.service';

// GET/PUT /api/platform/settings (platform roles read; super admins and owners write) and the
// public part every screen reads for its maintenance banner, GET /api/public/platform.

const security = [{ bearer: [] }];

const platformSettingsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const publicConfig = service.createPublicConfigCache(ctx);

  await app.register(async (scope) => {
    const admin = scope.withTypeProvider<ZodTypeProvider>();
    // The role is checked before the body is validated: a stranger learns nothing from a 400.
    admin.addHook('preValidation', async (request) => {
      requirePlatformAdmin(request);
    });

    admin.get(
      '/platform/settings',
      {
        schema: {
          ...contract['GET /api/platform/settings'],
          tags: ['platform'],
          summary: 'The platform configuration, the plans a new organization may get by default, and whether the caller may change it',
          security,
        },
      },
      async (request) => service.getSettings(ctx, requirePlatformAdmin(request)),
    );

    admin.put(
      '/platform/settings',
      {
        preValidation: async (request) => {
          if (!canEditPlatformSettings(requirePlatformAdmin(request).user.platformRole)) throw forbidden(SUPPORT_CANNOT_EDIT_SETTINGS);
        },
        schema: {
          ...contract['PUT /api/platform/settings'],
          tags: ['platform'],
          summary: 'Replaces the platform configuration (super admins and platform owners); audited with the changed fields before and after',
          description:
            'Every field is required. Empty support e-mail, phone or banner is stored as null. A new defaultPlanId must name an existing, active plan (422 invalid_plan).',
          security,
        },
      },
      async (request) => service.updateSettings(ctx, requirePlatformAdmin(request), request.body, request.ip ?? null, () => publicConfig.invalidate()),
    );
  });

  app.get(
    '/public/platform',
    {
      // Every screen of every visitor asks for it (polled): generous, and answered from memory.
      config: perIpLimit(ctx, 300),
      schema: {
        ...contract['GET /api/public/platform'],
        tags: ['public'],
        summary: 'The public platform configuration: name, support contact, maintenance banner, whether self sign-up is open',
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', `public, max-age=${PUBLIC_CONFIG_CACHE_SECONDS}`);
      return publicConfig.get();
    },
  );
};

export default platformSettingsRoutes;
