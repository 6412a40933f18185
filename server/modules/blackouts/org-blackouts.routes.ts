import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  blackoutListQuerySchema,
  blackoutListSchema,
  blackoutOptionsSchema,
  blackoutWriteResultSchema,
  createBlackoutSchema,
  createSeriesSchema,
  seriesDeleteResultSchema,
  seriesListQuerySchema,
  seriesListSchema,
  seriesSchema,
  seriesWriteResultSchema,
  updateBlackoutSchema,
  updateSeriesSchema,
} from '../../../domain/org-blackouts';
import type { ModuleOptions } from '../../context';
import { orgScope } from '../../plugins/org-scope';
import * as series from './blackout-series.service';
import * as oneOff from './one-off-blackouts.service';
import * as service from './org-blackouts.service';

// /api/orgs/:orgId/blackouts… and /blackout-series… — registered inside the organization scope
// (server/app.ts): anonymous 401, strangers 404 before any handler; writes need an org admin.

const blackoutParams = z.object({ orgId: z.string(), blackoutId: z.string().max(100) });
const seriesParams = z.object({ orgId: z.string(), seriesId: z.string().max(100) });
const security = [{ bearer: [] }];
const tags = ['blackouts'];
const AFFECTED =
  'Over live bookings without a `resolution` it answers 409 affected_bookings (the bookings in details.affected) and changes nothing; with one, the change and the resolution (keep, move to another free compatible bay, cancel with the reason e-mailed) commit together.';

const orgBlackoutRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/blackouts',
    {
      schema: {
        tags,
        summary: 'Blackouts (one-offs, occurrences of series, holidays) by site, bay and site-local days, a page at a time',
        description: 'Without from/to: the blackouts not over yet. A bay filter includes its site’s whole-site blackouts.',
        security,
        querystring: blackoutListQuerySchema,
        response: { 200: blackoutListSchema },
      },
    },
    async (request) => service.listBlackouts(ctx, orgScope(request), request.query),
  );

  app.get(
    '/blackout-options',
    {
      schema: { tags, summary: 'The sites (with their time zone and today) and bays a blackout can close', security, response: { 200: blackoutOptionsSchema } },
    },
    async (request) => service.getOptions(ctx, orgScope(request)),
  );

  app.post(
    '/blackouts',
    {
      schema: {
        tags,
        summary: 'Closes a bay, or the whole site, from a local start to a local end (the site’s time zone)',
        description: AFFECTED,
        security,
        body: createBlackoutSchema,
        response: { 201: blackoutWriteResultSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await oneOff.createBlackout(ctx, orgScope(request), request.body, request.ip)),
  );

  app.patch(
    '/blackouts/:blackoutId',
    {
      schema: {
        tags,
        summary: 'Changes a blackout; an occurrence changed alone leaves its series',
        description: `Holiday closures are changed with the site (409 holiday_closure). ${AFFECTED}`,
        security,
        params: blackoutParams,
        body: updateBlackoutSchema,
        response: { 200: blackoutWriteResultSchema },
      },
    },
    async (request) => oneOff.updateBlackout(ctx, orgScope(request), request.params.blackoutId, request.body, request.ip),
  );

  app.delete(
    '/blackouts/:blackoutId',
    {
      schema: {
        tags,
        summary: 'Deletes a blackout, or one occurrence of a series (the series does not write it again)',
        security,
        params: blackoutParams,
      },
    },
    async (request, reply) => {
      await oneOff.deleteBlackout(ctx, orgScope(request), request.params.blackoutId, request.ip);
      return reply.code(204).send();
    },
  );

  app.get(
    '/blackout-series',
    {
      schema: { tags, summary: 'Recurring blackouts, with their plain-language summary and next occurrence', security, querystring: seriesListQuerySchema, response: { 200: seriesListSchema } },
    },
    async (request) => service.listSeries(ctx, orgScope(request), request.query.siteId),
  );

  app.get(
    '/blackout-series/:seriesId',
    { schema: { tags, summary: 'One recurring blackout', security, params: seriesParams, response: { 200: seriesSchema } } },
    async (request) => service.getSeries(ctx, orgScope(request), request.params.seriesId),
  );

  app.post(
    '/blackout-series',
    {
      schema: {
        tags,
        summary: 'A recurring blackout: daily, weekly on chosen days or monthly, from a start date at a local time for a duration, optionally until a date',
        description: `Stored as an RRULE and written as ordinary blackouts up to 730 days ahead (a daily job goes on). ${AFFECTED}`,
        security,
        body: createSeriesSchema,
        response: { 201: seriesWriteResultSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await series.createSeries(ctx, orgScope(request), request.body, request.ip)),
  );

  app.patch(
    '/blackout-series/:seriesId',
    {
      schema: {
        tags,
        summary: 'Changes a recurring blackout: its occurrences from now on are written again (started ones stay as history)',
        description: AFFECTED,
        security,
        params: seriesParams,
        body: updateSeriesSchema,
        response: { 200: seriesWriteResultSchema },
      },
    },
    async (request) => series.updateSeries(ctx, orgScope(request), request.params.seriesId, request.body, request.ip),
  );

  app.delete(
    '/blackout-series/:seriesId',
    {
      schema: {
        tags,
        summary: 'Ends a recurring blackout: its future occurrences go, those already started stay as plain blackouts',
        security,
        params: seriesParams,
        response: { 200: seriesDeleteResultSchema },
      },
    },
    async (request) => series.deleteSeries(ctx, orgScope(request), request.params.seriesId, request.ip),
  );
};

export default orgBlackoutRoutes;
