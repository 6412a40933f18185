import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orgTenantsContract as contract } from '../../../domain/contract/org-tenants.contract';
import type { ModuleOptions } from '../../context';
import { AppError, badRequest } from '../../plugins/errors';
import { orgScope, requireOrgAdmin } from '../../plugins/org-scope';
import * as service from './org-tenants.service';

// /api/orgs/:orgId/tenants… — registered inside the organization scope (server/app.ts): the caller
// is a member of the organization (or a platform admin) before any handler runs.

const security = [{ bearer: [] }];
/** The CSV import's largest body. */
const IMPORT_MAX_BYTES = 1024 * 1024;

/** The import's CSV text: the body itself (text/csv or text/plain), or the first file of a multipart form. */
async function csvTextOf(request: FastifyRequest): Promise<string> {
  if (request.isMultipart()) {
    let file;
    try {
      file = await request.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } });
    } catch {
      throw badRequest('Expected a multipart form with the CSV file');
    }
    if (!file) throw badRequest('Attach the CSV file');
    const bytes = await file.toBuffer().catch(() => {
      throw new AppError(413, 'payload_too_large', 'The file is larger than 1 MB: split it');
    });
    if (file.file.truncated) throw new AppError(413, 'payload_too_large', 'The file is larger than 1 MB: split it');
    return bytes.toString('utf8');
  }
  if (typeof request.body !== 'string') throw badRequest('Send the CSV file as text/csv, or as a file in a multipart form');
  return request.body;
}

const orgTenantRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  // The import's body: CSV text (this plugin's routes only).
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: IMPORT_MAX_BYTES }, (_request, body, done) => done(null, body));

  app.get(
    '/tenants',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/tenants'],
        tags: ['tenants'],
        summary: 'The organization’s tenants with their booking counts: searched, filtered by status, one page at a time',
        security,
      },
    },
    async (request) => service.listTenants(ctx, orgScope(request), request.query),
  );

  app.post(
    '/tenants',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/tenants'],
        tags: ['tenants'],
        summary: 'Adds a tenant with its contacts, e-mail domains and booking policy (org admins)',
        security,
      },
    },
    async (request, reply) => reply.code(201).send(await service.createTenant(ctx, orgScope(request), request.body, request.ip)),
  );

  app.post(
    '/tenants/import',
    {
      bodyLimit: IMPORT_MAX_BYTES,
      schema: {
        ...contract['POST /api/orgs/:orgId/tenants/import'],
        tags: ['tenants'],
        summary: 'Imports tenants from a CSV file, all or nothing (org admins)',
        description:
          'Body: the CSV as text/csv, or a multipart form with the file. Header: name,contact_emails,phone,email_domains,status,auto_approve,max_bookings_per_day (any order; only name is required); lists separated by ";". Any problem answers 400 import_invalid with details.errors = [{row, column, message}] (row: the line in the file, the header is line 1) and imports nothing.',
        security,
      },
    },
    async (request) => {
      const scope = orgScope(request);
      // Dockmasters learn nothing from the file's validation.
      requireOrgAdmin(scope);
      return service.importTenants(ctx, scope, await csvTextOf(request), request.ip);
    },
  );

  app.get(
    '/tenants/:tenantId',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/tenants/:tenantId'],
        tags: ['tenants'],
        summary: 'One tenant: its policy and figures (bookings, on-time rate, no-shows, cancellations)',
        security,
      },
    },
    async (request) => service.getTenant(ctx, orgScope(request), request.params.tenantId),
  );

  app.get(
    '/tenants/:tenantId/bookings',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/tenants/:tenantId/bookings'],
        tags: ['tenants'],
        summary: 'The bookings linked to a tenant, latest first, one page at a time',
        security,
      },
    },
    async (request) => service.listTenantBookings(ctx, orgScope(request), request.params.tenantId, request.query.page),
  );

  app.patch(
    '/tenants/:tenantId',
    {
      schema: {
        ...contract['PATCH /api/orgs/:orgId/tenants/:tenantId'],
        tags: ['tenants'],
        summary: 'Changes a tenant: contacts, domains, policy, or blocks / unblocks it with a reason (org admins)',
        security,
      },
    },
    async (request) => service.updateTenant(ctx, orgScope(request), request.params.tenantId, request.body, request.ip),
  );
};

export default orgTenantRoutes;
