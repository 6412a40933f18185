import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { WEBHOOK_DELIVERY_PAGE_SIZE, type WebhookDelivery, type WebhookDeliveryStatus } from '../../domain/webhooks';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { webhookDeliveries } from '../db/schema';
import { badRequest, notFound } from '../plugins/errors';
import { enqueueDeliveries, type QueuedDelivery } from './webhook-delivery';

// The logs of webhook_deliveries, one model for all of them: an endpoint's (webhooks.service.ts),
// the TSR link's and a carrier's SSC subscription's. A page of rows latest first, one delivery of
// the organization, and redelivery — a new delivery of the same event pointing back at the first.

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    eventType: row.eventType,
    eventId: row.eventId,
    status: row.status as WebhookDeliveryStatus,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    lastStatusCode: row.lastStatusCode,
    lastDurationMs: row.lastDurationMs,
    lastError: row.lastError,
    lastAttemptAt: iso(row.lastAttemptAt),
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    deliveredAt: iso(row.deliveredAt),
    redeliveryOf: row.redeliveryOf,
    createdAt: row.createdAt.toISOString(),
  };
}

/** One page of an organization's deliveries matching `of` (an endpoint, a connection, a subscription), latest first. */
export async function deliveryPage(
  ctx: AppContext,
  orgId: string,
  of: SQL,
  page: number,
): Promise<{ rows: DeliveryRow[]; page: number; pageSize: number; total: number }> {
  const where = and(eq(webhookDeliveries.orgId, orgId), of);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    ctx.database.db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(WEBHOOK_DELIVERY_PAGE_SIZE)
      .offset((page - 1) * WEBHOOK_DELIVERY_PAGE_SIZE),
    ctx.database.db.select({ total: count() }).from(webhookDeliveries).where(where),
  ]);
  return { rows, page, pageSize: WEBHOOK_DELIVERY_PAGE_SIZE, total };
}

/** The organization's delivery `deliveryId` among those matching `of`, or 404. */
export async function findDelivery(tx: Tx | AppContext['database']['db'], orgId: string, of: SQL, deliveryId: string): Promise<DeliveryRow> {
  if (!UUID.test(deliveryId)) throw notFound('Delivery');
  const [row] = await tx.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.orgId, orgId), of));
  if (!row) throw notFound('Delivery');
  return row;
}

/**
 * Redelivery (the one model for every log): a new delivery of the same event — same event id, body,
 * headers and signing — to `target`, pointing back at the original. Refused while the original is
 * still being attempted. The caller checks its target first and audits in the same transaction.
 */
export async function queueRedelivery(
  tx: Tx,
  now: Date,
  original: DeliveryRow,
  target: Pick<QueuedDelivery, 'url' | 'endpointId' | 'connectionId' | 'subscriptionId'>,
): Promise<string> {
  if (original.status === 'pending') throw badRequest('This delivery is still being attempted: wait for its outcome before sending it again');
  const [queued] = await enqueueDeliveries(tx, now, [
    {
      orgId: original.orgId,
      kind: original.kind as QueuedDelivery['kind'],
      eventType: original.eventType,
      eventId: original.eventId,
      headers: original.headers,
      body: original.body,
      signingSecretEnc: original.signingSecretEnc,
      bookingId: original.bookingId,
      redeliveryOf: original.id,
      ...target,
    },
  ]);
  return queued!;
}
