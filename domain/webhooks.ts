import { z } from 'zod';
import { singleLine } from './text-rules';

// Outbound webhooks (Integrations → Webhooks): an organization's endpoints, the events they
// subscribe to, and the delivery log. Shared by the form and the API (docs/webhooks.md).

export const WEBHOOK_EVENT_TYPES = [
  'booking.created',
  'booking.status_changed',
  'booking.rescheduled',
  'gate.check_in',
  'gate.check_out',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A test delivery sent from the screen (every endpoint receives it, whatever it subscribes to). */
export const WEBHOOK_PING_EVENT = 'webhook.ping';

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'booking.created': 'Booking created',
  'booking.status_changed': 'Booking status changed',
  'booking.rescheduled': 'Booking rescheduled',
  'gate.check_in': 'Gate check-in',
  'gate.check_out': 'Gate check-out',
};

export const WEBHOOK_LIMITS = { url: 2000, description: 200, endpointsPerOrg: 20 } as const;

/** Deliveries per page of an endpoint's log. */
export const WEBHOOK_DELIVERY_PAGE_SIZE = 20;

/** Attempts of one delivery (the first and its retries) before it fails for good. */
export const WEBHOOK_MAX_ATTEMPTS = 6;

/** Back-off after the n-th failed attempt: 1 min, 4 min, 16 min, 64 min, 4 h 16 min (capped at 6 h). */
export function webhookRetryDelayMs(attempts: number): number {
  return Math.min(60_000 * 4 ** Math.max(0, attempts - 1), 6 * 3_600_000);
}

/** An endpoint whose delivery fails for good (every attempt), or fails this many attempts in a row, is disabled. */
export const WEBHOOK_DISABLE_AFTER_FAILURES = 15;

/** The headers of every delivery (docs/webhooks.md). */
export const WEBHOOK_HEADERS = {
  signature: 'baywise-signature',
  event: 'baywise-event',
  eventId: 'baywise-event-id',
  delivery: 'baywise-delivery',
  timestamp: 'baywise-timestamp',
} as const;

export const WEBHOOK_URL_MESSAGES = {
  required: 'Enter the endpoint URL',
  invalid: 'Enter a full URL starting with https:// or http://',
  scheme: 'Only http:// and https:// URLs can receive webhooks',
  credentials: 'Put credentials in the receiver, not in the URL',
  private: 'That address is on a private, loopback or link-local network: webhooks go to public addresses only',
  unresolvable: 'That host name does not resolve',
} as const;

const urlField = z
  .string({ error: WEBHOOK_URL_MESSAGES.required })
  .trim()
  .min(1, WEBHOOK_URL_MESSAGES.required)
  .max(WEBHOOK_LIMITS.url, `The URL must be at most ${WEBHOOK_LIMITS.url} characters`)
  .superRefine((value, issue) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      issue.addIssue({ code: 'custom', message: WEBHOOK_URL_MESSAGES.invalid });
      return;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') issue.addIssue({ code: 'custom', message: WEBHOOK_URL_MESSAGES.scheme });
    else if (url.username || url.password) issue.addIssue({ code: 'custom', message: WEBHOOK_URL_MESSAGES.credentials });
  });

const descriptionField = z
  .string({ error: 'Description must be text' })
  .trim()
  .max(WEBHOOK_LIMITS.description, `Description must be at most ${WEBHOOK_LIMITS.description} characters`)
  .refine(...singleLine('Description'))
  .nullable()
  .transform((value) => (value ? value : null));

const eventsField = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: 'Choose events from the list' }), { error: 'Choose at least one event' })
  .min(1, 'Choose at least one event')
  .transform((events) => WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type)));

export const webhookEndpointInputSchema = z
  .object({ url: urlField, description: descriptionField.default(null), events: eventsField })
  .strict();
export type WebhookEndpointInput = z.input<typeof webhookEndpointInputSchema>;

export const webhookEndpointPatchSchema = z
  .object({
    url: urlField.optional(),
    description: descriptionField.optional(),
    events: eventsField.optional(),
    /** true re-enables a disabled endpoint (its failure count starts again); false pauses it. */
    enabled: z.boolean({ error: 'Enabled must be true or false' }).optional(),
  })
  .strict();
export type WebhookEndpointPatch = z.input<typeof webhookEndpointPatchSchema>;

export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  status: z.enum(WEBHOOK_ENDPOINT_STATUSES),
  disabledReason: z.string().nullable(),
  disabledAt: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  /** The signing secret's last four characters. */
  secretHint: z.string(),
  lastDeliveryAt: z.string().nullable(),
  lastDeliveryStatus: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z.object({
  items: z.array(webhookEndpointSchema),
  eventTypes: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  limit: z.number().int(),
});
export type WebhookEndpointList = z.infer<typeof webhookEndpointListSchema>;

/** Creating an endpoint and rotating its secret answer the secret, once. */
export const webhookEndpointWithSecretSchema = z.object({ endpoint: webhookEndpointSchema, secret: z.string() });
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventType: z.string(),
  eventId: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastDurationMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  redeliveryOf: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListQuerySchema = z.object({
  page: z.coerce.number({ error: 'Page must be a number' }).int('Page must be a whole number').min(1, 'Page starts at 1').max(10_000).default(1),
});

export const webhookDeliveryListSchema = z.object({
  items: z.array(webhookDeliverySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

export const WEBHOOK_ADMIN_ONLY = 'Only organization admins can manage webhooks';
export const WEBHOOK_LIMIT_REACHED = `An organization can have at most ${WEBHOOK_LIMITS.endpointsPerOrg} webhook endpoints: remove one first`;
export const WEBHOOK_DISABLED_NO_TEST = 'This endpoint is disabled: enable it before sending a test';

// --- TSR link: status changes posted back to the booking's TSR record ------------------------------

export const TSR_LINK_SYSTEMS = ['servicenow', 'fmclarity'] as const;
export type TsrLinkSystem = (typeof TSR_LINK_SYSTEMS)[number];
export const TSR_LINK_LABELS: Record<TsrLinkSystem, string> = { servicenow: 'ServiceNow', fmclarity: 'FMClarity' };

const baseUrlField = z
  .string({ error: 'Enter the base URL' })
  .trim()
  .min(1, 'Enter the base URL')
  .max(500, 'The base URL must be at most 500 characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, 'Enter the base URL, e.g. https://yourcompany.service-now.com')
  .transform((value) => new URL(value).origin);

const secretField = (label: string) =>
  z.string({ error: `Enter the ${label}` }).min(1, `Enter the ${label}`).max(500, `The ${label} must be at most 500 characters`);

export const tsrConnectionInputSchema = z.discriminatedUnion(
  'system',
  [
    z.object({
      system: z.literal('servicenow'),
      baseUrl: baseUrlField,
      username: z
        .string({ error: 'Enter the user name' })
        .trim()
        .min(1, 'Enter the user name')
        .max(200, 'The user name must be at most 200 characters')
        .refine(...singleLine('User name')),
      password: secretField('password'),
      enabled: z.boolean().default(true),
    }).strict(),
    z.object({ system: z.literal('fmclarity'), baseUrl: baseUrlField, apiKey: secretField('API key'), enabled: z.boolean().default(true) }).strict(),
  ],
  { error: 'Choose ServiceNow or FMClarity' },
);
export type TsrConnectionInput = z.input<typeof tsrConnectionInputSchema>;

export const tsrConnectionSchema = z.object({
  system: z.enum(TSR_LINK_SYSTEMS),
  baseUrl: z.string(),
  /** ServiceNow's user name (the password and API keys are never sent back). */
  username: z.string().nullable(),
  enabled: z.boolean(),
  updatedAt: z.string(),
});
export type TsrConnection = z.infer<typeof tsrConnectionSchema>;
export const tsrConnectionListSchema = z.object({ items: z.array(tsrConnectionSchema) });

// --- Delivery logs of the TSR link and of carriers' SSC subscriptions (Integrations screen) ---------

/** A TSR work note's delivery, with the booking whose status change it reports (null when unknown). */
export const tsrDeliverySchema = webhookDeliverySchema.extend({
  booking: z.object({ id: z.string(), tsrNumber: z.string() }).nullable(),
});
export type TsrDelivery = z.infer<typeof tsrDeliverySchema>;
export const tsrDeliveryListSchema = webhookDeliveryListSchema.extend({ items: z.array(tsrDeliverySchema) });
export type TsrDeliveryList = z.infer<typeof tsrDeliveryListSchema>;

/** A carrier's SSC webhook subscription as an org admin sees it (created through /api/ssc/webhooks/v1/subscriptions). */
export const sscSubscriptionSummarySchema = z.object({
  id: z.string(),
  tenant: z.object({ id: z.string(), name: z.string() }),
  /** The API key that created it; null once the key is deleted. */
  apiKey: z.object({ id: z.string(), name: z.string(), isRevoked: z.boolean() }).nullable(),
  eventTypes: z.array(z.string()),
  callbackUrl: z.string().nullable(),
  lastDeliveryAt: z.string().nullable(),
  lastDeliveryStatus: z.enum(WEBHOOK_DELIVERY_STATUSES).nullable(),
  createdAt: z.string(),
});
export type SscSubscriptionSummary = z.infer<typeof sscSubscriptionSummarySchema>;
export const sscSubscriptionSummaryListSchema = z.object({ items: z.array(sscSubscriptionSummarySchema) });
export type SscSubscriptionSummaryList = z.infer<typeof sscSubscriptionSummaryListSchema>;

export const TSR_CONNECTION_MOVED =
  'The connection now points at another address: this note was for the old one and cannot be sent again';
