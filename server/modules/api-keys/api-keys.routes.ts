import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiKeysContract as contract } from '../../../domain/contract/api-keys.contract';
import type { ModuleOptions } from '../../context';
import { orgScope, requireOrgAdmin } from '../../plugins/org-scope';
import * as service from './api-keys.service';

// /api/orgs/:orgId/api-keys… — inside the organization scope (server/app.ts): anonymous 401,
// another organization 404 before any handler runs; dockmasters 403 (org admins only).

const tags = ['integrations'];
const security = [{ bearer: [] }];
const adminsOnly = { preValidation: async (request: Parameters<typeof orgScope>[0]) => requireOrgAdmin(orgScope(request)) };

const apiKeyRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/api-keys',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/api-keys'],
        tags,
        summary: 'The organization’s API keys, one page at a time: name, tenant, scopes, last four characters, expiry, last use, status (admins)',
        security,
      },
      ...adminsOnly,
    },
    async (request) => service.listApiKeys(ctx, orgScope(request), request.query.page),
  );

  app.post(
    '/api-keys',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/api-keys'],
        tags,
        summary: 'Makes an API key acting for a tenant with the given scopes; the secret is in this answer only (admins, audited)',
        security,
      },
      ...adminsOnly,
    },
    async (request, reply) => reply.code(201).send(await service.createApiKey(ctx, orgScope(request), request.body, request.ip)),
  );

  app.post(
    '/api-keys/:keyId/revoke',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/api-keys/:keyId/revoke'],
        tags,
        summary: 'Revokes an API key at once: its next call is refused (admins, audited)',
        security,
      },
      ...adminsOnly,
    },
    async (request) => service.revokeApiKey(ctx, orgScope(request), request.params.keyId, request.ip),
  );
};

export default apiKeyRoutes;
