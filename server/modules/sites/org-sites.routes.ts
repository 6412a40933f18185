import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orgSitesContract as contract } from '../../../domain/contract/org-sites.contract';
import type { ModuleOptions } from '../../context';
import { orgScope } from '../../plugins/org-scope';
import * as service from './org-sites.service';

// /api/orgs/:orgId/sites… (Settings › Sites & hours) — registered inside the organization scope.
// Admins write, dockmasters read. The plain GET /api/orgs/:orgId/sites (active sites, for the site
// selector) belongs to the organizations module; the admin list with inactive sites and counts is
// GET …/sites/all.

const security = [{ bearer: [] }];
const tags = ['sites'];

const orgSiteRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/sites/all',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/sites/all'],
        tags,
        summary: 'Every site of the organization, inactive ones too, with its active bays and upcoming live bookings',
        security,
      },
    },
    async (request) => service.listSites(ctx, orgScope(request)),
  );

  app.post(
    '/sites',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/sites'],
        tags,
        summary: 'Adds a site (org admins)',
        description: 'Names are unique within the organization whatever their case (400 with a field error). Hours default to the spec’s, slots to 30 minutes, the minimum advance to 2 hours, the horizon to 60 days.',
        security,
      },
    },
    async (request, reply) => reply.code(201).send(await service.createSite(ctx, orgScope(request), request.body, request.ip)),
  );

  app.get(
    '/sites/:siteId',
    { schema: { ...contract['GET /api/orgs/:orgId/sites/:siteId'], tags, summary: 'One site with its counts', security } },
    async (request) => service.getSite(ctx, orgScope(request), request.params.siteId),
  );

  app.patch(
    '/sites/:siteId',
    {
      schema: {
        ...contract['PATCH /api/orgs/:orgId/sites/:siteId'],
        tags,
        summary: 'Changes a site’s details, hours, time zone and slot rules (org admins)',
        description:
          'Never moves a booking. New hours or a new time zone are saved; the upcoming live bookings that fitted the old hours and lie outside the new ones come back in outsideHours, for the admin to keep, reschedule or cancel (POST …/bookings/resolve-affected).',
        security,
      },
    },
    async (request) => service.updateSite(ctx, orgScope(request), request.params.siteId, request.body, request.ip),
  );

  app.post(
    '/sites/:siteId/deactivate',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/sites/:siteId/deactivate'],
        tags,
        summary: 'Stops a site taking bookings (org admins)',
        description:
          'Without a resolution, a site with upcoming live bookings answers 409 affected_bookings listing them and changes nothing; with resolution keep or cancel (with a reason the hauliers are e-mailed) the site is deactivated and the choice applied in one transaction.',
        security,
      },
    },
    async (request) => service.deactivateSite(ctx, orgScope(request), request.params.siteId, request.body ?? {}, request.ip),
  );

  app.post(
    '/sites/:siteId/reactivate',
    { schema: { ...contract['POST /api/orgs/:orgId/sites/:siteId/reactivate'], tags, summary: 'Opens a deactivated site to bookings again (org admins)', security } },
    async (request) => service.reactivateSite(ctx, orgScope(request), request.params.siteId, request.ip),
  );

  app.get(
    '/sites/:siteId/holidays',
    { schema: { ...contract['GET /api/orgs/:orgId/sites/:siteId/holidays'], tags, summary: 'The site’s holiday closures that have not ended, in date order', security } },
    async (request) => service.listHolidays(ctx, orgScope(request), request.params.siteId),
  );

  app.post(
    '/sites/:siteId/holidays',
    {
      schema: {
        ...contract['POST /api/orgs/:orgId/sites/:siteId/holidays'],
        tags,
        summary: 'Closes the whole site over local dates, first to last day inclusive (org admins)',
        description:
          'Stored as a site-wide blackout of kind holiday from local midnight of the first day to local midnight after the last. Live bookings inside it answer 409 affected_bookings unless a resolution (keep or cancel) comes with the request.',
        security,
      },
    },
    async (request, reply) => reply.code(201).send(await service.createHoliday(ctx, orgScope(request), request.params.siteId, request.body, request.ip)),
  );

  app.delete(
    '/sites/:siteId/holidays/:holidayId',
    { schema: { ...contract['DELETE /api/orgs/:orgId/sites/:siteId/holidays/:holidayId'], tags, summary: 'Removes a holiday closure (org admins)', security } },
    async (request, reply) => {
      await service.deleteHoliday(ctx, orgScope(request), request.params.siteId, request.params.holidayId, request.ip);
      return reply.code(204).send(null);
    },
  );
};

export default orgSiteRoutes;
