import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthContract as contract } from '../../../domain/contract/health.contract';
import type { ModuleOptions } from '../../app';
import { migrationState } from '../../db/migrate';

const healthRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/health',
    { schema: { ...contract['GET /api/health'], tags: ['platform'], summary: 'Service health and migration state' } },
    async (_request, reply) => {
      let reachable = true;
      try {
        await ctx.database.query('select 1');
      } catch {
        reachable = false;
      }
      const migrations = reachable ? await migrationState(ctx.database) : { applied: 0, total: 0, pending: 0 };
      const ok = reachable && migrations.pending === 0;
      return reply.code(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'degraded',
        database: {
          kind: ctx.database.kind,
          reachable,
          migrations: { applied: migrations.applied, total: migrations.total, pending: migrations.pending },
        },
        uptimeSeconds: Math.round((Date.now() - ctx.startedAt.getTime()) / 1000),
        time: ctx.clock.now().toISOString(),
      });
    },
  );
};

export default healthRoutes;
