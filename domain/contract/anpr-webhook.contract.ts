import { z } from 'zod';
import { plateReadResultSchema } from '../plate-reads';
import { defineContract } from './define-contract';

// A site camera's plate reads, with the site's camera token (server/modules/anpr/anpr-webhook.routes.ts). The body (JSON, image/* or multipart) is read by the handler.

export const anprWebhookContract = defineContract({
  'POST /api/anpr/:siteId/reads': { params: z.object({ siteId: z.string() }), response: { 200: plateReadResultSchema } },
});
