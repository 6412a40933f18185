import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { toCsv } from '../../../domain/reports';
import { USAGE_CSV_COLUMNS, usageCsvFileName, type UsagePeriodDays } from '../../../domain/usage';
import { usageContract as contract } from '../../../domain/contract/usage.contract';
import type { ModuleOptions } from '../../context';
import { requirePlatformAdmin } from '../../plugins/auth';
import * as service from './usage.service';

// GET /api/platform/usage and /api/platform/usage.csv: platform administrators (every platform
// role reads; decision 014). 401 signed out, 403 for anyone else — checked before the query string.

const security = [{ bearer: [] }];
const tags = ['platform'];
const WINDOW_HELP =
  'days: 7, 30 or 90 (default 30) — the last N UTC days, today included, up to now. orgId: one organization only (a malformed or unknown id answers 404). What each figure counts is documented in domain/usage.ts.';

const usageRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.addHook('preValidation', async (request) => {
    requirePlatformAdmin(request);
  });

  app.get(
    '/platform/usage',
    {
      schema: {
        ...contract['GET /api/platform/usage'],
        tags,
        summary: 'Usage per organization and in total: bookings created by source, active users, sign-ins, documents, API and webhook calls; per day; nearest plan limits',
        description: `${WINDOW_HELP} q, sort, order, page and pageSize apply to the table of organizations only.`,
        security,
      },
    },
    async (request) => service.usageReport(ctx, { ...request.query, days: request.query.days as UsagePeriodDays }),
  );

  app.get(
    '/platform/usage.csv',
    {
      schema: {
        ...contract['GET /api/platform/usage.csv'],
        tags,
        summary: 'Usage per organization (and a total row) as CSV',
        description: `${WINDOW_HELP} Answers text/csv (UTF-8 with a byte-order mark, CRLF line ends) as an attachment; text cells starting with = + - @ get a leading apostrophe.`,
        security,
      },
    },
    async (request, reply) => {
      const days = request.query.days as UsagePeriodDays;
      const { rows, now } = await service.usageRows(ctx, days, request.query.orgId);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${usageCsvFileName(days, now)}"`)
        .header('cache-control', 'private, no-store')
        .send(toCsv(USAGE_CSV_COLUMNS, rows));
    },
  );
};

export default usageRoutes;
