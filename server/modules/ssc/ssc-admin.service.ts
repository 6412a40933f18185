import { and, asc, eq, sql } from 'drizzle-orm';
import {
  WEBHOOK_ADMIN_ONLY,
  WEBHOOK_DELIVERY_STATUSES,
  type SscSubscriptionSummary,
  type SscSubscriptionSummaryList,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookDeliveryStatus,
} from '../../../domain/webhooks';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { apiKeys, sscWebhookSubscriptions, tenants, webhookDeliveries } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../plugins/errors';
import type { OrgScope } from '../../plugins/org-scope';
import { writeAudit } from '../../audit/write-audit';
import { deliveryPage, findDelivery, queueRedelivery, toDelivery } from '../../delivery/delivery-log';
import { kickWebhookDeliveries } from '../../delivery/webhook-delivery';

// Settings › Integrations › Carrier subscriptions: the SSC webhook subscriptions carriers created
// through the SSC API (/api/ssc/webhooks/v1/subscriptions) for the organization's tenants, as the
// org admin sees them — with the log of what was posted to each callback (kind 'ssc' rows of the
// webhook outbox) — and their removal, audited as the admin. Another organization's is a 404.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function requireAdmin(scope: OrgScope): void {
  if (scope.actor !== 'org_admin') throw forbidden(WEBHOOK_ADMIN_ONLY);
}

const summaryColumns = {
  id: sscWebhookSubscriptions.id,
  tenantId: tenants.id,
  tenantName: tenants.name,
  apiKeyId: apiKeys.id,
  apiKeyName: apiKeys.name,
  apiKeyRevokedAt: apiKeys.revokedAt,
  eventTypes: sscWebhookSubscriptions.eventTypes,
  callbackUrl: sscWebhookSubscriptions.callbackUrl,
  createdAt: sscWebhookSubscriptions.createdAt,
};

function summaries(db: Tx | AppContext['database']['db']) {
  return db
    .select(summaryColumns)
    .from(sscWebhookSubscriptions)
    .innerJoin(tenants, eq(tenants.id, sscWebhookSubscriptions.tenantId))
    .leftJoin(apiKeys, eq(apiKeys.id, sscWebhookSubscriptions.apiKeyId));
}

type SummaryRow = Awaited<ReturnType<typeof summaries>>[number];

function toSummary(row: SummaryRow, last?: { status: string; at: Date }): SscSubscriptionSummary {
  return {
    id: row.id,
    tenant: { id: row.tenantId, name: row.tenantName },
    apiKey: row.apiKeyId && row.apiKeyName !== null ? { id: row.apiKeyId, name: row.apiKeyName, isRevoked: row.apiKeyRevokedAt !== null } : null,
    eventTypes: row.eventTypes,
    callbackUrl: row.callbackUrl,
    lastDeliveryAt: last ? last.at.toISOString() : null,
    lastDeliveryStatus: last && (WEBHOOK_DELIVERY_STATUSES as readonly string[]).includes(last.status) ? (last.status as WebhookDeliveryStatus) : null,
    createdAt: row.createdAt.toISOString(),
  };
}

async function findSubscription(db: Tx | AppContext['database']['db'], scope: OrgScope, id: string): Promise<SummaryRow> {
  if (!UUID.test(id)) throw notFound('Subscription');
  const [row] = await summaries(db).where(and(eq(sscWebhookSubscriptions.orgId, scope.orgId), eq(sscWebhookSubscriptions.id, id)));
  if (!row) throw notFound('Subscription');
  return row;
}

/** The latest delivery of each of the organization's subscriptions (index on subscription_id, created_at). */
async function lastDeliveries(ctx: AppContext, orgId: string): Promise<Map<string, { status: string; at: Date }>> {
  const rows = await ctx.database.query<{ subscription_id: string; status: string; created_at: Date | string }>(
    `select distinct on (subscription_id) subscription_id, status, created_at from webhook_deliveries
      where org_id = $1 and subscription_id is not null order by subscription_id, created_at desc`,
    [orgId],
  );
  return new Map(rows.map((r) => [r.subscription_id, { status: r.status, at: new Date(r.created_at) }]));
}

export async function listSubscriptions(ctx: AppContext, scope: OrgScope): Promise<SscSubscriptionSummaryList> {
  requireAdmin(scope);
  const [rows, last] = await Promise.all([
    summaries(ctx.database.db)
      .where(eq(sscWebhookSubscriptions.orgId, scope.orgId))
      .orderBy(sql`lower(${tenants.name})`, asc(sscWebhookSubscriptions.createdAt), asc(sscWebhookSubscriptions.id)),
    lastDeliveries(ctx, scope.orgId),
  ]);
  return { items: rows.map((r) => toSummary(r, last.get(r.id))) };
}

/** What was posted to the subscription's callback URL, latest first. */
export async function listDeliveries(ctx: AppContext, scope: OrgScope, id: string, page: number): Promise<WebhookDeliveryList> {
  requireAdmin(scope);
  const subscription = await findSubscription(ctx.database.db, scope, id);
  const { rows, ...rest } = await deliveryPage(ctx, scope.orgId, eq(webhookDeliveries.subscriptionId, subscription.id), page);
  return { items: rows.map(toDelivery), ...rest };
}

/**
 * Posts a delivered or failed event again (webhooks' redelivery model: a new delivery of the same
 * event and body, signed with the subscription's secret), to the subscription's callback URL now.
 */
export async function redeliver(ctx: AppContext, scope: OrgScope, id: string, deliveryId: string, ip: string | null): Promise<WebhookDelivery> {
  requireAdmin(scope);
  const now = ctx.clock.now();
  const queued = await ctx.database.db.transaction(async (tx) => {
    const subscription = await findSubscription(tx, scope, id);
    const original = await findDelivery(tx, scope.orgId, eq(webhookDeliveries.subscriptionId, subscription.id), deliveryId);
    if (!subscription.callbackUrl) throw conflict('ssc_no_callback', 'This subscription has no callback URL any more: the carrier must set one first');
    const newId = await queueRedelivery(tx, now, original, { subscriptionId: subscription.id, url: subscription.callbackUrl });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'ssc.subscription_redelivered',
      resourceType: 'ssc_subscription',
      resourceId: subscription.id,
      orgId: scope.orgId,
      details: { source: 'integrations', event_type: original.eventType, delivery_id: original.id, new_delivery_id: newId, tenant_name: subscription.tenantName },
      ip,
    });
    return newId;
  });
  kickWebhookDeliveries(ctx);
  const [row] = await ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, queued));
  return toDelivery(row!);
}

/** Removes a carrier's subscription (its log and queued deliveries go with it: ON DELETE CASCADE). */
export async function deleteSubscription(ctx: AppContext, scope: OrgScope, id: string, ip: string | null): Promise<void> {
  requireAdmin(scope);
  await ctx.database.db.transaction(async (tx) => {
    const row = await findSubscription(tx, scope, id);
    await tx.delete(sscWebhookSubscriptions).where(and(eq(sscWebhookSubscriptions.orgId, scope.orgId), eq(sscWebhookSubscriptions.id, row.id)));
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'ssc.subscription_deleted',
      resourceType: 'ssc_subscription',
      resourceId: row.id,
      orgId: scope.orgId,
      details: {
        source: 'integrations',
        tenant_id: row.tenantId,
        tenant_name: row.tenantName,
        api_key_id: row.apiKeyId,
        api_key_name: row.apiKeyName,
        before: { eventTypes: row.eventTypes, callbackUrl: row.callbackUrl },
        after: null,
      },
      ip,
    });
  });
}
