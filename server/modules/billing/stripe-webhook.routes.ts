import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { stripeWebhookContract as contract } from '../../../domain/contract/stripe-webhook.contract';
import type { ModuleOptions } from '../../context';
import { handleStripeWebhook } from './stripe-webhook.service';

// POST /api/billing/stripe/webhook (issue 12): Stripe's deliveries, public, authenticated by their
// signature alone. The body must reach the verifier byte for byte, so this plugin (encapsulated:
// the rest of the API keeps its JSON parser) reads every body as a raw buffer.

/** Deliveries a client may make per minute and address (Stripe sends a few at a time). */
export const STRIPE_WEBHOOK_PER_MINUTE = 120;
const MAX_EVENT_BYTES = 512 * 1024;

const stripeWebhookRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_EVENT_BYTES }, (_request, body, done) => done(null, body));

  app.post(
    '/billing/stripe/webhook',
    {
      config: ctx.config.rateLimitDisabled ? {} : { rateLimit: { max: STRIPE_WEBHOOK_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        ...contract['POST /api/billing/stripe/webhook'],
        tags: ['billing'],
        summary:
          'Stripe webhook: invoice.paid, checkout.session.completed or payment_intent.succeeded with metadata.baywise_invoice_id marks that invoice paid. Verified by its Stripe-Signature; a replayed event changes nothing',
        description:
          '400 when the signature does not verify (nothing changed), 404 for an invoice we do not have, 503 when STRIPE_WEBHOOK_SECRET is not set. Other event types are acknowledged and ignored.',
      },
    },
    async (request) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      return handleStripeWebhook(ctx, body, Array.isArray(signature) ? signature[0] : signature, request.ip);
    },
  );
};

export default stripeWebhookRoutes;
