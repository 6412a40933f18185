import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  convertedQuoteSchema,
  createOrganizationSchema,
  quoteListQuerySchema,
  quoteListSchema,
  quoteRequestItemSchema,
} from '../../../domain/platform-admin';
import type { ModuleOptions } from '../../context';
import { requirePlatformAdmin } from '../../plugins/auth';
import * as quotes from './quote-requests.service';

// /api/platform/quote-requests…: the landing page's quote requests for the platform administrators.
// Every route: 401 signed out, 403 without a platform role (checked before the query or body);
// marking and converting also 403 for platform support (decision 014).

const security = [{ bearer: [] }];
const tags = ['platform'];
const quoteParams = z.object({ quoteId: z.string().max(100) });

const platformRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.addHook('preValidation', async (request) => {
    requirePlatformAdmin(request);
  });

  app.get(
    '/platform/quote-requests',
    {
      schema: {
        tags,
        summary: "Quote requests from the landing page's 'Request a Quote' form, newest first, with how many there are of each status",
        security,
        querystring: quoteListQuerySchema,
        response: { 200: quoteListSchema },
      },
    },
    async (request) => quotes.listQuotes(ctx, request.query),
  );

  app.get(
    '/platform/quote-requests/:quoteId',
    {
      schema: { tags, summary: 'One quote request', security, params: quoteParams, response: { 200: quoteRequestItemSchema } },
    },
    async (request) => quotes.getQuote(ctx, request.params.quoteId),
  );

  app.post(
    '/platform/quote-requests/:quoteId/contacted',
    {
      schema: {
        tags,
        summary: 'Marks a new quote request as contacted (super admins and platform owners); 409 once contacted or converted',
        security,
        params: quoteParams,
        response: { 200: quoteRequestItemSchema },
      },
    },
    async (request) => quotes.markContacted(ctx, requirePlatformAdmin(request), request.params.quoteId, request.ip),
  );

  app.post(
    '/platform/quote-requests/:quoteId/convert',
    {
      schema: {
        tags,
        summary: 'Creates an organization from a quote request and marks the request converted, in one transaction (super admins and platform owners)',
        description: 'The body is the create-organization form (POST /api/platform/organizations). 409 when the request was already converted.',
        security,
        params: quoteParams,
        body: createOrganizationSchema,
        response: { 201: convertedQuoteSchema },
      },
    },
    async (request, reply) => {
      const converted = await quotes.convertQuote(ctx, requirePlatformAdmin(request), request.params.quoteId, request.body, request.ip);
      return reply.code(201).send(converted);
    },
  );
};

export default platformRoutes;
