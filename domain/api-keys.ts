import { z } from 'zod';
import { singleLine } from './text-rules';

// API keys of an organization (Integrations on /org/settings): each acts for one tenant with a set
// of scopes, until it expires or is revoked. The secret is shown once; the server keeps its hash.

export const API_KEY_SCOPES = ['availability:read', 'appointments:schedule', 'appointments:reschedule', 'appointments:cancel', 'webhooks'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'availability:read': 'Read availability and appointments',
  'appointments:schedule': 'Schedule appointments',
  'appointments:reschedule': 'Reschedule appointments',
  'appointments:cancel': 'Cancel appointments',
  webhooks: 'Manage webhook subscriptions',
};

/** Every key's secret starts with this, so a leaked one is recognisable (secret scanners). */
export const API_KEY_PREFIX = 'bw_live_';
export const DEFAULT_API_KEY_RATE_LIMIT = 600;
export const MAX_API_KEY_RATE_LIMIT = 100_000;
export const MAX_ACTIVE_API_KEYS_PER_ORG = 50;
export const API_KEYS_PAGE_SIZE = 20;

export const NO_TENANT_CONTACT_MESSAGE =
  'This tenant has no contact e-mail: add one first (bookings made with the key are confirmed to it)';

export const apiKeyCreateSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(80, 'Name must be at most 80 characters')
    .refine(...singleLine('Name')),
  tenantId: z.string({ error: 'Choose a tenant' }).min(1, 'Choose a tenant').max(100, 'Choose a tenant'),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: `Scopes must be among: ${API_KEY_SCOPES.join(', ')}` }), { error: 'Choose at least one scope' })
    .min(1, 'Choose at least one scope')
    .transform((scopes) => API_KEY_SCOPES.filter((scope) => scopes.includes(scope))),
  /** ISO instant; null or absent: the key does not expire. */
  expiresAt: z
    .string({ error: 'Expiry must be a date and time' })
    .datetime({ offset: true, error: 'Expiry must be a date and time' })
    .nullish()
    .transform((value) => value ?? null),
  rateLimitPerMinute: z
    .number({ error: 'Rate limit must be a number of requests per minute' })
    .int('Rate limit must be a whole number of requests per minute')
    .min(1, 'Rate limit must be at least 1 request per minute')
    .max(MAX_API_KEY_RATE_LIMIT, `Rate limit must be at most ${MAX_API_KEY_RATE_LIMIT} requests per minute`)
    .optional()
    .transform((value) => value ?? DEFAULT_API_KEY_RATE_LIMIT),
});
export type ApiKeyCreateInput = z.input<typeof apiKeyCreateSchema>;
export type ApiKeyCreate = z.output<typeof apiKeyCreateSchema>;

export const API_KEY_STATUSES = ['active', 'expired', 'revoked'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  tenantId: z.string(),
  tenantName: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  /** The secret's last four characters. */
  hint: z.string(),
  rateLimitPerMinute: z.number(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  createdByEmail: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  status: z.enum(API_KEY_STATUSES),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListQuerySchema = z.object({
  page: z.coerce.number({ error: 'Page must be a number' }).int('Page must be a whole number').min(1, 'Page must be at least 1').max(10_000).default(1),
});

export const apiKeyListSchema = z.object({
  keys: z.array(apiKeySchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

/** The answer to creating a key: the only time its secret is shown. */
export const createdApiKeySchema = apiKeySchema.extend({ secret: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** A key's status at `now`: revoked wins over expired. */
export function apiKeyStatus(key: { revokedAt: Date | string | null; expiresAt: Date | string | null }, now: Date): ApiKeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && new Date(key.expiresAt).getTime() <= now.getTime()) return 'expired';
  return 'active';
}
