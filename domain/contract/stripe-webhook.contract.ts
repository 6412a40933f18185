import { z } from 'zod';
import { defineContract } from './define-contract';

// Stripe's deliveries, authenticated by their signature (server/modules/billing/stripe-webhook.routes.ts).
// The body is read as raw bytes for the signature check: it has no schema here.

export const stripeWebhookResultSchema = z.object({
  received: z.literal(true),
  applied: z.boolean(),
  duplicate: z.boolean(),
  invoiceId: z.string().nullable(),
  message: z.string(),
});

export const stripeWebhookContract = defineContract({
  'POST /api/billing/stripe/webhook': { response: { 200: stripeWebhookResultSchema } },
});
