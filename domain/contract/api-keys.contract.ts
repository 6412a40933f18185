import { z } from 'zod';
import { apiKeyCreateSchema, apiKeyListQuerySchema, apiKeyListSchema, apiKeySchema, createdApiKeySchema } from '../api-keys';
import { defineContract } from './define-contract';

// The organization's API keys for carriers (server/modules/api-keys/api-keys.routes.ts).

const orgParams = z.object({ orgId: z.string() });
const keyParams = orgParams.extend({ keyId: z.string().max(100) });

export const apiKeysContract = defineContract({
  'GET /api/orgs/:orgId/api-keys': { params: orgParams, querystring: apiKeyListQuerySchema, response: { 200: apiKeyListSchema } },
  'POST /api/orgs/:orgId/api-keys': { params: orgParams, body: apiKeyCreateSchema, response: { 201: createdApiKeySchema } },
  'POST /api/orgs/:orgId/api-keys/:keyId/revoke': { params: keyParams, response: { 200: apiKeySchema } },
});
