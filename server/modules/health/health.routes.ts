import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ModuleOptions } from '../../context';
import { migrationState } from '../../db/migrate';

const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    reachable: z.boolean(),
    migrations: z.object({ applied: z.number(), total: z.number(), pending: z.number() }),
  }),
  uptimeSeconds: z.number(),
  time: z.string(),
});

const healthRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/health',
    { schema: { tags: ['platform'], summary: 'Service health and migration state', response: { 200: healthResponse, 503: healthResponse } } },
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
