import { z } from 'zod';
import { defineContract } from './define-contract';

// Service health (server/modules/health/health.routes.ts): for people and monitoring, and the
// readiness a load balancer checks (docs/scaling.md).

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    reachable: z.boolean(),
    migrations: z.object({ applied: z.number(), total: z.number(), pending: z.number() }),
  }),
  realtime: z.object({
    status: z.enum(['up', 'down']),
    /** From publishing a self-test notification to hearing it on this node's LISTEN connection. */
    roundTripMs: z.number().nullable(),
  }),
  /** This node's id (NODE_ID), to tell the nodes of a cluster apart behind a balancer. */
  node: z.string(),
  uptimeSeconds: z.number(),
  time: z.string(),
});
export type Health = z.infer<typeof healthSchema>;

export const readinessSchema = z.object({ status: z.enum(['ready', 'draining', 'unavailable']), node: z.string() });

export const healthContract = defineContract({
  'GET /api/health': { response: { 200: healthSchema, 503: healthSchema } },
  'GET /api/health/ready': { response: { 200: readinessSchema, 503: readinessSchema } },
});
