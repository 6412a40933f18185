import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { and, arrayContains, eq, isNotNull } from 'drizzle-orm';
import { appointmentStatusOf, minutesToDuration, type SscLoadingType } from '../../../domain/ssc';
import type { BookingStatus } from '../../../domain/enums';
import type { Tx } from '../../db/client';
import { bays, sscAppointments, sscWebhookSubscriptions } from '../../db/schema';
import type { BookingView } from '../bookings/booking-records';
import { enqueueDeliveries } from '../../delivery/webhook-delivery';

// The standard's `appointment-changed` event (docs/ssc-mapping.md, "Webhooks out"): when one of a
// tenant's appointments is approved, declined, rescheduled, cancelled, checked in, completed or
// marked a no-show, every subscription of that tenant to the event with a callback URL gets a
// delivery row in the transaction of the change. The job runner posts it like any outbound
// webhook (signed with the subscription's own secret, retried with back-off, SSRF-guarded).

export const SSC_APPOINTMENT_CHANGED = 'appointment-changed';

/** The status moves carriers hear about, with the reason code the event carries (TMS-specific, as the standard allows). */
export const SSC_CHANGE_REASON_CODES: Partial<Record<BookingStatus, string>> = {
  approved: 'APPROVED',
  declined: 'DECLINED',
  cancelled: 'CANCELLED',
  checked_in: 'CHECKED_IN',
  completed: 'COMPLETED',
  no_show: 'NO_SHOW',
};
export const SSC_RESCHEDULED_REASON_CODE = 'RESCHEDULED';
/** The site refused a reschedule of a confirmed appointment: the appointment stays as it was. */
export const SSC_RESCHEDULE_REFUSED_REASON_CODE = 'RESCHEDULE_REFUSED';

export type SscChange =
  | { kind: 'status'; previousStatus: string }
  | { kind: 'rescheduled'; previous: { startTime: Date; endTime: Date; bayId: string | null; expectedDurationMin: number }; previousStatus?: string }
  /** The requested slot the site refused (the booking did not move); `comment` is the site's reason. */
  | { kind: 'reschedule_refused'; requested: { startTime: Date; expectedDurationMin: number; loadingType: string }; comment: string | null };

/** An instant written in the site's own offset, as the standard's examples do. */
function zoned(instant: Date, timeZone: string): string {
  return format(new TZDate(instant, timeZone), "yyyy-MM-dd'T'HH:mm:ssXXX");
}

type Booking = BookingView['booking'];

function appointmentOf(b: Pick<Booking, 'id' | 'expectedDurationMin'> & { startTime: Date }, timeZone: string, dockDoor: { id: string; name: string } | null, loadingType: SscLoadingType) {
  return {
    id: b.id,
    arrivalWindow: { startDateTime: zoned(b.startTime, timeZone), duration: minutesToDuration(b.expectedDurationMin) },
    ...(dockDoor ? { dockDoor } : {}),
    loadingType,
  };
}

/** The event's body (the standard's "Appointment Changed Event Payload"); null when the change is not one carriers hear about. */
export function appointmentChangedBody(
  view: BookingView,
  change: SscChange,
  ssc: { primaryReferenceNumber: string; poNumber: string | null; bolNumber: string | null; stopSequenceNumber: number | null; loadingType: string } | null,
  previousBayName: string | null,
  now: Date,
): Record<string, unknown> | null {
  const b = view.booking;
  const reasonCode =
    change.kind === 'rescheduled' ? SSC_RESCHEDULED_REASON_CODE : change.kind === 'reschedule_refused' ? SSC_RESCHEDULE_REFUSED_REASON_CODE : SSC_CHANGE_REASON_CODES[b.status as BookingStatus];
  if (!reasonCode) return null;
  const loadingType = (ssc?.loadingType ?? 'LIVE') as SscLoadingType;
  const current = appointmentOf(b, view.timeZone, b.bayId ? { id: b.bayId, name: view.bayName } : null, loadingType);
  const previousAppointment =
    change.kind === 'rescheduled'
      ? {
          appointment: appointmentOf(
            // The appointment as it was: its own start and duration (a carrier may change both in one reschedule).
            { id: b.id, expectedDurationMin: change.previous.expectedDurationMin, startTime: change.previous.startTime },
            view.timeZone,
            change.previous.bayId ? { id: change.previous.bayId, name: previousBayName ?? change.previous.bayId } : null,
            loadingType,
          ),
          appointmentStatus: appointmentStatusOf(change.previousStatus ?? b.status),
        }
      : change.kind === 'reschedule_refused'
        ? // What was asked, as it stood while the site reviewed it; the current appointment is the one the carrier keeps.
          {
            appointment: appointmentOf({ id: b.id, expectedDurationMin: change.requested.expectedDurationMin, startTime: change.requested.startTime }, view.timeZone, null, change.requested.loadingType as SscLoadingType),
            appointmentStatus: 'PENDING',
          }
        : { appointmentStatus: appointmentStatusOf(change.previousStatus) };
  return {
    // The load and stop the carrier named (a portal booking: its TSR number). The appointment's own
    // id travels in currentAppointment.appointment.id: the standard's commonIdentifiers admit no other key.
    identifiers: {
      primaryReferenceNumber: ssc?.primaryReferenceNumber ?? b.tsrNumber,
      ...(ssc?.poNumber ? { poNumber: ssc.poNumber } : {}),
      ...(ssc?.bolNumber ? { bolNumber: ssc.bolNumber } : {}),
      ...(ssc?.stopSequenceNumber != null ? { stopSequenceNumber: ssc.stopSequenceNumber } : {}),
      locationId: b.siteId,
    },
    currentAppointment: { appointment: current, appointmentStatus: appointmentStatusOf(b.status) },
    previousAppointment,
    reasonCode,
    ...(change.kind === 'status' && b.statusReason?.trim() ? { comment: b.statusReason.trim() } : {}),
    ...(change.kind === 'reschedule_refused' && change.comment?.trim() ? { comment: change.comment.trim() } : {}),
    occurredAt: now.toISOString(),
  };
}

/**
 * Queues `appointment-changed` for every subscription of the booking's tenant (inside the change's
 * transaction; `view` is the booking after the change). Returns the number of deliveries queued.
 * One indexed query when nobody subscribes; nothing at all for bookings without a tenant.
 */
export async function queueSscAppointmentChanged(tx: Tx, now: Date, view: BookingView, change: SscChange): Promise<number> {
  const b = view.booking;
  if (!b.tenantId) return 0;
  if (change.kind === 'status' && !SSC_CHANGE_REASON_CODES[b.status as BookingStatus]) return 0;
  const subscriptions = await tx
    .select({ id: sscWebhookSubscriptions.id, callbackUrl: sscWebhookSubscriptions.callbackUrl, signingSecretEnc: sscWebhookSubscriptions.signingSecretEnc })
    .from(sscWebhookSubscriptions)
    .where(
      and(
        eq(sscWebhookSubscriptions.orgId, b.orgId),
        eq(sscWebhookSubscriptions.tenantId, b.tenantId),
        arrayContains(sscWebhookSubscriptions.eventTypes, [SSC_APPOINTMENT_CHANGED]),
        isNotNull(sscWebhookSubscriptions.callbackUrl),
      ),
    );
  if (subscriptions.length === 0) return 0;
  const [ssc] = await tx
    .select({
      primaryReferenceNumber: sscAppointments.primaryReferenceNumber,
      poNumber: sscAppointments.poNumber,
      bolNumber: sscAppointments.bolNumber,
      stopSequenceNumber: sscAppointments.stopSequenceNumber,
      loadingType: sscAppointments.loadingType,
    })
    .from(sscAppointments)
    .where(eq(sscAppointments.bookingId, b.id));
  let previousBayName: string | null = null;
  if (change.kind === 'rescheduled' && change.previous.bayId) {
    previousBayName =
      change.previous.bayId === b.bayId ? view.bayName : ((await tx.select({ name: bays.name }).from(bays).where(eq(bays.id, change.previous.bayId)))[0]?.name ?? null);
  }
  const body = appointmentChangedBody(view, change, ssc ?? null, previousBayName, now);
  if (!body) return 0;
  const text = JSON.stringify(body);
  await enqueueDeliveries(
    tx,
    now,
    subscriptions.map((s) => ({
      orgId: b.orgId,
      kind: 'ssc' as const,
      subscriptionId: s.id,
      bookingId: b.id,
      eventType: SSC_APPOINTMENT_CHANGED,
      url: s.callbackUrl!,
      body: text,
      signingSecretEnc: s.signingSecretEnc,
    })),
  );
  return subscriptions.length;
}
