import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ZodObject, ZodType } from 'zod';
import type { ModuleOptions } from '../../context';
import { authenticateApiKey, type ApiKeyPrincipal } from '../api-keys/api-keys.service';
import { methodNotAllowed, toSscFailure } from './ssc-errors';
import * as doc from './ssc-openapi';
import * as service from './ssc.service';
import * as webhooks from './ssc-webhooks.service';

// /api/ssc/… — the Scheduling Standards Consortium's appointment API v1.1 (docs/ssc-mapping.md).
// Every call carries an API key (Authorization: Bearer bw_live_…): checked first (401), then
// rate-limited per key (429 with Retry-After), then the handler checks the key's scope (403).
// Bodies are validated against the standard's schemas by the service, so refusals take the
// standard's failure shape ({ status: 'FAILURE', problemDetails }) instead of ours.
// Each route carries Baywise's profile of the standard (ssc-openapi.ts) as its schema: that is what
// /api/docs and /api/ssc/openapi.json publish. This plugin does not validate or serialize with it
// (the service's domain/ssc.ts schemas list every problem in the standard's shape);
// ssc.contract.test.ts holds the profile to what the service accepts and answers.

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKeyPrincipal | null;
  }
}

const tags = ['ssc'];
const security = [{ sscApiKey: [] }];
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

type Answers = Record<number, ZodType>;
const rpc = (operationId: string, summary: string, description: string | undefined, parts: { body?: ZodType; params?: ZodObject; response: Answers }) => ({
  schema: { tags, operationId, summary, description, security, ...parts },
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
  // The profile documents; the service validates (see above). Answers are sent as the service made them.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.setErrorHandler(async (error, _request, reply: FastifyReply) => {
    const failure = toSscFailure(error);
    if (!failure) throw error;
    return reply.code(failure.statusCode).send(failure.body());
  });

  app.post(
    '/appointments/v1/fetch-available-appointments',
    rpc('fetch-available-appointments', 'SSC: available appointments at a location for a date or date range (scope availability:read)', undefined, { body: doc.fetchAvailableBody, response: doc.answers.fetchAvailable }),
    async (request) => service.fetchAvailableAppointments(ctx, principal(request), request.body, request.ip),
  );
  app.post(
    '/appointments/v1/schedule-appointment',
    rpc('schedule-appointment', 'SSC: schedules an appointment (scope appointments:schedule); Idempotency-Key honoured', 'Books through the portal’s booking path: source ssc, the tenant’s auto-approve policy. A retry with the same Idempotency-Key header answers the first booking.', { body: doc.scheduleBody, response: doc.answers.schedule }),
    async (request) => service.scheduleAppointment(ctx, principal(request), request.body, idempotencyKeyOf(request), request.ip),
  );
  app.post(
    '/appointments/v1/reschedule-appointment',
    rpc('reschedule-appointment', 'SSC: moves an appointment to another available time at its location (scope appointments:reschedule)', undefined, { body: doc.rescheduleBody, response: doc.answers.reschedule }),
    async (request) => service.rescheduleAppointment(ctx, principal(request), request.body, request.ip),
  );
  app.post(
    '/appointments/v1/cancel-appointment',
    rpc('cancel-appointment', 'SSC: cancels an appointment (scope appointments:cancel)', undefined, { body: doc.cancelBody, response: doc.answers.cancel }),
    async (request) => service.cancelAppointment(ctx, principal(request), request.body, request.ip),
  );
  app.post(
    '/appointments/v1/fetch-appointment-details',
    rpc('fetch-appointment-details', 'SSC: an appointment’s details and status (scope availability:read)', undefined, { body: doc.detailsBody, response: doc.answers.details }),
    async (request) => service.fetchAppointmentDetails(ctx, principal(request), request.body, request.ip),
  );

  app.get('/webhooks/v1/subscriptions', rpc('get-subscriptions', 'SSC: the key’s tenant’s webhook subscriptions (scope webhooks)', undefined, { response: doc.answers.listSubscriptions }), async (request) =>
    webhooks.listSubscriptions(ctx, principal(request), request.ip),
  );
  app.post('/webhooks/v1/subscriptions', rpc('subscribe', 'SSC: subscribes a callback URL to events (scope webhooks)', `Answers 201 with Location and, once, the subscription’s signing secret in the ${webhooks.SIGNING_SECRET_HEADER} header.`, { body: doc.subscribeBody, response: doc.answers.subscribe }), async (request, reply) => {
    const { subscription, signingSecret } = await webhooks.createSubscription(ctx, principal(request), request.body, request.ip);
    return reply
      .code(201)
      .header('location', `${ctx.config.publicUrl.replace(/\/$/, '')}/api/ssc/webhooks/v1/subscriptions/${subscription.subscriptionId}`)
      .header(webhooks.SIGNING_SECRET_HEADER, signingSecret)
      .header('cache-control', 'no-store')
      .send(subscription);
  });
  app.get('/webhooks/v1/subscriptions/:subscriptionId', rpc('get-subscription', 'SSC: one webhook subscription (scope webhooks)', undefined, { params: doc.subscriptionParams, response: doc.answers.getSubscription }), async (request) =>
    webhooks.getSubscription(ctx, principal(request), (request.params as { subscriptionId: string }).subscriptionId, request.ip),
  );
  app.put('/webhooks/v1/subscriptions/:subscriptionId', rpc('update-subscription', 'SSC: changes a webhook subscription (scope webhooks)', undefined, { params: doc.subscriptionParams, body: doc.subscription, response: doc.answers.updateSubscription }), async (request) =>
    webhooks.updateSubscription(ctx, principal(request), (request.params as { subscriptionId: string }).subscriptionId, request.body, request.ip),
  );
  app.delete('/webhooks/v1/subscriptions/:subscriptionId', rpc('delete-subscription', 'SSC: deletes a webhook subscription (scope webhooks)', undefined, { params: doc.subscriptionParams, response: doc.answers.deleteSubscription }), async (request, reply) => {
    await webhooks.deleteSubscription(ctx, principal(request), (request.params as { subscriptionId: string }).subscriptionId, request.ip);
    return reply.code(204).send();
  });

  // The standard's RPC paths take POST: any other method answers 405 in the failure shape (not the
  // generic error, nor the web app's 404).
  for (const url of doc.SSC_RPC_PATHS) {
    app.route({
      method: ['GET', 'PUT', 'PATCH', 'DELETE'],
      url,
      schema: { hide: true },
      handler: async (request, reply) => {
        const failure = methodNotAllowed(request.method, `/api/ssc${url}`);
        return reply.code(405).header('allow', 'POST').send(failure.body());
      },
    });
  }
};

export default sscRoutes;
