import { PROVIDER_INVOICE_METADATA_KEY, WEBHOOKS_NOT_CONFIGURED, WEBHOOK_SIGNATURE_INVALID, amountToCents } from '../../../domain/billing';
import type { AppContext } from '../../context';
import { AppError, notFound } from '../../plugins/errors';
import { writeAudit } from '../../audit/write-audit';
import * as repo from './billing.repo';

// Stripe's webhook (issue 12): an event that says one of our invoices was paid marks it paid.
// The signature (Stripe-Signature: a timestamp and an HMAC of the raw body with the endpoint's
// secret) is verified by Stripe's own library before anything is read; a forged, altered or stale
// event is refused with nothing changed. Each event id is recorded in the same transaction as
// its effect, so a replayed delivery changes nothing. See docs/decisions/022-billing.md.

/** The events that carry a completed payment; our invoice id travels in the object's metadata. */
export const PAYMENT_EVENTS = ['invoice.paid', 'checkout.session.completed', 'payment_intent.succeeded'] as const;

export type WebhookOutcome = { received: true; applied: boolean; duplicate: boolean; invoiceId: string | null; message: string };

type PaymentObject = {
  metadata?: Record<string, string> | null;
  currency?: string | null;
  /** invoice.paid */
  amount_paid?: number | null;
  /** checkout.session.completed */
  amount_total?: number | null;
  payment_status?: string | null;
  /** payment_intent.succeeded */
  amount_received?: number | null;
};

/** How far a delivery's signed timestamp may be from our clock, either way (seconds; Stripe's default). */
const STRIPE_TOLERANCE_SECONDS = 300;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Stripe's webhook helpers: through a client when an API key is configured, else the library's own (no key is needed to verify). */
async function stripeWebhooks(secretKey: string | undefined) {
  const { default: Stripe } = await import('stripe');
  return secretKey ? new Stripe(secretKey).webhooks : Stripe.webhooks;
}

/** Verifies the delivery and applies it. Throws 503 when not configured, 400 for a bad signature, 404 for an invoice we do not have. */
export async function handleStripeWebhook(ctx: AppContext, rawBody: Buffer, signature: string | undefined, ip: string | null): Promise<WebhookOutcome> {
  const secret = ctx.config.stripe.webhookSecret;
  if (!secret) throw new AppError(503, 'webhooks_not_configured', WEBHOOKS_NOT_CONFIGURED);
  if (!signature) throw new AppError(400, 'invalid_signature', `${WEBHOOK_SIGNATURE_INVALID} (no Stripe-Signature header)`);
  const now = ctx.clock.now();
  const webhooks = await stripeWebhooks(ctx.config.stripe.secretKey);
  let event: { id: string; type: string; data: { object: unknown } };
  try {
    // The timestamp is checked against our clock (5 minutes' tolerance, Stripe's default). Stripe's
    // library refuses only a timestamp that is too old; one from the future is refused here too,
    // else a captured delivery signed ahead of time could be replayed later (issue 21).
    const timestamps = signature.split(',').filter((part) => part.trim().startsWith('t=')).map((part) => Number(part.trim().slice(2)));
    if (timestamps.some((t) => !Number.isFinite(t) || t * 1000 > now.getTime() + STRIPE_TOLERANCE_SECONDS * 1000)) {
      throw new Error('Timestamp outside the tolerance zone (ahead of our clock)');
    }
    event = webhooks.constructEvent(rawBody, signature, secret, STRIPE_TOLERANCE_SECONDS, undefined, now.getTime());
  } catch (error) {
    ctx.log.warn({ reason: (error as Error).message }, 'stripe webhook refused: signature');
    throw new AppError(400, 'invalid_signature', WEBHOOK_SIGNATURE_INVALID);
  }

  const object = (event.data?.object ?? {}) as PaymentObject;
  const invoiceRef = object.metadata?.[PROVIDER_INVOICE_METADATA_KEY] ?? null;
  const isPayment = (PAYMENT_EVENTS as readonly string[]).includes(event.type);
  const outcome = (applied: boolean, message: string, duplicate = false): WebhookOutcome => ({
    received: true,
    applied,
    duplicate,
    invoiceId: isPayment ? invoiceRef : null,
    message,
  });

  if (isPayment && invoiceRef !== null && !UUID.test(invoiceRef)) throw notFound('Invoice');

  return ctx.database.db.transaction(async (tx) => {
    const isNew = await repo.recordWebhookEvent(tx, {
      eventId: event.id,
      provider: 'stripe',
      type: event.type,
      invoiceId: isPayment && invoiceRef ? invoiceRef : null,
      at: now,
    });
    if (!isNew) return outcome(false, `Event ${event.id} was already processed`, true);
    if (!isPayment) return outcome(false, `Event type ${event.type} is not used`);
    if (!invoiceRef) return outcome(false, `The event carries no ${PROVIDER_INVOICE_METADATA_KEY} metadata`);
    if (event.type === 'checkout.session.completed' && object.payment_status && object.payment_status !== 'paid') {
      return outcome(false, `The checkout session is ${object.payment_status}, not paid`);
    }

    // Unknown invoice: 404, and the event's record rolls back with it (nothing changed).
    const row = await repo.findInvoiceAnyOrg(tx, invoiceRef, true);
    if (!row) throw notFound('Invoice');
    const { invoice } = row;
    if (invoice.status === 'paid') return outcome(false, `Invoice ${invoice.number} is already paid`);
    if (invoice.status === 'void') {
      ctx.log.warn({ invoice: invoice.number, event: event.id }, 'stripe payment for a void invoice: not applied');
      return outcome(false, `Invoice ${invoice.number} is void: the payment was not applied`);
    }
    if (object.currency && object.currency.toUpperCase() !== invoice.currency.toUpperCase()) {
      ctx.log.warn({ invoice: invoice.number, event: event.id, currency: object.currency }, 'stripe payment in another currency: not applied');
      return outcome(false, `The payment is in ${object.currency.toUpperCase()}, the invoice in ${invoice.currency}: not applied`);
    }
    const paidCents = object.amount_paid ?? object.amount_total ?? object.amount_received ?? null;
    const dueCents = amountToCents(invoice.amountDue);
    if (paidCents !== null && paidCents < dueCents) {
      ctx.log.warn({ invoice: invoice.number, event: event.id, paidCents, dueCents }, 'stripe payment below the amount due: not applied');
      return outcome(false, `The payment (${(paidCents / 100).toFixed(2)}) is less than the amount due (${invoice.amountDue}): not applied`);
    }

    await repo.updateInvoice(tx, invoice, { status: 'paid', amountPaid: invoice.amountDue, paidAt: now, paymentMethod: 'stripe', paymentRef: event.id });
    await writeAudit(tx, {
      actor: null,
      anonymousRole: 'system',
      action: 'invoice.paid',
      resourceType: 'invoice',
      resourceId: invoice.id,
      orgId: invoice.orgId,
      details: {
        number: invoice.number,
        amountUsd: Number(invoice.amountDue),
        method: 'stripe',
        eventId: event.id,
        eventType: event.type,
        ...(paidCents !== null ? { receivedUsd: paidCents / 100 } : {}),
      },
      ip,
    });
    return outcome(true, `Invoice ${invoice.number} marked paid`);
  });
}
