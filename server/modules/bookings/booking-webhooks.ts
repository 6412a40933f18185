import { randomUUID } from 'node:crypto';
import { and, arrayOverlaps, eq } from 'drizzle-orm';
import type { WebhookEventType } from '../../../domain/webhooks';
import type { Tx } from '../../db/client';
import { webhookEndpoints } from '../../db/schema';
import { eventEnvelope } from '../../delivery/event-envelope';
import { enqueueDeliveries } from '../../delivery/webhook-delivery';
import { findBookingView, type BookingView } from './bookings.repo';

// Booking and gate events for the organization's endpoints, queued in the transaction of the
// change (one call at each change point: lifecycle.service.ts applyTransitionInTx for status
// moves, check-in and check-out; the create and reschedule services). The body is the envelope
// documented in docs/webhooks.md; one event id per event, shared by the endpoints it goes to.

export type BookingEventExtra = {
  previousStatus?: string;
  /** Where and when it was, and for how long (the SSC event's previous appointment carries the duration before a move that changed it). */
  previous?: { startTime: Date; endTime: Date; siteId: string; bayId: string | null; expectedDurationMin: number };
};

/**
 * A status change or a move, as the systems that follow a booking hear of it: a status change
 * (`previousStatus` is the status before), or a move (`previous` is where and when it was; the
 * status may have changed with it). `statusChanged` says whether the status moved in either case.
 */
export type BookingChange = { statusChanged: boolean } & (
  | { kind: 'status'; previousStatus: string }
  | { kind: 'rescheduled'; previous: NonNullable<BookingEventExtra['previous']>; previousStatus?: string }
);

/** Queues what one system hears of a change, in the change's transaction (the booking as it is after it). */
export type BookingChangeListener = (tx: Tx, now: Date, view: BookingView, change: BookingChange) => Promise<unknown>;

const listeners: BookingChangeListener[] = [];

/**
 * Adds a system that follows booking changes (app.ts: the TSR link's work note, then the SSC
 * `appointment-changed` callback). The modules that own those systems depend on bookings, so
 * bookings calls them through this list rather than importing them; listeners run in the order added.
 */
export function listenToBookingChanges(listener: BookingChangeListener): void {
  if (!listeners.includes(listener)) listeners.push(listener);
}

/** The booking as a webhook receiver sees it (no contact details: they stay in Baywise). */
export function bookingPayload(view: BookingView) {
  const b = view.booking;
  return {
    id: b.id,
    reference: b.tsrNumber,
    status: b.status,
    statusReason: b.statusReason,
    version: b.version,
    siteId: b.siteId,
    siteName: view.siteName,
    bayId: b.bayId,
    bayName: view.bayName,
    tenantName: b.tenantName,
    bookingType: b.bookingType,
    vehicleType: b.vehicleType,
    vehicleRegistration: b.vehicleRegistration,
    startTime: b.startTime.toISOString(),
    endTime: b.endTime.toISOString(),
    tsrUrl: b.tsrUrl,
    updatedAt: b.updatedAt.toISOString(),
  };
}

/**
 * Queues `types` about one booking for every active endpoint of its organization subscribed to
 * them. Reads the booking as the transaction sees it (after the change); nothing is read when no
 * endpoint listens.
 */
export async function queueBookingWebhooks(
  tx: Tx,
  now: Date,
  input: { orgId: string; bookingId: string; types: WebhookEventType[]; extra?: BookingEventExtra; view?: BookingView },
): Promise<number> {
  if (input.types.length === 0) return 0;
  // A status change is also posted back to the booking's TSR record (tsr-link), when configured,
  // and a status change or a move goes to the tenant's SSC subscriptions as `appointment-changed`
  // (the listeners app.ts adds).
  const previousStatus = input.extra?.previousStatus;
  const statusChanged = input.types.includes('booking.status_changed') && previousStatus !== undefined;
  const previous = input.types.includes('booking.rescheduled') ? input.extra?.previous : undefined;
  if ((statusChanged || previous) && listeners.length > 0) {
    const view = input.view ?? (await findBookingView(tx, { orgId: input.orgId, id: input.bookingId }));
    if (view) {
      input = { ...input, view };
      // One event per change: a move that also changed the status says both (current and previous appointment).
      const change: BookingChange = previous
        ? { kind: 'rescheduled', previous, previousStatus, statusChanged }
        : { kind: 'status', previousStatus: previousStatus!, statusChanged };
      for (const listener of listeners) await listener(tx, now, view, change);
    }
  }
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, input.orgId), eq(webhookEndpoints.status, 'active'), arrayOverlaps(webhookEndpoints.events, input.types)));
  if (endpoints.length === 0) return 0;
  const view = input.view ?? (await findBookingView(tx, { orgId: input.orgId, id: input.bookingId }));
  if (!view) return 0;
  const booking = bookingPayload(view);
  const rows = input.types.flatMap((type) => {
    const eventId = randomUUID();
    const data: Record<string, unknown> = { booking };
    if (type === 'booking.status_changed' && input.extra?.previousStatus) data.previousStatus = input.extra.previousStatus;
    if (type === 'booking.rescheduled' && input.extra?.previous) {
      const p = input.extra.previous;
      data.previous = { startTime: p.startTime.toISOString(), endTime: p.endTime.toISOString(), siteId: p.siteId, bayId: p.bayId };
    }
    const body = eventEnvelope(eventId, type, input.orgId, now, data);
    return endpoints
      .filter((e) => e.events.includes(type))
      .map((e) => ({ orgId: input.orgId, endpointId: e.id, eventType: type, eventId, url: e.url, body }));
  });
  await enqueueDeliveries(tx, now, rows);
  return rows.length;
}
