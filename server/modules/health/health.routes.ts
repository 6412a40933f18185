import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthContract as contract } from '../../../domain/contract/health.contract';
import type { ModuleOptions } from '../../context';
import { migrationState } from '../../db/migrate';
import { databaseLiveness } from './database-liveness';

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
      const [migrations, probe] = await Promise.all([
        reachable ? migrationState(ctx.database) : { applied: 0, total: 0, pending: 0 },
        ctx.realtime?.probe ? ctx.realtime.probe() : { isReceiving: false, roundTripMs: null },
      ]);
      const ok = reachable && migrations.pending === 0 && probe.isReceiving;
      return reply.code(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'degraded',
        database: {
          kind: ctx.database.kind,
          reachable,
          migrations: { applied: migrations.applied, total: migrations.total, pending: migrations.pending },
        },
        realtime: { status: probe.isReceiving ? 'up' : 'down', roundTripMs: probe.roundTripMs },
        node: ctx.config.nodeId,
        uptimeSeconds: Math.round((Date.now() - ctx.startedAt.getTime()) / 1000),
        time: ctx.clock.now().toISOString(),
      });
    },
  );

  // For a load balancer: 503 from the moment the node starts shutting down (in-flight requests
  // still finish), or while its database does not answer — a busy pool is not a dead database.
  const databaseAnswers = databaseLiveness(ctx.database);
  app.get(
    '/health/ready',
    { schema: { ...contract['GET /api/health/ready'], tags: ['platform'], summary: 'Readiness for a load balancer' } },
    async (_request, reply) => {
      if (ctx.lifecycle?.isDraining) return reply.code(503).header('connection', 'close').send({ status: 'draining', node: ctx.config.nodeId });
      if (!(await databaseAnswers())) return reply.code(503).send({ status: 'unavailable', node: ctx.config.nodeId });
      return { status: 'ready' as const, node: ctx.config.nodeId };
    },
  );
};

export default healthRoutes;
