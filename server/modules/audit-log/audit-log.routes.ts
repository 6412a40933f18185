import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditLogContract as contract } from '../../../domain/contract/audit-log.contract';
import type { ModuleOptions } from '../../context';
import { requirePlatformAdmin } from '../../plugins/auth';
import { orgScope, registerOrgScope, requireOrgAdmin } from '../../plugins/org-scope';
import * as service from './audit-log.service';

// The audit log, read-only (issue 12):
// - /api/platform/audit…: every entry, for platform administrators (super admin, owner, support);
// - /api/orgs/:orgId/audit…: one organization's entries, for its admins (a dockmaster is refused
//   with 403; security staff and strangers get the organization scope's 404).
// Registered once under /api (server/app.ts); the organization routes get the same tenant scope as
// every other /api/orgs/:orgId route.

const security = [{ bearer: [] }];
const csvDescription =
  'The newest 10,000 matching entries, newest first: created_at (UTC), organization, organization_id, actor_email, actor_role, actor_id, action, resource_type, resource_id, site, site_id, details (JSON). ' +
  'Cells starting with =, +, -, @ are prefixed with an apostrophe. X-Total-Count: how many match in all; X-Row-Count: how many the file holds. The export is itself audited (audit.exported).';

function sendCsv(reply: FastifyReply, fileName: string, csv: service.AuditCsv) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .header('x-total-count', String(csv.total))
    .header('x-row-count', String(csv.rows))
    .send(csv.text);
}

const auditLogRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const today = () => ctx.clock.now().toISOString().slice(0, 10);

  app.get(
    '/platform/audit',
    {
      schema: {
        ...contract['GET /api/platform/audit'],
        tags: ['audit'],
        summary: 'Every audit entry, newest first, with its organization’s name: filtered and one page at a time (20 by default)',
        description:
          'Filters: orgId; actor (a user id, or part of an e-mail, any case); action and resourceType (exact); from/to (calendar days in tz, both included; tz defaults to UTC).',
        security,
      },
    },
    async (request) => {
      requirePlatformAdmin(request);
      const { page, pageSize, ...filter } = request.query;
      return service.listAudit(ctx, { platform: true }, filter, page, pageSize);
    },
  );

  app.get(
    '/platform/audit/filters',
    {
      schema: {
        ...contract['GET /api/platform/audit/filters'],
        tags: ['audit'],
        summary: 'The audit list’s filter choices: every organization, and the actions and resource types recorded',
        security,
      },
    },
    async (request) => {
      requirePlatformAdmin(request);
      return service.auditFilterOptions(ctx, { platform: true });
    },
  );

  app.get(
    '/platform/audit/csv',
    {
      schema: {
        ...contract['GET /api/platform/audit/csv'],
        tags: ['audit'],
        summary: 'The audit list as CSV, with the same filters',
        description: csvDescription,
        security,
      },
    },
    async (request, reply) => {
      const auth = requirePlatformAdmin(request);
      const actor = { id: auth.user.id, email: auth.user.email, role: auth.user.platformRole };
      const csv = await service.exportAuditCsv(ctx, { platform: true }, request.query, { actor, ip: request.ip });
      return sendCsv(reply, `baywise-audit-${today()}.csv`, csv);
    },
  );

  await app.register(orgAuditRoutes, { prefix: '/orgs/:orgId', ctx });
};

/** One organization's trail, inside its tenant scope (the same as every /api/orgs/:orgId route). */
const orgAuditRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (scoped, { ctx }) => {
  registerOrgScope(scoped, ctx);
  const today = () => ctx.clock.now().toISOString().slice(0, 10);

  scoped.get(
    '/audit',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/audit'],
        tags: ['audit'],
        summary: 'The organization’s audit trail, newest first: filtered and one page at a time (organization admins)',
        security,
      },
    },
    async (request) => {
      const scope = orgScope(request);
      requireOrgAdmin(scope);
      const { page, pageSize, ...filter } = request.query;
      return service.listAudit(ctx, { orgId: scope.orgId }, filter, page, pageSize);
    },
  );

  scoped.get(
    '/audit/filters',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/audit/filters'],
        tags: ['audit'],
        summary: 'The actions and resource types recorded for the organization (organization admins)',
        security,
      },
    },
    async (request) => {
      const scope = orgScope(request);
      requireOrgAdmin(scope);
      return service.auditFilterOptions(ctx, { orgId: scope.orgId });
    },
  );

  scoped.get(
    '/audit/csv',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/audit/csv'],
        tags: ['audit'],
        summary: 'The organization’s audit trail as CSV, with the same filters (organization admins)',
        description: csvDescription,
        security,
      },
    },
    async (request, reply) => {
      const scope = orgScope(request);
      requireOrgAdmin(scope);
      const csv = await service.exportAuditCsv(ctx, { orgId: scope.orgId }, request.query, { actor: scope.auditActor, ip: request.ip });
      return sendCsv(reply, `activity-${today()}.csv`, csv);
    },
  );
};

export default auditLogRoutes;
