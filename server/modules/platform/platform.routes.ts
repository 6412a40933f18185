import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { platformContract as contract } from '../../../domain/contract/platform.contract';
import type { ModuleOptions } from '../../context';
import { requirePlatformAdmin } from '../../plugins/auth';
import * as quotes from './quote-requests.service';

// /api/platform/quote-requests…: the landing page's quote requests for the platform administrators.
// Every route: 401 signed out, 403 without a platform role (checked before the query or body);
// marking and converting also 403 for platform support (decision 014).

const security = [{ bearer: [] }];
const tags = ['platform'];

const platformRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.addHook('preValidation', async (request) => {
    requirePlatformAdmin(request);
  });

  app.get(
    '/platform/quote-requests',
    {
      schema: {
        ...contract['GET /api/platform/quote-requests'],
        tags,
        summary: "Quote requests from the landing page's 'Request a Quote' form, newest first, with how many there are of each status",
        security,
      },
    },
    async (request) => quotes.listQuotes(ctx, request.query),
  );

  app.get(
    '/platform/quote-requests/:quoteId',
    {
      schema: { ...contract['GET /api/platform/quote-requests/:quoteId'], tags, summary: 'One quote request', security },
    },
    async (request) => quotes.getQuote(ctx, request.params.quoteId),
  );

  app.post(
    '/platform/quote-requests/:quoteId/contacted',
    {
      schema: {
        ...contract['POST /api/platform/quote-requests/:quoteId/contacted'],
        tags,
        summary: 'Marks a new quote request as contacted (super admins and platform owners); 409 once contacted or converted',
        security,
      },
    },
    async (request) => quotes.markContacted(ctx, requirePlatformAdmin(request), request.params.quoteId, request.ip),
  );

  app.post(
    '/platform/quote-requests/:quoteId/convert',
    {
      schema: {
        ...contract['POST /api/platform/quote-requests/:quoteId/convert'],
        tags,
        summary: 'Creates an organization from a quote request and marks the request converted, in one transaction (super admins and platform owners)',
        description: 'The body is the create-organization form (POST /api/platform/organizations). 409 when the request was already converted.',
        security,
      },
    },
    async (request, reply) => {
      const converted = await quotes.convertQuote(ctx, requirePlatformAdmin(request), request.params.quoteId, request.body, request.ip);
      return reply.code(201).send(converted);
    },
  );
};

export default platformRoutes;
