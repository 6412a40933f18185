import { and, eq, inArray } from 'drizzle-orm';
import { BOOKING_STATUS_LABELS } from '../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../domain/enums';
import {
  TSR_CONNECTION_MOVED,
  WEBHOOK_ADMIN_ONLY,
  type TsrConnection,
  type TsrConnectionInput,
  type TsrDelivery,
  type TsrDeliveryList,
  type TsrLinkSystem,
  tsrConnectionInputSchema,
} from '../../../domain/webhooks';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { bookings, tsrConnections, webhookDeliveries } from '../../db/schema';
import { AppError, conflict, forbidden, notFound } from '../../plugins/errors';
import type { OrgScope } from '../../plugins/org-scope';
import { writeAudit } from '../../audit/write-audit';
import type { BookingView } from '../bookings/booking-records';
import type { BookingChangeListener } from '../bookings/booking-webhooks';
import { getPlatformConfig } from '../../platform-config';
import { decryptSecret, encryptSecret } from '../../delivery/secret-box';
import { checkTargetUrl } from '../../delivery/url-guard';
import { enqueueDeliveries, kickWebhookDeliveries } from '../../delivery/webhook-delivery';
import { deliveryPage, findDelivery, queueRedelivery, toDelivery, type DeliveryRow } from '../../delivery/delivery-log';
import { tsrNoteRequest, type TsrCredentials } from '../../delivery/tsr-adapters';

// TSR link: an organization's ServiceNow or FMClarity connection (base URL and credentials, the
// credentials encrypted), and the work note queued — in the transaction of a booking's status
// change — for a booking that carries a TSR URL of that system. Delivered by the webhook engine
// (kind 'tsr'), with its retries.

type ConnectionInput = z.output<typeof tsrConnectionInputSchema>;

function requireAdmin(scope: OrgScope): void {
  if (scope.actor !== 'org_admin') throw forbidden(WEBHOOK_ADMIN_ONLY);
}

function toDto(row: typeof tsrConnections.$inferSelect, credentials: TsrCredentials): TsrConnection {
  return {
    system: row.system as TsrLinkSystem,
    baseUrl: row.baseUrl,
    username: row.system === 'servicenow' ? (credentials.username ?? null) : null,
    enabled: row.enabled,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listConnections(ctx: AppContext, scope: OrgScope): Promise<{ items: TsrConnection[] }> {
  requireAdmin(scope);
  const rows = await ctx.database.db.select().from(tsrConnections).where(eq(tsrConnections.orgId, scope.orgId)).orderBy(tsrConnections.system);
  return { items: await Promise.all(rows.map(async (r) => toDto(r, JSON.parse(await decryptSecret(ctx, r.credentialsEnc)) as TsrCredentials))) };
}

/** Creates or replaces the organization's connection to one system (the base URL passes the SSRF guard). */
export async function saveConnection(ctx: AppContext, scope: OrgScope, input: ConnectionInput, ip: string | null): Promise<TsrConnection> {
  requireAdmin(scope);
  const config = await getPlatformConfig(ctx.database.db);
  const check = await checkTargetUrl(input.baseUrl, { allowPrivate: config.allowPrivateWebhookTargets });
  if (!check.ok) throw new AppError(422, 'unsafe_url', check.message, [{ path: 'baseUrl', message: check.message }]);
  const credentials: TsrCredentials = input.system === 'servicenow' ? { username: input.username, password: input.password } : { apiKey: input.apiKey };
  const credentialsEnc = await encryptSecret(ctx, JSON.stringify(credentials));
  const now = ctx.clock.now();
  const row = await ctx.database.db.transaction(async (tx) => {
    const [saved] = await tx
      .insert(tsrConnections)
      .values({ orgId: scope.orgId, system: input.system, baseUrl: input.baseUrl, credentialsEnc, enabled: input.enabled, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: [tsrConnections.orgId, tsrConnections.system], set: { baseUrl: input.baseUrl, credentialsEnc, enabled: input.enabled, updatedAt: now } })
      .returning();
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'tsr_connection.saved',
      resourceType: 'tsr_connection',
      resourceId: saved!.id,
      orgId: scope.orgId,
      // Never the credentials: which system, where, whether on.
      details: { system: input.system, base_url: input.baseUrl, enabled: input.enabled, username: credentials.username ?? null },
      ip,
    });
    return saved!;
  });
  return toDto(row, credentials);
}

export async function deleteConnection(ctx: AppContext, scope: OrgScope, system: string, ip: string | null): Promise<void> {
  requireAdmin(scope);
  await ctx.database.db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(tsrConnections)
      .where(and(eq(tsrConnections.orgId, scope.orgId), eq(tsrConnections.system, system)))
      .returning();
    if (!removed) throw notFound('TSR connection');
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'tsr_connection.deleted',
      resourceType: 'tsr_connection',
      resourceId: removed.id,
      orgId: scope.orgId,
      details: { system, base_url: removed.baseUrl },
      ip,
    });
  });
}

async function findConnection(db: Tx | AppContext['database']['db'], scope: OrgScope, system: string, forUpdate = false) {
  const query = db.select().from(tsrConnections).where(and(eq(tsrConnections.orgId, scope.orgId), eq(tsrConnections.system, system)));
  const [row] = await (forUpdate ? query.for('update') : query);
  if (!row) throw notFound('TSR connection');
  return row;
}

/** Deliveries with the booking each reports (looked up in the organization: another's id finds nothing). */
async function withBookings(ctx: AppContext, orgId: string, rows: DeliveryRow[]): Promise<TsrDelivery[]> {
  const bookingOf = (row: DeliveryRow) => row.bookingId;
  const ids = [...new Set(rows.map(bookingOf).filter((id): id is string => id !== null))];
  const found =
    ids.length === 0
      ? []
      : await ctx.database.db
          .select({ id: bookings.id, tsrNumber: bookings.tsrNumber })
          .from(bookings)
          .where(and(eq(bookings.orgId, orgId), inArray(bookings.id, ids)));
  const byId = new Map(found.map((b) => [b.id, b]));
  return rows.map((row) => ({ ...toDelivery(row), booking: byId.get(bookingOf(row) ?? '') ?? null }));
}

/** The connection's log: the work notes posted (or being posted) to the TSR system, latest first. */
export async function listDeliveries(ctx: AppContext, scope: OrgScope, system: string, page: number): Promise<TsrDeliveryList> {
  requireAdmin(scope);
  const connection = await findConnection(ctx.database.db, scope, system);
  const { rows, ...rest } = await deliveryPage(ctx, scope.orgId, eq(webhookDeliveries.connectionId, connection.id), page);
  return { items: await withBookings(ctx, scope.orgId, rows), ...rest };
}

/**
 * Sends a work note again (webhooks' redelivery model: a new delivery of the same note). Only to
 * the connection's current address: the note's URL was made from its base URL then, and the
 * credentials now stored must not go to a host they were not given for.
 */
export async function redeliver(ctx: AppContext, scope: OrgScope, system: string, deliveryId: string, ip: string | null): Promise<TsrDelivery> {
  requireAdmin(scope);
  const now = ctx.clock.now();
  const queued = await ctx.database.db.transaction(async (tx) => {
    const connection = await findConnection(tx, scope, system, true);
    const original = await findDelivery(tx, scope.orgId, eq(webhookDeliveries.connectionId, connection.id), deliveryId);
    if (!connection.enabled) throw conflict('tsr_connection_off', 'This connection is off: turn it on before sending a note again');
    if (new URL(original.url).origin !== new URL(connection.baseUrl).origin) throw conflict('tsr_connection_moved', TSR_CONNECTION_MOVED);
    const id = await queueRedelivery(tx, now, original, { connectionId: connection.id, url: original.url });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'tsr_connection.redelivered',
      resourceType: 'tsr_connection',
      resourceId: connection.id,
      orgId: scope.orgId,
      details: { system, event_type: original.eventType, delivery_id: original.id, new_delivery_id: id, booking_id: original.bookingId },
      ip,
    });
    return id;
  });
  kickWebhookDeliveries(ctx);
  const [row] = await ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, queued));
  return (await withBookings(ctx, scope.orgId, [row!]))[0]!;
}

/** The work note of a status change. */
export function tsrNote(view: BookingView, from: string, to: string, reason: string | null): string {
  const b = view.booking;
  const label = (s: string) => BOOKING_STATUS_LABELS[s as BookingStatus] ?? s;
  return [
    `Baywise: loading-bay booking ${b.tsrNumber} is now ${label(to)} (was ${label(from)}).`,
    `${view.siteName}, bay ${view.bayName}, ${b.startTime.toISOString().slice(0, 16).replace('T', ' ')}–${b.endTime.toISOString().slice(11, 16)} UTC; vehicle ${b.vehicleRegistration}.`,
    reason ? `Reason: ${reason}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * In the transaction of a status change: when the booking carries a TSR URL of a system the
 * organization has an enabled connection to, queues the work note. Nothing is read otherwise.
 */
export async function queueTsrNote(tx: Tx, now: Date, view: BookingView, from: string): Promise<boolean> {
  const b = view.booking;
  if (!b.tsrUrl || (b.tsrSystemType !== 'servicenow' && b.tsrSystemType !== 'fmclarity')) return false;
  const [connection] = await tx
    .select({ id: tsrConnections.id, baseUrl: tsrConnections.baseUrl })
    .from(tsrConnections)
    .where(and(eq(tsrConnections.orgId, b.orgId), eq(tsrConnections.system, b.tsrSystemType), eq(tsrConnections.enabled, true)));
  if (!connection) return false;
  const request = tsrNoteRequest(b.tsrSystemType, connection.baseUrl, b.tsrUrl, tsrNote(view, from, b.status, b.statusReason));
  if (!request) return false;
  await enqueueDeliveries(tx, now, [
    {
      orgId: b.orgId,
      kind: 'tsr',
      connectionId: connection.id,
      eventType: `tsr.${b.tsrSystemType}.work_note`,
      bookingId: b.id,
      url: request.url,
      headers: { 'x-http-method': request.method },
      body: request.body,
    },
  ]);
  return true;
}

/** Follows booking changes (app.ts adds it): a status change queues the work note. */
export const queueTsrNoteOnChange: BookingChangeListener = async (tx, now, view, change) =>
  change.statusChanged && change.previousStatus !== undefined ? queueTsrNote(tx, now, view, change.previousStatus) : false;

export type { TsrConnectionInput };
