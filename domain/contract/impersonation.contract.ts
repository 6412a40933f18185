import { z } from 'zod';
import { impersonationEndSchema, impersonationStartSchema, startImpersonationSchema } from '../auth-schemas';
import { defineContract } from './define-contract';

// Impersonation, started and ended (server/modules/impersonation/impersonation.routes.ts).

export const impersonationContract = defineContract({
  'POST /api/platform/impersonations': { body: startImpersonationSchema, response: { 200: impersonationStartSchema } },
  'POST /api/platform/impersonations/:sessionId/end': { params: z.object({ sessionId: z.string().max(100) }), response: { 200: impersonationEndSchema } },
  'POST /api/impersonations/end': { response: { 200: impersonationEndSchema } },
});
