import { SSC_WEBHOOK_EVENT_TYPES, argumentProblems, sscSubscribeRequestSchema, sscUpdateSubscriptionRequestSchema, type SscWebhookEventType } from '../../../domain/ssc';
import { isSingleLineText } from '../../../domain/text-rules';
import type { AppContext } from '../../context';
import type { ApiKeyPrincipal } from '../api-keys/api-keys.service';
import { requireScope } from '../api-keys/api-keys.service';
import { writeAudit } from '../../audit/write-audit';
import { getPlatformConfig } from '../../platform-config';
import { encryptSecret } from '../../delivery/secret-box';
import { newSigningSecret } from '../../delivery/signature';
import { checkTargetUrl } from '../../delivery/url-guard';
import { entityNotFound, schemaViolation, subscriptionRefused } from './ssc-errors';
import * as repo from './ssc.repo';

// SSC webhook subscriptions (REST collection): a tenant's callback URLs and the events they want.
// Stored here; `appointment-changed` events are queued by ssc-events.ts and delivered by the
// outbound webhook engine, signed with the subscription's own secret: generated at creation,
// stored encrypted and answered once, in the `Baywise-Signing-Secret` header of the 201 (the
// standard's subscription entity has no field for it). Callback URLs pass the same SSRF guard as
// every URL we post to (webhooks/url-guard.ts, the platform's private-targets setting).
// Another tenant's subscription answers 404, as an unknown one.

/** The response header that carries a new subscription's signing secret (only on creation). */
export const SIGNING_SECRET_HEADER = 'baywise-signing-secret';
const CALLBACK_URL_MAX = 2000;


export const MAX_SUBSCRIPTIONS_PER_TENANT = 20;

type Subscription = { subscriptionId: string; eventTypes: SscWebhookEventType[]; callbackUrl?: string };

function toSubscription(row: { id: string; eventTypes: string[]; callbackUrl: string | null }): Subscription {
  return {
    subscriptionId: row.id,
    eventTypes: row.eventTypes.filter((t): t is SscWebhookEventType => (SSC_WEBHOOK_EVENT_TYPES as readonly string[]).includes(t)),
    ...(row.callbackUrl ? { callbackUrl: row.callbackUrl } : {}),
  };
}

const scopeOf = (principal: ApiKeyPrincipal) => ({ orgId: principal.orgId, tenantId: principal.tenantId });
const notFound = (id: string) => entityNotFound(`No subscription ${id}`);

async function checkCallback(ctx: AppContext, url: string | undefined) {
  if (url === undefined) return;
  const refuse = (detail: string) => subscriptionRefused(422, 'The callback URL cannot be used', [{ key: 'callbackUrl', detail }]);
  if (!isSingleLineText(url)) throw refuse('callbackUrl contains characters that are not allowed');
  if (url.length > CALLBACK_URL_MAX) throw refuse(`callbackUrl must be at most ${CALLBACK_URL_MAX} characters`);
  const config = await getPlatformConfig(ctx.database.db);
  const check = await checkTargetUrl(url, { allowPrivate: config.allowPrivateWebhookTargets });
  if (!check.ok) throw refuse(check.message);
}

async function audit(ctx: AppContext, principal: ApiKeyPrincipal, action: string, id: string, details: Record<string, unknown>, ip: string | null) {
  await writeAudit(ctx.database.db, {
    actor: principal.auditActor,
    action,
    resourceType: 'ssc_subscription',
    resourceId: id,
    orgId: principal.orgId,
    details: { source: 'ssc', api_key_id: principal.keyId, api_key_name: principal.keyName, ...details },
    ip,
  });
}

export async function listSubscriptions(ctx: AppContext, principal: ApiKeyPrincipal, ip: string | null) {
  requireScope(principal, 'webhooks');
  const rows = await repo.listSubscriptions(ctx.database.db, scopeOf(principal));
  await audit(ctx, principal, 'ssc.subscriptions_listed', principal.keyId, { count: rows.length }, ip);
  return { subscriptions: rows.map(toSubscription) };
}

export async function getSubscription(ctx: AppContext, principal: ApiKeyPrincipal, id: string, ip: string | null) {
  requireScope(principal, 'webhooks');
  const row = await repo.findSubscription(ctx.database.db, scopeOf(principal), id);
  if (!row) throw notFound(id);
  await audit(ctx, principal, 'ssc.subscription_viewed', row.id, {}, ip);
  return toSubscription(row);
}

export async function createSubscription(ctx: AppContext, principal: ApiKeyPrincipal, body: unknown, ip: string | null) {
  requireScope(principal, 'webhooks');
  const parsed = sscSubscribeRequestSchema.safeParse(body ?? undefined);
  if (!parsed.success) throw schemaViolation(argumentProblems(parsed.error, body));
  const input = parsed.data;
  await checkCallback(ctx, input.callbackUrl);
  const now = ctx.clock.now();
  // Sealed before the transaction (the key may be read from the database the first time).
  const signingSecret = newSigningSecret();
  const signingSecretEnc = await encryptSecret(ctx, signingSecret);
  const row = await ctx.database.db.transaction(async (tx) => {
    if ((await repo.countSubscriptions(tx, scopeOf(principal))) >= MAX_SUBSCRIPTIONS_PER_TENANT) {
      throw subscriptionRefused(422, 'Too many subscriptions', [{ key: 'eventTypes', detail: `A tenant can have at most ${MAX_SUBSCRIPTIONS_PER_TENANT} subscriptions: delete one first` }]);
    }
    const created = await repo.insertSubscription(tx, {
      orgId: principal.orgId,
      tenantId: principal.tenantId,
      apiKeyId: principal.keyId,
      eventTypes: [...new Set(input.eventTypes)],
      callbackUrl: input.callbackUrl ?? null,
      signingSecretEnc,
      createdAt: now,
      updatedAt: now,
    });
    await writeAudit(tx, {
      actor: principal.auditActor,
      action: 'ssc.subscription_created',
      resourceType: 'ssc_subscription',
      resourceId: created.id,
      orgId: principal.orgId,
      details: { source: 'ssc', api_key_id: principal.keyId, api_key_name: principal.keyName, before: null, after: { eventTypes: created.eventTypes, callbackUrl: created.callbackUrl } },
      ip,
    });
    return created;
  });
  return { subscription: toSubscription(row), signingSecret };
}

export async function updateSubscription(ctx: AppContext, principal: ApiKeyPrincipal, id: string, body: unknown, ip: string | null) {
  requireScope(principal, 'webhooks');
  const parsed = sscUpdateSubscriptionRequestSchema.safeParse(body ?? undefined);
  if (!parsed.success) throw schemaViolation(argumentProblems(parsed.error, body));
  const input = parsed.data;
  if (input.subscriptionId !== undefined && input.subscriptionId !== id) {
    throw subscriptionRefused(400, 'The subscription id does not match the URL', [{ key: 'subscriptionId', detail: 'subscriptionId must be the id in the URL' }]);
  }
  await checkCallback(ctx, input.callbackUrl);
  const now = ctx.clock.now();
  const row = await ctx.database.db.transaction(async (tx) => {
    const before = await repo.findSubscription(tx, scopeOf(principal), id);
    if (!before) throw notFound(id);
    const after = (await repo.updateSubscription(tx, scopeOf(principal), id, {
      ...(input.eventTypes ? { eventTypes: [...new Set(input.eventTypes)] } : {}),
      ...(input.callbackUrl !== undefined ? { callbackUrl: input.callbackUrl } : {}),
      updatedAt: now,
    }))!;
    await writeAudit(tx, {
      actor: principal.auditActor,
      action: 'ssc.subscription_updated',
      resourceType: 'ssc_subscription',
      resourceId: id,
      orgId: principal.orgId,
      details: {
        source: 'ssc',
        api_key_id: principal.keyId,
        api_key_name: principal.keyName,
        before: { eventTypes: before.eventTypes, callbackUrl: before.callbackUrl },
        after: { eventTypes: after.eventTypes, callbackUrl: after.callbackUrl },
      },
      ip,
    });
    return after;
  });
  return toSubscription(row);
}

export async function deleteSubscription(ctx: AppContext, principal: ApiKeyPrincipal, id: string, ip: string | null) {
  requireScope(principal, 'webhooks');
  await ctx.database.db.transaction(async (tx) => {
    const row = await repo.deleteSubscription(tx, scopeOf(principal), id);
    if (!row) throw notFound(id);
    await writeAudit(tx, {
      actor: principal.auditActor,
      action: 'ssc.subscription_deleted',
      resourceType: 'ssc_subscription',
      resourceId: id,
      orgId: principal.orgId,
      details: { source: 'ssc', api_key_id: principal.keyId, api_key_name: principal.keyName, before: { eventTypes: row.eventTypes, callbackUrl: row.callbackUrl }, after: null },
      ip,
    });
  });
}
