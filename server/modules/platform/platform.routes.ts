import { count, desc } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ModuleOptions } from '../../app';
import { quoteRequests } from '../../db/schema';
import { requirePlatformAdmin } from '../../plugins/auth';

const quoteRequestDto = z.object({
  id: z.string(),
  name: z.string(),
  company: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  sites: z.number().nullable(),
  message: z.string().nullable(),
  status: z.string(),
  createdAt: z.string(),
});

/** Platform administration (super admins, platform owners and support). */
const platformRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/platform/quote-requests',
    {
      schema: {
        tags: ['platform'],
        summary: "Quote requests from the landing page's 'Request a Quote' form, newest first",
        security: [{ bearer: [] }],
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(100).default(20),
          offset: z.coerce.number().int().min(0).default(0),
        }),
        response: { 200: z.object({ total: z.number(), items: z.array(quoteRequestDto) }) },
      },
    },
    async (request) => {
      requirePlatformAdmin(request);
      const { limit, offset } = request.query;
      const [rows, [total]] = await Promise.all([
        ctx.database.db.select().from(quoteRequests).orderBy(desc(quoteRequests.createdAt)).limit(limit).offset(offset),
        ctx.database.db.select({ n: count() }).from(quoteRequests),
      ]);
      return {
        total: Number(total?.n ?? 0),
        items: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
      };
    },
  );
};

export default platformRoutes;
