import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import rateLimit from '@fastify/rate-limit';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { MAX_FILE_BYTES, MAX_FILES } from '../domain/constants';
import type { AppContext } from './context';
import { authPlugin } from './plugins/auth';
import { errorsPlugin } from './plugins/errors';
import healthRoutes from './modules/health/health.routes';
import authRoutes from './modules/auth/auth.routes';
import publicRoutes from './modules/public/public.routes';
import organizationRoutes from './modules/organizations/organizations.routes';
import publicBookingRoutes from './modules/bookings/public-bookings.routes';
import haulierAccountRoutes from './modules/haulier-accounts/haulier-accounts.routes';
import platformRoutes from './modules/platform/platform.routes';
import platformAdminRoutes from './modules/platform-admin/platform-admin.routes';
import { registerOrgScope } from './plugins/org-scope';
import { APP_HELMET_OPTIONS, securityHeadersPlugin } from './plugins/security-headers';
import { requestBodiesPlugin } from './plugins/request-bodies';
import orgBookingRoutes from './modules/bookings/org-bookings.routes';
import realtimeRoutes, { closeSocketsForRestart } from './realtime/realtime.routes';
import orgDashboardRoutes from './modules/dashboard/org-dashboard.routes';
import orgScheduleRoutes from './modules/schedule/org-schedule.routes';
import orgSiteRoutes from './modules/sites/org-sites.routes';
import orgBayRoutes from './modules/bays/org-bays.routes';
import orgBlackoutRoutes from './modules/blackouts/org-blackouts.routes';
import orgTenantRoutes from './modules/tenants/org-tenants.routes';
import standingBookingRoutes from './modules/standing-bookings/standing-bookings.routes';
import orgTeamRoutes from './modules/team/org-team.routes';
import invitationRoutes from './modules/team/invitation.routes';
import orgSettingsRoutes from './modules/org-settings/org-settings.routes';
import orgReportRoutes from './modules/reports/reports.routes';
import webhookRoutes from './modules/webhooks/webhooks.routes';
import tsrLinkRoutes from './modules/tsr-link/tsr-link.routes';
import sscAdminRoutes from './modules/ssc/ssc-admin.routes';
import sscRescheduleRequestRoutes from './modules/ssc/ssc-reschedule-requests.routes';
import sscNotFoundRoutes from './modules/ssc/ssc-not-found.routes';
import { ocrAssetRoutes } from './ocr/ocr-assets';
import { registerSiteScope } from './plugins/site-scope';
import gateRoutes from './modules/gate/gate.routes';
import { kioskRoutes, orgKioskDeviceRoutes, siteKioskRoutes } from './modules/kiosk/kiosk.routes';
import plateReadRoutes from './modules/anpr/plate-reads.routes';
import anprWebhookRoutes from './modules/anpr/anpr-webhook.routes';
import auditLogRoutes from './modules/audit-log/audit-log.routes';
import platformSettingsRoutes from './modules/platform-settings/platform-settings.routes';
import errorMonitoringRoutes from './modules/error-monitoring/error-monitoring.routes';
import usageRoutes from './modules/usage/usage.routes';
import { usageCountingPlugin } from './modules/usage/usage-recorder';
import mfaRoutes from './modules/mfa/mfa.routes';
import impersonationRoutes from './modules/impersonation/impersonation.routes';
import billingRoutes from './modules/billing/billing.routes';
import stripeWebhookRoutes from './modules/billing/stripe-webhook.routes';
import apiKeyRoutes from './modules/api-keys/api-keys.routes';
import sscRoutes from './modules/ssc/ssc.routes';
import { SWAGGER_UI_CSP } from './plugins/swagger-ui-csp';
import sscDocsRoutes, { SSC_SECURITY_SCHEME } from './modules/ssc/ssc-docs.routes';
import { rateLimitStore } from './plugins/rate-limit-store';
import { listenToBookingChanges } from './modules/bookings/booking-webhooks';
import { queueTsrNoteOnChange } from './modules/tsr-link/tsr-link.service';
import { queueSscAppointmentChanged } from './modules/ssc/ssc-events';
import { indexPages } from './web-index';

// Who else hears of a booking's status changes and moves, in the transaction of the change: the
// TSR record's work note, then the carrier's SSC `appointment-changed` callback. Those modules use
// bookings, so bookings reaches them through this list (modules/bookings/booking-webhooks.ts).
listenToBookingChanges(queueTsrNoteOnChange);
listenToBookingChanges(queueSscAppointmentChanged);


export type BuildOptions = {
  /** Folder of the built web app to serve; omitted in API tests. */
  webDist?: string;
  /** A pino logger to use; API tests run silent. */
  logger?: import('pino').Logger;
};

/** Builds the HTTP app: plugins, then modules. No listen() here, so tests can inject. */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}) {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    // X-Forwarded-For is believed only from the proxies named in TRUST_PROXY: anyone else could
    // pick a new address per request and escape every per-IP limit.
    trustProxy: ctx.config.trustProxy.length > 0 ? ctx.config.trustProxy : false,
    bodyLimit: 1_048_576,
    genReqId: () => crypto.randomUUID(),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin, { database: ctx.database, clock: ctx.clock });
  await app.register(securityHeadersPlugin, APP_HELMET_OPTIONS);
  // Draining (SIGTERM): every answer closes its connection, so the balancer keeps no reused
  // connection to a node about to stop listening (a request sent on one as it closes would be lost
  // with no answer); the drain waits until requests other than health checks stop coming.
  app.addHook('onRequest', async (request) => {
    if (ctx.lifecycle && !request.url.startsWith('/api/health')) ctx.lifecycle.lastRequestAt = Date.now();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (ctx.lifecycle?.isDraining) reply.header('connection', 'close');
  });
  const limits = await rateLimitStore(ctx.config, ctx.database);
  app.addHook('onClose', limits.close);
  await app.register(rateLimit, { global: false, ...limits.options });
  await app.register(multipart, { limits: { fileSize: MAX_FILE_BYTES, files: MAX_FILES, fields: 100 } });
  // Multipart only where a route reads it; a body refused half-read closes its connection.
  await app.register(requestBodiesPlugin);
  // Client messages are a few hundred bytes; ws would otherwise accept 100 MiB frames.
  await app.register(websocket, { options: { maxPayload: 4096 }, preClose: closeSocketsForRestart });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Baywise API', version: '1.0.0', description: 'Dock and loading-bay booking and operations.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, sscApiKey: SSC_SECURITY_SCHEME } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: SWAGGER_UI_CSP });
  await app.register(authPlugin, { ctx });
  // API and webhook calls per organization (before the routes it counts).
  await app.register(usageCountingPlugin, { ctx });

  await app.register(healthRoutes, { prefix: '/api', ctx });
  await app.register(authRoutes, { prefix: '/api', ctx });
  await app.register(publicRoutes, { prefix: '/api/public', ctx });
  await app.register(organizationRoutes, { prefix: '/api', ctx });
  await app.register(publicBookingRoutes, { prefix: '/api/public', ctx });
  await app.register(haulierAccountRoutes, { prefix: '/api/public', ctx });
  await app.register(platformRoutes, { prefix: '/api', ctx });
  await app.register(platformAdminRoutes, { prefix: '/api', ctx });
  await app.register(auditLogRoutes, { prefix: '/api', ctx });
  await app.register(platformSettingsRoutes, { prefix: '/api', ctx });
  await app.register(errorMonitoringRoutes, { prefix: '/api', ctx });
  await app.register(usageRoutes, { prefix: '/api', ctx });
  await app.register(mfaRoutes, { prefix: '/api', ctx });
  await app.register(impersonationRoutes, { prefix: '/api', ctx });
  await app.register(billingRoutes, { prefix: '/api', ctx });
  await app.register(stripeWebhookRoutes, { prefix: '/api', ctx });
  // The organization workspace: one tenant scope (server/plugins/org-scope.ts) for every route.
  await app.register(
    async (scoped) => {
      registerOrgScope(scoped, ctx);
      await scoped.register(orgBookingRoutes, { ctx });
      await scoped.register(orgDashboardRoutes, { ctx });
      await scoped.register(orgScheduleRoutes, { ctx });
      await scoped.register(orgSiteRoutes, { ctx });
      await scoped.register(orgBayRoutes, { ctx });
      await scoped.register(orgBlackoutRoutes, { ctx });
      await scoped.register(orgTenantRoutes, { ctx });
      await scoped.register(standingBookingRoutes, { ctx });
      await scoped.register(orgTeamRoutes, { ctx });
      await scoped.register(orgSettingsRoutes, { ctx });
      await scoped.register(orgKioskDeviceRoutes, { ctx });
      await scoped.register(orgReportRoutes, { ctx });
      await scoped.register(apiKeyRoutes, { ctx });
      await scoped.register(webhookRoutes, { ctx });
      await scoped.register(tsrLinkRoutes, { ctx });
      await scoped.register(sscAdminRoutes, { ctx });
      await scoped.register(sscRescheduleRequestRoutes, { ctx });
    },
    { prefix: '/api/orgs/:orgId' },
  );
  // The gate of one site: dock staff (org admins, dockmasters, security) of its organization.
  await app.register(
    async (scoped) => {
      registerSiteScope(scoped, ctx);
      await scoped.register(gateRoutes, { ctx });
      await scoped.register(plateReadRoutes, { ctx });
      await scoped.register(siteKioskRoutes, { ctx });
    },
    { prefix: '/api/sites/:siteId' },
  );
  await app.register(anprWebhookRoutes, { prefix: '/api', ctx });
  await app.register(kioskRoutes, { prefix: '/api', ctx });
  // The carriers' appointment API (SSC standard), with API keys instead of sessions.
  await app.register(sscRoutes, { prefix: '/api/ssc', ctx });
  // Its reference, without a key: /api/ssc/openapi.json, /api/ssc/docs, /api/ssc/reference.
  await app.register(sscDocsRoutes, { prefix: '/api/ssc', ctx });
  // Any other /api/ssc path: 404 in the standard's failure shape.
  await app.register(sscNotFoundRoutes, { prefix: '/api/ssc' });
  await app.register(invitationRoutes, { prefix: '/api', ctx });
  // Plate OCR's worker, cores and trained data, served by us (nothing is downloaded at run time).
  // (server/ocr/plate-ocr.ts loads sharp and tesseract.js: the route that reads images imports it
  // lazily and closes its worker on shutdown, so a start-up never pays for them.)
  await app.register(ocrAssetRoutes);
  await app.register(realtimeRoutes, { prefix: '/api', ctx });

  if (options.webDist && fs.existsSync(path.join(options.webDist, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: options.webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset; the one the browser accepts is sent.
      preCompressed: true,
      // Our own Cache-Control below, not send's default ('public, max-age=0', which overwrote it).
      cacheControl: false,
      setHeaders: (res, filePath) => {
        // Hashed file names change with their content: cache them for a year, never revalidated
        // (issue 22 item 16); everything else (index.html, icons) is revalidated each time.
        const isHashedAsset = path.resolve(filePath).startsWith(path.join(path.resolve(options.webDist!), 'assets') + path.sep);
        res.setHeader('cache-control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    const pageFor = indexPages(options.webDist);
    // Single-page app: any non-API GET that is not a file serves index.html; the client router
    // shows its own 404 page. API paths keep the JSON 404.
    app.get('/*', { schema: { hide: true } }, async (request, reply) => {
      if (request.url.startsWith('/api/')) {
        return reply.code(404).send({ error: { code: 'not_found', message: `Route GET ${request.url} not found` } });
      }
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(pageFor(request.url));
    });
  }

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
