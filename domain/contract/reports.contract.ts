import {
  dwellReportSchema,
  groupedReportCsvQuerySchema,
  noShowReportSchema,
  punctualityReportSchema,
  reportOptionsSchema,
  reportQuerySchema,
  utilisationReportSchema,
  volumeReportSchema,
} from '../reports';
import { defineContract } from './define-contract';

// Reports as JSON for the charts, and as CSV files (server/modules/reports/reports.routes.ts).

export const reportsContract = defineContract({
  'GET /api/orgs/:orgId/reports': { response: { 200: reportOptionsSchema } },
  'GET /api/orgs/:orgId/reports/utilisation': { querystring: reportQuerySchema, response: { 200: utilisationReportSchema } },
  'GET /api/orgs/:orgId/reports/utilisation.csv': { querystring: reportQuerySchema, produces: ['text/csv'] },
  'GET /api/orgs/:orgId/reports/punctuality': { querystring: reportQuerySchema, response: { 200: punctualityReportSchema } },
  'GET /api/orgs/:orgId/reports/punctuality.csv': { querystring: groupedReportCsvQuerySchema, produces: ['text/csv'] },
  'GET /api/orgs/:orgId/reports/dwell': { querystring: reportQuerySchema, response: { 200: dwellReportSchema } },
  'GET /api/orgs/:orgId/reports/dwell.csv': { querystring: groupedReportCsvQuerySchema, produces: ['text/csv'] },
  'GET /api/orgs/:orgId/reports/no-shows': { querystring: reportQuerySchema, response: { 200: noShowReportSchema } },
  'GET /api/orgs/:orgId/reports/no-shows.csv': { querystring: groupedReportCsvQuerySchema, produces: ['text/csv'] },
  'GET /api/orgs/:orgId/reports/volume': { querystring: reportQuerySchema, response: { 200: volumeReportSchema } },
  'GET /api/orgs/:orgId/reports/volume.csv': { querystring: reportQuerySchema, produces: ['text/csv'] },
});
