import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { CLIENT_ERROR_MAX_BYTES, CLIENT_ERROR_RATE_PER_MINUTE } from '../../../domain/error-monitoring-rules';
import { SUPPORT_CANNOT_TRIAGE } from '../../../domain/error-monitoring';
import { canEditPlatformSettings } from '../../../domain/platform-settings';
import { errorMonitoringContract as contract } from '../../../domain/contract/error-monitoring.contract';
import type { ModuleOptions } from '../../context';
import { requirePlatformAdmin } from '../../plugins/auth';
import { forbidden } from '../../plugins/errors';
import { perIpLimit } from '../../plugins/rate-limit';
import * as service from './error-monitoring.service';

// Error monitoring: /api/platform/errors… for platform administrators (support reads; super admins
// and owners resolve and reopen), and POST /api/client-errors for the web app's reports.

const security = [{ bearer: [] }];
const tags = ['platform'];

const errorMonitoringRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const recent = service.createRecentReports();

  await app.register(async (scope) => {
    const admin = scope.withTypeProvider<ZodTypeProvider>();
    // The role is checked before the query string is validated: a stranger learns nothing from a 400.
    admin.addHook('preValidation', async (request) => {
      requirePlatformAdmin(request);
    });
    const requireTriage = async (request: Parameters<typeof requirePlatformAdmin>[0]) => {
      if (!canEditPlatformSettings(requirePlatformAdmin(request).user.platformRole)) throw forbidden(SUPPORT_CANNOT_TRIAGE);
    };

    admin.get(
      '/platform/errors',
      {
        schema: {
          ...contract['GET /api/platform/errors'],
          tags,
          summary: 'Error groups (server and browser), newest last-seen first, with count, first and last seen, status and the latest event',
          description:
            'status: open (default), resolved or all. A resolved group seen again after it was resolved is open (isRegression). source: server or browser.',
          security,
        },
      },
      async (request) => service.listErrorGroups(ctx, requirePlatformAdmin(request), request.query),
    );

    admin.get(
      '/platform/errors/:fingerprint',
      {
        schema: { ...contract['GET /api/platform/errors/:fingerprint'], tags, summary: 'One error group and its latest events, newest first', security },
      },
      async (request) => service.getErrorGroup(ctx, requirePlatformAdmin(request), request.params.fingerprint),
    );

    admin.post(
      '/platform/errors/:fingerprint/resolve',
      {
        preValidation: requireTriage,
        schema: {
          ...contract['POST /api/platform/errors/:fingerprint/resolve'],
          tags,
          summary: 'Marks an error group resolved (super admins and platform owners); it opens again by itself if it happens again. Audited',
          security,
        },
      },
      async (request) => service.resolveErrorGroup(ctx, requirePlatformAdmin(request), request.params.fingerprint, request.ip ?? null),
    );

    admin.post(
      '/platform/errors/:fingerprint/reopen',
      {
        preValidation: requireTriage,
        schema: { ...contract['POST /api/platform/errors/:fingerprint/reopen'], tags, summary: 'Reopens a resolved error group (super admins and platform owners). Audited', security },
      },
      async (request) => service.reopenErrorGroup(ctx, requirePlatformAdmin(request), request.params.fingerprint, request.ip ?? null),
    );
  });

  app.post(
    '/client-errors',
    {
      bodyLimit: CLIENT_ERROR_MAX_BYTES,
      config: perIpLimit(ctx, CLIENT_ERROR_RATE_PER_MINUTE),
      schema: {
        ...contract['POST /api/client-errors'],
        tags: ['monitoring'],
        summary: 'A browser error reported by the web app (signed in or not); stored for the error-monitoring screen',
        description: `At most ${CLIENT_ERROR_MAX_BYTES} bytes and ${CLIENT_ERROR_RATE_PER_MINUTE} reports a minute per address. Noise and repeats of the last minute are accepted but not stored (stored: false).`,
      },
    },
    async (request, reply) => {
      const userAgent = request.headers['user-agent'];
      const result = await service.reportClientError(ctx, recent, request.body, {
        ip: request.ip,
        userId: request.auth?.user.id ?? null,
        userAgent: typeof userAgent === 'string' ? userAgent : null,
        requestId: request.id,
      });
      return reply.code(202).send(result);
    },
  );
};

export default errorMonitoringRoutes;
