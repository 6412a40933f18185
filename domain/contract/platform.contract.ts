import { z } from 'zod';
import {
  convertedQuoteSchema,
  createOrganizationSchema,
  quoteListQuerySchema,
  quoteListSchema,
  quoteRequestItemSchema,
} from '../platform-admin';
import { defineContract } from './define-contract';

// The landing page's quote requests, for the platform administrators (server/modules/platform/platform.routes.ts).

const quoteParams = z.object({ quoteId: z.string().max(100) });

export const platformContract = defineContract({
  'GET /api/platform/quote-requests': { querystring: quoteListQuerySchema, response: { 200: quoteListSchema } },
  'GET /api/platform/quote-requests/:quoteId': { params: quoteParams, response: { 200: quoteRequestItemSchema } },
  'POST /api/platform/quote-requests/:quoteId/contacted': { params: quoteParams, response: { 200: quoteRequestItemSchema } },
  'POST /api/platform/quote-requests/:quoteId/convert': { params: quoteParams, body: createOrganizationSchema, response: { 201: convertedQuoteSchema } },
});
