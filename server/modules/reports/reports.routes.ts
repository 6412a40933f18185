import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DWELL_COLUMNS,
  NO_SHOW_COLUMNS,
  PUNCTUALITY_COLUMNS,
  reportCsvFileName,
  toCsv,
  UTILISATION_COLUMNS,
  VOLUME_COLUMNS,
  type ReportColumn,
  type ReportKind,
  type ReportRange,
} from '../../../domain/reports';
import { reportsContract as contract } from '../../../domain/contract/reports.contract';
import type { ModuleOptions } from '../../context';
import { orgScope } from '../../plugins/org-scope';
import * as service from './reports.service';

// /api/orgs/:orgId/reports… — registered inside the organization scope (server/app.ts): the caller
// is an org admin or dockmaster of the organization (or a platform admin) before any handler runs;
// security staff and strangers get 404 there. Each report answers JSON for its chart and table,
// and `<report>.csv` the table alone (what the web shows under the chart).

const security = [{ bearer: [] }];
const QUERY_HELP =
  'from/to: site-local dates YYYY-MM-DD, inclusive, at most 366 days (both absent: the last 30 days up to today). siteId: one site (absent: every site, organization admins only; a dockmaster signed in at a site gets that site). Bad dates answer 400, a site that is not the organization’s 404, a site a dockmaster may not see 403.';

/** The caller's scope, and the site its session was opened at (the dock sign-in), if for this organization. */
function accessOf(request: FastifyRequest): service.ReportAccess {
  const scope = orgScope(request);
  const auth = request.auth;
  return { scope, sessionSiteId: auth && auth.orgId === scope.orgId ? auth.siteId : null };
}

function sendCsv<Row>(reply: FastifyReply, kind: ReportKind, range: ReportRange, columns: ReadonlyArray<ReportColumn<Row>>, rows: readonly Row[]) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${reportCsvFileName(kind, range)}"`)
    .header('cache-control', 'private, no-store')
    .send(toCsv(columns, rows));
}

const CSV_HELP = `${QUERY_HELP} Answers text/csv (UTF-8 with a byte-order mark, CRLF line ends) as an attachment; text cells starting with = + - @ get a leading apostrophe.`;

const reportRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/reports',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/reports'],
        tags: ['reports'],
        summary: 'What the caller may report on: the sites (each with its today), whether "All sites" may be chosen, the default range',
        security,
      },
    },
    async (request) => service.getReportOptions(ctx, accessOf(request)),
  );

  app.get(
    '/reports/utilisation',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/reports/utilisation'],
        tags: ['reports'],
        summary: 'Bay utilisation: booked and occupied minutes over open minutes, per bay, per bay and day, per site and day',
        description: QUERY_HELP,
        security,
      },
    },
    async (request) => service.getUtilisation(ctx, accessOf(request), request.query),
  );
  app.get(
    '/reports/utilisation.csv',
    { schema: { ...contract['GET /api/orgs/:orgId/reports/utilisation.csv'], tags: ['reports'], summary: 'Bay utilisation per bay, as CSV', description: CSV_HELP, security } },
    async (request, reply) => {
      const report = await service.getUtilisation(ctx, accessOf(request), request.query);
      return sendCsv(reply, 'utilisation', report.range, UTILISATION_COLUMNS, report.bays);
    },
  );

  app.get(
    '/reports/punctuality',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/reports/punctuality'],
        tags: ['reports'],
        summary: 'Punctuality: early, on-time and late arrivals per tenant, site and vehicle type, with the late minutes',
        description: QUERY_HELP,
        security,
      },
    },
    async (request) => service.getPunctuality(ctx, accessOf(request), request.query),
  );
  app.get(
    '/reports/punctuality.csv',
    { schema: { ...contract['GET /api/orgs/:orgId/reports/punctuality.csv'], tags: ['reports'], summary: 'Punctuality as CSV (groupBy: one grouping only)', description: CSV_HELP, security } },
    async (request, reply) => {
      const report = await service.getPunctuality(ctx, accessOf(request), request.query);
      const rows = report.rows.filter((r) => !request.query.groupBy || r.dimension === request.query.groupBy);
      return sendCsv(reply, 'punctuality', report.range, PUNCTUALITY_COLUMNS, rows);
    },
  );

  app.get(
    '/reports/dwell',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/reports/dwell'],
        tags: ['reports'],
        summary: 'Dwell and turn time: gate wait, time at bay and on site (median, p90, max) and overstays per site, bay, tenant, vehicle and booking type',
        description: QUERY_HELP,
        security,
      },
    },
    async (request) => service.getDwell(ctx, accessOf(request), request.query),
  );
  app.get(
    '/reports/dwell.csv',
    { schema: { ...contract['GET /api/orgs/:orgId/reports/dwell.csv'], tags: ['reports'], summary: 'Dwell and turn time as CSV (groupBy: one grouping only)', description: CSV_HELP, security } },
    async (request, reply) => {
      const report = await service.getDwell(ctx, accessOf(request), request.query);
      const rows = report.rows.filter((r) => !request.query.groupBy || r.dimension === request.query.groupBy);
      return sendCsv(reply, 'dwell', report.range, DWELL_COLUMNS, rows);
    },
  );

  app.get(
    '/reports/no-shows',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/reports/no-shows'],
        tags: ['reports'],
        summary: 'No-shows and cancellations: rates per tenant and site, and the daily trend',
        description: QUERY_HELP,
        security,
      },
    },
    async (request) => service.getNoShows(ctx, accessOf(request), request.query),
  );
  app.get(
    '/reports/no-shows.csv',
    { schema: { ...contract['GET /api/orgs/:orgId/reports/no-shows.csv'], tags: ['reports'], summary: 'No-shows and cancellations as CSV (groupBy: one grouping only)', description: CSV_HELP, security } },
    async (request, reply) => {
      const report = await service.getNoShows(ctx, accessOf(request), request.query);
      const rows = report.rows.filter((r) => !request.query.groupBy || r.dimension === request.query.groupBy);
      return sendCsv(reply, 'no-shows', report.range, NO_SHOW_COLUMNS, rows);
    },
  );

  app.get(
    '/reports/volume',
    {
      schema: {
        ...contract['GET /api/orgs/:orgId/reports/volume'],
        tags: ['reports'],
        summary: 'Volume: bookings per day by booking type and source, and per weekday × hour of their start',
        description: QUERY_HELP,
        security,
      },
    },
    async (request) => service.getVolume(ctx, accessOf(request), request.query),
  );
  app.get(
    '/reports/volume.csv',
    { schema: { ...contract['GET /api/orgs/:orgId/reports/volume.csv'], tags: ['reports'], summary: 'Volume per day, as CSV', description: CSV_HELP, security } },
    async (request, reply) => {
      const report = await service.getVolume(ctx, accessOf(request), request.query);
      return sendCsv(reply, 'volume', report.range, VOLUME_COLUMNS, report.days);
    },
  );
};

export default reportRoutes;
