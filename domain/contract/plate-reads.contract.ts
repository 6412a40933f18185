import { z } from 'zod';
import {
  plateReadBodySchema,
  plateReadListQuerySchema,
  plateReadListSchema,
  plateReadResultSchema,
  plateReadSchema,
  resolvePlateReadBodySchema,
} from '../plate-reads';
import { defineContract, MULTIPART_FORM } from './define-contract';

// Plates read by staff at the gate (server/modules/anpr/plate-reads.routes.ts).

const readParams = z.object({ siteId: z.string(), id: z.string() });

export const plateReadsContract = defineContract({
  'POST /api/sites/:siteId/plate-reads': { body: plateReadBodySchema, response: { 200: plateReadResultSchema } },
  // One PNG, JPEG or WebP image in the field "photo", read on the server.
  'POST /api/sites/:siteId/plate-reads/photo': { consumes: MULTIPART_FORM, response: { 200: plateReadResultSchema } },
  'GET /api/sites/:siteId/plate-reads': { querystring: plateReadListQuerySchema, response: { 200: plateReadListSchema } },
  'POST /api/sites/:siteId/plate-reads/:id/resolve': { params: readParams, body: resolvePlateReadBodySchema, response: { 200: plateReadSchema } },
  'POST /api/sites/:siteId/plate-reads/:id/ignore': { params: readParams, response: { 200: plateReadSchema } },
});
