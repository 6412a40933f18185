import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type StatsPeriodDays } from '../../../domain/platform-admin';
import { platformAdminContract as contract } from '../../../domain/contract/platform-admin.contract';
import type { ModuleOptions } from '../../context';
import { requirePlatformAdmin } from '../../plugins/auth';
import * as service from './platform-admin.service';

// /api/platform/… for the super-admin dashboard and the organizations screens. Every route: 401
// when signed out, 403 for anyone without a platform role; suspending and reactivating also 403
// for platform support (docs/decisions/014-platform-roles.md).

const security = [{ bearer: [] }];
const tags = ['platform'];

const platformAdminRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  // The role is checked before the query string or body is validated: a stranger learns nothing from a 400.
  app.addHook('preValidation', async (request) => {
    requirePlatformAdmin(request);
  });

  app.get(
    '/platform/stats',
    {
      schema: {
        ...contract['GET /api/platform/stats'],
        tags,
        summary: 'Platform statistics (spec §7): active organizations, active memberships, revenue of the period, alerts of the last 24 h',
        description:
          'days: 7 or 30 (default 30). revenueUsd sums amount_paid of paid invoices paid within the last `days` days, null when there is none. alerts counts audit entries of the last 24 hours whose action contains error, warning or alert.',
        security,
      },
    },
    async (request) => service.platformStats(ctx, request.query.days as StatsPeriodDays),
  );

  app.get(
    '/platform/organizations',
    {
      schema: {
        ...contract['GET /api/platform/organizations'],
        tags,
        summary: 'Every organization, newest first, with its status, plan, active sites, active bays and active members; searched and paged',
        security,
      },
    },
    async (request) => service.listOrganizations(ctx, request.query),
  );

  app.get(
    '/platform/organization-options',
    {
      schema: {
        ...contract['GET /api/platform/organization-options'],
        tags,
        summary: "What the create-organization form offers: the active plans and the platform's default plan",
        security,
      },
    },
    async () => service.organizationFormOptions(ctx),
  );

  app.post(
    '/platform/organizations',
    {
      schema: {
        ...contract['POST /api/platform/organizations'],
        tags,
        summary: 'Creates an organization with its plan and invites its first admin by e-mail, in one transaction (super admins and platform owners)',
        description:
          "slug: blank makes one from the name; one in use answers 409 (code slug_taken, under the field). planId: absent gives the platform's default plan, null no plan; a plan that does not exist or is no longer offered answers 404.",
        security,
      },
    },
    async (request, reply) => {
      const created = await service.createOrganization(ctx, requirePlatformAdmin(request), request.body, request.ip);
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/platform/recent-activity',
    {
      schema: {
        ...contract['GET /api/platform/recent-activity'],
        tags,
        summary: "The dashboard's latest audit entries across the platform, newest first, with the organization's name",
        security,
      },
    },
    async (request) => service.recentActivity(ctx, request.query.limit),
  );

  app.get(
    '/platform/organizations/:orgId',
    {
      schema: {
        ...contract['GET /api/platform/organizations/:orgId'],
        tags,
        summary: 'One organization: members, sites and bays, plan and invoices, usage of the last 30 days, suspension, and the actions the caller may take',
        security,
      },
    },
    async (request) => service.getOrganization(ctx, requirePlatformAdmin(request), request.params.orgId),
  );

  app.get(
    '/platform/organizations/:orgId/audit',
    {
      schema: {
        ...contract['GET /api/platform/organizations/:orgId/audit'],
        tags,
        summary: "One organization's audit trail, newest first, a page at a time",
        security,
      },
    },
    async (request) => service.organizationAudit(ctx, request.params.orgId, request.query),
  );

  app.post(
    '/platform/organizations/:orgId/suspend',
    {
      schema: {
        ...contract['POST /api/platform/organizations/:orgId/suspend'],
        tags,
        summary: 'Suspends an organization: its members cannot sign in to it, its portal refuses bookings, its members’ sessions end (super admins and platform owners)',
        security,
      },
    },
    async (request) => service.suspendOrganization(ctx, requirePlatformAdmin(request), request.params.orgId, request.body.reason, request.ip),
  );

  app.post(
    '/platform/organizations/:orgId/reactivate',
    {
      schema: {
        ...contract['POST /api/platform/organizations/:orgId/reactivate'],
        tags,
        summary: 'Lifts a suspension: the organization is active again (super admins and platform owners)',
        security,
      },
    },
    async (request) => service.reactivateOrganization(ctx, requirePlatformAdmin(request), request.params.orgId, request.ip),
  );
};

export default platformAdminRoutes;
