import { NO_AVAILABLE_BAY } from '../../../domain/booking-messages';
import { BOOKING_STATUS_LABELS } from '../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../domain/enums';
import { localDateOf, localTimeOf } from '../../../domain/slot-grid';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { writeAudit } from '../../audit/write-audit';
import { conflict, notFound } from '../../plugins/errors';
import type { OrgScope } from '../../plugins/org-scope';
import { candidatesToMove } from '../bookings/booking-candidates';
import * as bookingRecords from '../bookings/booking-records';
import { afterCommit } from '../bookings/lifecycle.service';
import { moveBookingInTx } from '../bookings/move-booking';
import { getBooking } from '../bookings/org-bookings.service';
import { queueSscAppointmentChanged } from './ssc-events';
import * as repo from './ssc.repo';

// A carrier's reschedule of a confirmed appointment that the approval policy does not approve at
// once waits for the site (ssc-reschedule.ts; the SSC standard's practice): an org admin accepts
// it — the booking moves to the requested slot through the one move function, and the carrier
// hears RESCHEDULED — or refuses it — nothing moves, and the carrier hears RESCHEDULE_REFUSED with
// its confirmed appointment. Either way the request is settled and audited.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const noRequest = () => conflict('no_reschedule_request', 'This booking has no reschedule request waiting: it may have been settled already.');

/** The booking locked for the change, and its waiting request (409 when none). */
async function lockedRequest(tx: Tx, scope: OrgScope, bookingId: string) {
  if (!UUID.test(bookingId)) throw notFound('Booking');
  const current = await bookingRecords.findBookingView(tx, { orgId: scope.orgId, id: bookingId }, true);
  if (!current || current.booking.orgId !== scope.orgId) throw notFound('Booking');
  const request = await repo.findRescheduleRequest(tx, scope, bookingId);
  if (!request) throw noRequest();
  return { current, request };
}

/** Moves the booking to the requested slot (a free bay of its site then, else 409 and the request waits), approved. */
export async function acceptRescheduleRequest(ctx: AppContext, scope: OrgScope, bookingId: string, ip: string | null) {
  const now = ctx.clock.now();
  const view = await ctx.database.db.transaction(async (tx) => {
    const { current, request } = await lockedRequest(tx, scope, bookingId);
    const b = current.booking;
    const status = b.status as BookingStatus;
    // A request stands for a confirmed appointment; once the booking has moved on (cancelled, checked in) it can only be refused.
    if (status !== 'approved') {
      throw conflict('not_reschedulable', `This booking is ${BOOKING_STATUS_LABELS[status].toLowerCase()}: the reschedule request can only be refused.`, { status });
    }
    const slot = { date: localDateOf(request.startTime, current.timeZone), slot: localTimeOf(request.startTime, current.timeZone) };
    const candidates = (await candidatesToMove(tx, now, { ...b, expectedDurationMin: request.durationMin }, slot)).filter((c) => c.siteId === b.siteId);
    if (candidates.length === 0) throw conflict('no_available_bay', NO_AVAILABLE_BAY);
    // The carrier's move, approved by the site: it stays approved (the lifecycle's `policy` row).
    const { view: after } = await moveBookingInTx(tx, now, {
      current,
      candidates,
      mover: 'carrier',
      policyApproves: true,
      expectedDurationMin: request.durationMin,
      afterMove: (tx2) => repo.clearRescheduleRequest(tx2, scope, b.id, now, request.loadingType).then(() => undefined),
      audit: {
        actor: scope.auditActor,
        details: { source: 'ssc', reschedule_request: 'accepted', requested_at: request.requestedAt.toISOString(), duration_min: request.durationMin },
        ip,
      },
      mailReason: request.comment,
    });
    return after;
  });
  afterCommit(ctx, view, 'rescheduled');
  return getBooking(ctx, scope, bookingId);
}

/** Drops the request: the booking keeps its slot; the carrier hears the refusal (with the reason, if any). */
export async function refuseRescheduleRequest(ctx: AppContext, scope: OrgScope, bookingId: string, reason: string | null, ip: string | null) {
  const now = ctx.clock.now();
  const view = await ctx.database.db.transaction(async (tx) => {
    const { current, request } = await lockedRequest(tx, scope, bookingId);
    const b = current.booking;
    await repo.clearRescheduleRequest(tx, scope, b.id, now);
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'ssc.reschedule_refused',
      resourceType: 'booking',
      resourceId: b.id,
      orgId: b.orgId,
      siteId: b.siteId,
      details: {
        source: 'ssc',
        tsr_number: b.tsrNumber,
        tenant_name: b.tenantName,
        start: b.startTime.toISOString(),
        requested_start: request.startTime.toISOString(),
        duration_min: request.durationMin,
        reason,
      },
      ip,
    });
    await queueSscAppointmentChanged(tx, now, current, {
      kind: 'reschedule_refused',
      requested: { startTime: request.startTime, expectedDurationMin: request.durationMin, loadingType: request.loadingType },
      comment: reason,
    });
    return current;
  });
  // The live screens drop the request; the carrier's event goes out now.
  afterCommit(ctx, view, 'reschedule_refused');
  return getBooking(ctx, scope, bookingId);
}
