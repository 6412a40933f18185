import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  WEBHOOK_ADMIN_ONLY,
  WEBHOOK_DISABLED_NO_TEST,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMIT_REACHED,
  WEBHOOK_LIMITS,
  WEBHOOK_PING_EVENT,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type webhookEndpointInputSchema,
  type WebhookEndpointList,
  type webhookEndpointPatchSchema,
  type WebhookEndpointStatus,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
} from '../../../domain/webhooks';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { AppError, conflict, forbidden, notFound } from '../../plugins/errors';
import type { OrgScope } from '../../plugins/org-scope';
import { writeAudit } from '../../audit/write-audit';
import { getPlatformConfig } from '../../platform-config';
import { encryptSecret } from '../../delivery/secret-box';
import { newSigningSecret } from '../../delivery/signature';
import { checkTargetUrl } from '../../delivery/url-guard';
import { deliveryPage, findDelivery, queueRedelivery, toDelivery } from '../../delivery/delivery-log';
import { enqueueDeliveries, kickWebhookDeliveries } from '../../delivery/webhook-delivery';
import { eventEnvelope } from '../../delivery/event-envelope';

// Integrations → Webhooks: an organization's endpoints (org admins only, read and write), their
// delivery log, a test delivery and manual redelivery. Every write is audited in its transaction.

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type Field = { path: string; message: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function requireWebhookAdmin(scope: OrgScope): void {
  if (scope.actor !== 'org_admin') throw forbidden(WEBHOOK_ADMIN_ONLY);
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toEndpoint(row: EndpointRow, last?: { status: string; at: Date }): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events.filter((e): e is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(e)),
    status: row.status as WebhookEndpointStatus,
    disabledReason: row.disabledReason,
    disabledAt: iso(row.disabledAt),
    consecutiveFailures: row.consecutiveFailures,
    secretHint: row.secretHint,
    lastDeliveryAt: last ? last.at.toISOString() : null,
    lastDeliveryStatus: last?.status ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Refuses an unsafe target (SSRF) with the field's message; private networks only when the platform allows them. */
async function requireSafeUrl(ctx: AppContext, url: string): Promise<void> {
  const config = await getPlatformConfig(ctx.database.db);
  const check = await checkTargetUrl(url, { allowPrivate: config.allowPrivateWebhookTargets });
  if (!check.ok) throw new AppError(422, 'unsafe_url', check.message, [{ path: 'url', message: check.message } satisfies Field]);
}

async function findEndpoint(tx: Tx | AppContext['database']['db'], scope: OrgScope, id: string, forUpdate = false): Promise<EndpointRow> {
  if (!UUID.test(id)) throw notFound('Webhook endpoint');
  const query = tx.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.orgId, scope.orgId)));
  const [row] = await (forUpdate ? query.for('update') : query);
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

async function lastDeliveries(ctx: AppContext, orgId: string): Promise<Map<string, { status: string; at: Date }>> {
  const rows = await ctx.database.query<{ endpoint_id: string; status: string; created_at: Date | string }>(
    `select distinct on (endpoint_id) endpoint_id, status, created_at from webhook_deliveries
      where org_id = $1 and endpoint_id is not null order by endpoint_id, created_at desc`,
    [orgId],
  );
  return new Map(rows.map((r) => [r.endpoint_id, { status: r.status, at: new Date(r.created_at) }]));
}

export async function listEndpoints(ctx: AppContext, scope: OrgScope): Promise<WebhookEndpointList> {
  requireWebhookAdmin(scope);
  const rows = await ctx.database.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.orgId, scope.orgId))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
  const last = await lastDeliveries(ctx, scope.orgId);
  return { items: rows.map((r) => toEndpoint(r, last.get(r.id))), eventTypes: [...WEBHOOK_EVENT_TYPES], limit: WEBHOOK_LIMITS.endpointsPerOrg };
}

export async function getEndpoint(ctx: AppContext, scope: OrgScope, id: string): Promise<WebhookEndpoint> {
  requireWebhookAdmin(scope);
  const row = await findEndpoint(ctx.database.db, scope, id);
  return toEndpoint(row, (await lastDeliveries(ctx, scope.orgId)).get(row.id));
}

export async function createEndpoint(
  ctx: AppContext,
  scope: OrgScope,
  input: z.output<typeof webhookEndpointInputSchema>,
  ip: string | null,
): Promise<WebhookEndpointWithSecret> {
  requireWebhookAdmin(scope);
  await requireSafeUrl(ctx, input.url);
  const secret = newSigningSecret();
  const secretEnc = await encryptSecret(ctx, secret);
  const now = ctx.clock.now();
  const row = await ctx.database.db.transaction(async (tx) => {
    // Serializes creations per organization so the limit holds under concurrent requests.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`webhooks:${scope.orgId}`}, 0))`);
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.orgId, scope.orgId));
    if (n >= WEBHOOK_LIMITS.endpointsPerOrg) throw conflict('webhook_limit', WEBHOOK_LIMIT_REACHED);
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({
        orgId: scope.orgId,
        url: input.url,
        description: input.description,
        events: input.events,
        secretEnc,
        secretHint: secret.slice(-4),
        createdBy: scope.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'webhook.created',
      resourceType: 'webhook_endpoint',
      resourceId: created!.id,
      orgId: scope.orgId,
      details: { url: input.url, events: input.events, description: input.description },
      ip,
    });
    return created!;
  });
  return { endpoint: toEndpoint(row), secret };
}

export async function updateEndpoint(
  ctx: AppContext,
  scope: OrgScope,
  id: string,
  patch: z.output<typeof webhookEndpointPatchSchema>,
  ip: string | null,
): Promise<WebhookEndpoint> {
  requireWebhookAdmin(scope);
  if (patch.url !== undefined) await requireSafeUrl(ctx, patch.url);
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    const before = await findEndpoint(tx, scope, id, true);
    const set: Partial<typeof webhookEndpoints.$inferInsert> = {};
    const changes: Record<string, { before: unknown; after: unknown }> = {};
    const note = (key: string, from: unknown, to: unknown) => {
      if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { before: from, after: to };
    };
    if (patch.url !== undefined) {
      set.url = patch.url;
      note('url', before.url, patch.url);
    }
    if (patch.description !== undefined) {
      set.description = patch.description;
      note('description', before.description, patch.description);
    }
    if (patch.events !== undefined) {
      set.events = patch.events;
      note('events', before.events, patch.events);
    }
    if (patch.enabled !== undefined) {
      const status = patch.enabled ? 'active' : 'disabled';
      note('status', before.status, status);
      if (status !== before.status) {
        set.status = status;
        set.consecutiveFailures = 0;
        set.disabledAt = patch.enabled ? null : now;
        set.disabledReason = patch.enabled ? null : `Disabled by ${scope.auditActor?.email ?? 'an admin'}`;
      }
    }
    if (Object.keys(changes).length === 0) return;
    await tx
      .update(webhookEndpoints)
      .set({ ...set, updatedAt: now })
      .where(and(eq(webhookEndpoints.orgId, scope.orgId), eq(webhookEndpoints.id, before.id)));
    const action = changes.status ? (patch.enabled ? 'webhook.enabled' : 'webhook.disabled') : 'webhook.updated';
    await writeAudit(tx, {
      actor: scope.auditActor,
      action,
      resourceType: 'webhook_endpoint',
      resourceId: before.id,
      orgId: scope.orgId,
      details: { url: set.url ?? before.url, fields: Object.keys(changes), changes },
      ip,
    });
  });
  // Re-enabled: what waited while it was off goes now.
  if (patch.enabled) kickWebhookDeliveries(ctx);
  return getEndpoint(ctx, scope, id);
}

export async function deleteEndpoint(ctx: AppContext, scope: OrgScope, id: string, ip: string | null): Promise<void> {
  requireWebhookAdmin(scope);
  await ctx.database.db.transaction(async (tx) => {
    const row = await findEndpoint(tx, scope, id, true);
    // Its deliveries go with it (ON DELETE CASCADE): the log is the endpoint's.
    await tx.delete(webhookEndpoints).where(and(eq(webhookEndpoints.orgId, scope.orgId), eq(webhookEndpoints.id, row.id)));
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'webhook.deleted',
      resourceType: 'webhook_endpoint',
      resourceId: row.id,
      orgId: scope.orgId,
      details: { url: row.url, events: row.events },
      ip,
    });
  });
}

export async function rotateSecret(ctx: AppContext, scope: OrgScope, id: string, ip: string | null): Promise<WebhookEndpointWithSecret> {
  requireWebhookAdmin(scope);
  const secret = newSigningSecret();
  const secretEnc = await encryptSecret(ctx, secret);
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    const row = await findEndpoint(tx, scope, id, true);
    await tx
      .update(webhookEndpoints)
      .set({ secretEnc, secretHint: secret.slice(-4), updatedAt: now })
      .where(and(eq(webhookEndpoints.orgId, scope.orgId), eq(webhookEndpoints.id, row.id)));
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'webhook.secret_rotated',
      resourceType: 'webhook_endpoint',
      resourceId: row.id,
      orgId: scope.orgId,
      details: { url: row.url },
      ip,
    });
  });
  return { endpoint: await getEndpoint(ctx, scope, id), secret };
}

/** Queues a `webhook.ping` to the endpoint (delivered by the job runner like any event). */
export async function sendTest(ctx: AppContext, scope: OrgScope, id: string, ip: string | null): Promise<WebhookDelivery> {
  requireWebhookAdmin(scope);
  const now = ctx.clock.now();
  const deliveryId = await ctx.database.db.transaction(async (tx) => {
    const row = await findEndpoint(tx, scope, id, true);
    if (row.status !== 'active') throw conflict('webhook_disabled', WEBHOOK_DISABLED_NO_TEST);
    const eventId = randomUUID();
    const [queued] = await enqueueDeliveries(tx, now, [
      {
        orgId: scope.orgId,
        endpointId: row.id,
        eventType: WEBHOOK_PING_EVENT,
        eventId,
        url: row.url,
        body: eventEnvelope(eventId, WEBHOOK_PING_EVENT, scope.orgId, now, { message: 'A test delivery from Baywise', endpointId: row.id }),
      },
    ]);
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'webhook.test_sent',
      resourceType: 'webhook_endpoint',
      resourceId: row.id,
      orgId: scope.orgId,
      details: { url: row.url, delivery_id: queued },
      ip,
    });
    return queued!;
  });
  kickWebhookDeliveries(ctx);
  return getDelivery(ctx, scope, id, deliveryId);
}

export async function listDeliveries(ctx: AppContext, scope: OrgScope, id: string, page: number): Promise<WebhookDeliveryList> {
  requireWebhookAdmin(scope);
  const endpoint = await findEndpoint(ctx.database.db, scope, id);
  const { rows, ...rest } = await deliveryPage(ctx, scope.orgId, eq(webhookDeliveries.endpointId, endpoint.id), page);
  return { items: rows.map(toDelivery), ...rest };
}

async function getDelivery(ctx: AppContext, scope: OrgScope, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  return toDelivery(await findDelivery(ctx.database.db, scope.orgId, eq(webhookDeliveries.endpointId, endpointId), deliveryId));
}

/** Sends an event again: a new delivery with the same event id and body (the receiver can tell it is the same event). */
export async function redeliver(ctx: AppContext, scope: OrgScope, id: string, deliveryId: string, ip: string | null): Promise<WebhookDelivery> {
  requireWebhookAdmin(scope);
  const now = ctx.clock.now();
  const newId = await ctx.database.db.transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, scope, id, true);
    const original = await findDelivery(tx, scope.orgId, eq(webhookDeliveries.endpointId, endpoint.id), deliveryId);
    if (endpoint.status !== 'active') throw conflict('webhook_disabled', 'This endpoint is disabled: enable it before redelivering');
    const queued = await queueRedelivery(tx, now, original, { endpointId: endpoint.id, url: endpoint.url });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'webhook.redelivered',
      resourceType: 'webhook_endpoint',
      resourceId: endpoint.id,
      orgId: scope.orgId,
      details: { url: endpoint.url, event_type: original.eventType, event_id: original.eventId, delivery_id: original.id, new_delivery_id: queued },
      ip,
    });
    return queued;
  });
  kickWebhookDeliveries(ctx);
  return getDelivery(ctx, scope, id, newId);
}
