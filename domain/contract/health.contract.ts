import { z } from 'zod';
import { defineContract } from './define-contract';

// Service health (server/modules/health/health.routes.ts).

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    reachable: z.boolean(),
    migrations: z.object({ applied: z.number(), total: z.number(), pending: z.number() }),
  }),
  uptimeSeconds: z.number(),
  time: z.string(),
});
export type Health = z.infer<typeof healthSchema>;

export const healthContract = defineContract({
  'GET /api/health': { response: { 200: healthSchema, 503: healthSchema } },
});
