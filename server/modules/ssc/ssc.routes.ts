import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context';
import { authenticateApiKey, type ApiKeyPrincipal } from '../api-keys/api-keys.service';
import { toSscFailure } from './ssc-errors';
import * as service from './ssc.service';
import * as webhooks from './ssc-webhooks.service';

// /api/ssc/… — the Scheduling Standards Consortium's appointment API v1.1 (docs/ssc-mapping.md).
// Every call carries an API key (Authorization: Bearer bw_live_…): checked first (401), then
// rate-limited per key (429 with Retry-After), then the handler checks the key's scope (403).
// Bodies are validated against the standard's schemas by the service, so refusals take the
// standard's failure shape ({ status: 'FAILURE', problemDetails }) instead of ours.

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKeyPrincipal | null;
  }
}

const tags = ['ssc'];
const security = [{ bearer: [] }];
const RATE_WINDOW_MS = 60_000;

function principal(request: FastifyRequest): ApiKeyPrincipal {
  if (!request.apiKey) throw new Error('ssc: route without an API key check');
  return request.apiKey;
}

/** The Idempotency-Key header (the portal's convention): a retried schedule answers the first booking. */
function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, 200) : undefined;
}

const rpc = (summary: string, description?: string) => ({
  schema: { tags, summary, description, security },
});

const sscRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (request) => {
    request.apiKey = await authenticateApiKey(ctx, request.headers.authorization);
  });
  // One counter per key across every SSC endpoint, per API node (docs/decisions/020-carrier-api.md).
  app.addHook(
    'onRequest',
    app.rateLimit({
      max: async (request) => (request as FastifyRequest).apiKey?.rateLimitPerMinute ?? 60,
      timeWindow: RATE_WINDOW_MS,
      keyGenerator: (request) => `ssc-key:${(request as FastifyRequest).apiKey?.keyId ?? request.ip}`,
    }),
  );
  app.setErrorHandler(async (error, _request, reply: FastifyReply) => {
    const failure = toSscFailure(error);
    if (!failure) throw error;
    return reply.code(failure.statusCode).send(failure.body());
  });

  app.post(
    '/appointments/v1/fetch-available-appointments',
    rpc('SSC: available appointments at a location for a date or date range (scope availability:read)'),
    async (request) => service.fetchAvailableAppointments(ctx, principal(request), request.body, request.ip),
  );
  app.post(
    '/appointments/v1/schedule-appointment',
    rpc('SSC: schedules an appointment (scope appointments:schedule); Idempotency-Key honoured', 'Books through the portal’s booking path: source ssc, the tenant’s auto-approve policy.'),
    async (request) => service.scheduleAppointment(ctx, principal(request), request.body, idempotencyKeyOf(request), request.ip),
  );
  app.post(
    '/appointments/v1/reschedule-appointment',
    rpc('SSC: moves an appointment to another available time at its location (scope appointments:reschedule)'),
    async (request) => service.rescheduleAppointment(ctx, principal(request), request.body, request.ip),
  );
  app.post(
    '/appointments/v1/cancel-appointment',
    rpc('SSC: cancels an appointment (scope appointments:cancel)'),
    async (request) => service.cancelAppointment(ctx, principal(request), request.body, request.ip),
  );
  app.post(
    '/appointments/v1/fetch-appointment-details',
    rpc('SSC: an appointment’s details and status (scope availability:read)'),
    async (request) => service.fetchAppointmentDetails(ctx, principal(request), request.body, request.ip),
  );

  app.get('/webhooks/v1/subscriptions', rpc('SSC: the key’s tenant’s webhook subscriptions (scope webhooks)'), async (request) =>
    webhooks.listSubscriptions(ctx, principal(request), request.ip),
  );
  app.post('/webhooks/v1/subscriptions', rpc('SSC: subscribes a callback URL to events (scope webhooks)'), async (request, reply) => {
    const { subscription, signingSecret } = await webhooks.createSubscription(ctx, principal(request), request.body, request.ip);
    return reply
      .code(201)
      .header('location', `${ctx.config.publicUrl.replace(/\/$/, '')}/api/ssc/webhooks/v1/subscriptions/${subscription.subscriptionId}`)
      .header(webhooks.SIGNING_SECRET_HEADER, signingSecret)
      .header('cache-control', 'no-store')
      .send(subscription);
  });
  app.get('/webhooks/v1/subscriptions/:subscriptionId', rpc('SSC: one webhook subscription (scope webhooks)'), async (request) =>
    webhooks.getSubscription(ctx, principal(request), (request.params as { subscriptionId: string }).subscriptionId, request.ip),
  );
  app.put('/webhooks/v1/subscriptions/:subscriptionId', rpc('SSC: changes a webhook subscription (scope webhooks)'), async (request) =>
    webhooks.updateSubscription(ctx, principal(request), (request.params as { subscriptionId: string }).subscriptionId, request.body, request.ip),
  );
  app.delete('/webhooks/v1/subscriptions/:subscriptionId', rpc('SSC: deletes a webhook subscription (scope webhooks)'), async (request, reply) => {
    await webhooks.deleteSubscription(ctx, principal(request), (request.params as { subscriptionId: string }).subscriptionId, request.ip);
    return reply.code(204).send();
  });
};

export default sscRoutes;
