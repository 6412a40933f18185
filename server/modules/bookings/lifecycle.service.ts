import type { BookingStatus } from '../../../domain/enums';
import {
  BOOKING_STATUS_LABELS,
  BOOKING_WINDOW_MIN,
  canTransition,
  CHECK_IN_EARLY_MIN,
  illegalTransitionMessage,
  isTransition,
  moveTiming,
  moveWindow,
  REASON_REQUIRED,
  type BookingTimes,
  type LifecycleActor,
  type MoveWindow,
} from '../../../domain/booking-lifecycle';
import { localDateOf, localTimeOf } from '../../../domain/slot-grid';
import { letsVehicleIn, siteEmergencyHoldMessage } from '../../../domain/site-emergency';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { eq } from 'drizzle-orm';
import { sites } from '../../db/schema';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../plugins/errors';
import { writeAudit, type AuditActor } from '../../audit/write-audit';
import { queueBookingChangedMail } from './booking-mail-queue';
import type { BookingChange } from './booking-mail';
import * as repo from './bookings.repo';
import { queueBookingWebhooks } from './booking-webhooks';
import { queueGoToBaySms } from './booking-sms';
import { kickWebhookDeliveries } from '../../delivery/webhook-delivery';

// Every status move of a booking goes through applyTransition: it checks the move against the
// lifecycle table (domain/booking-lifecycle.ts), its window on the clock and the caller's version,
// sets the status, its timestamp and the reason, writes the audit entry and queues the haulier's
// e-mail in one transaction, then publishes the change once it has committed.

export type TransitionActor = {
  kind: LifecycleActor;
  /** The signed-in person (null for the haulier's link and the system sweeps). */
  user: AuditActor;
  ip?: string | null;
};

export type TransitionInput = {
  bookingId: string;
  /** The organization the caller works in: a booking of another one answers 404. */
  orgId: string;
  to: BookingStatus;
  /** The version the caller saw; omitted only by the system sweeps, which re-check the status. */
  expectedVersion?: number;
  reason?: string | null;
  /** Extend Time: the new end (overstay → in progress). */
  newEnd?: Date;
  /** Extra audit details (the gate: dwell time, the camera that read the plate). */
  details?: Record<string, unknown>;
  /** false: the haulier's mail is left to the caller (a standing series' cancel mails once for all, decision 045). */
  mailHaulier?: boolean;
};

/** What the haulier is told of a move made by the site. */
const HAULIER_MAIL: Partial<Record<BookingStatus, BookingChange>> = {
  approved: 'approved',
  declined: 'declined',
  cancelled: 'cancelled_by_site',
  // Staff's or the sweep's: the haulier learns the slot is gone (and may book again).
  no_show: 'no_show',
};

const TIMESTAMP_FIELD: Partial<Record<BookingStatus, keyof repo.BookingUpdate>> = {
  approved: 'approvedAt',
  declined: 'declinedAt',
  cancelled: 'cancelledAt',
  checked_in: 'checkedInAt',
  in_progress: 'startedAt',
  completed: 'completedAt',
  no_show: 'noShowAt',
};

/**
 * The refusal of a move that sends a vehicle in while its site is stopped for an emergency (issue 22
 * item 6): check-in, start at the bay, call to a bay. 409: the booking is fine, the site is not.
 */
export const siteEmergencyHold = (siteName: string, reason: string | null) => conflict('site_emergency', siteEmergencyHoldMessage(siteName, reason));

/** Throws siteEmergencyHold when the booking's site is stopped and the move would let a vehicle in or send it to a bay. */
export async function refuseWhileSiteStopped(tx: Tx, siteId: string, from: BookingStatus, to: BookingStatus): Promise<void> {
  if (!letsVehicleIn(from, to)) return;
  const [site] = await tx.select({ name: sites.name, emergencyAt: sites.emergencyAt, reason: sites.emergencyReason }).from(sites).where(eq(sites.id, siteId));
  if (site?.emergencyAt) throw siteEmergencyHold(site.name, site.reason);
}

export const staleVersion = (status: BookingStatus) =>
  conflict(
    'stale_version',
    `This booking was changed by someone else meanwhile (it is now ${BOOKING_STATUS_LABELS[status].toLowerCase()}). Reload it and try again.`,
    { status },
  );

/** Checks a move inside the caller's transaction; throws the clear 4xx when it is refused. */
export function checkTransition(from: BookingStatus, input: TransitionInput, actor: TransitionActor, version: number): void {
  if (input.expectedVersion !== undefined && input.expectedVersion !== version) throw staleVersion(from);
  if (from === input.to || !isTransition(from, input.to)) {
    throw conflict('illegal_transition', illegalTransitionMessage(from, input.to), { status: from });
  }
  if (!canTransition(from, input.to, actor.kind)) throw forbidden('Your role cannot make this change to a booking');
  if (REASON_REQUIRED.includes(input.to) && !input.reason?.trim()) {
    throw badRequest('A reason is required', [{ path: 'reason', message: 'A reason is required' }]);
  }
  if (from === 'overstay' && input.to === 'in_progress' && !input.newEnd) {
    throw badRequest('Extend Time needs the new end time', [{ path: 'endTime', message: 'Choose the new end time' }]);
  }
}

/** A window in the site's words: "on D from T1 to T2", "from D1 T1 to D2 T2", "from T on D". */
function windowText(window: MoveWindow, timeZone: string): string {
  const day = (d: Date) => localDateOf(d, timeZone);
  const time = (d: Date) => localTimeOf(d, timeZone);
  const { opensAt, closesAt } = window;
  if (opensAt && closesAt) {
    return day(opensAt) === day(closesAt)
      ? `on ${day(opensAt)} from ${time(opensAt)} to ${time(closesAt)}`
      : `from ${day(opensAt)} ${time(opensAt)} to ${day(closesAt)} ${time(closesAt)}`;
  }
  if (opensAt) return `from ${time(opensAt)} on ${day(opensAt)}`;
  return closesAt ? `until ${time(closesAt)} on ${day(closesAt)}` : 'at any time';
}

/**
 * The refusal of a clock-bound move made outside its window (domain/booking-lifecycle.ts), saying
 * when it is possible in the site's local time; null when the clock allows it. 409: the booking is
 * fine, the time is not.
 */
export function outsideWindowError(from: BookingStatus, to: BookingStatus, booking: BookingTimes, now: Date, timeZone: string): AppError | null {
  const timing = moveTiming(from, to, booking, now);
  const window = moveWindow(from, to, booking);
  if (timing === 'open' || !window) return null;
  const range = `${windowText(window, timeZone)} (site time, ${timeZone})`;
  const when = timing === 'too_early' ? 'too early' : 'too late';
  const details = { to, opensAt: window.opensAt?.toISOString() ?? null, closesAt: window.closesAt?.toISOString() ?? null };
  if (to === 'checked_in') {
    return conflict('outside_check_in_window', `It is ${when} to check this booking in: check-in is open ${range}.`, details);
  }
  const message =
    to === 'in_progress'
      ? `It is ${when} to start this booking at its bay: it can start ${range}, ${CHECK_IN_EARLY_MIN} minutes before its booked start.`
      : to === 'no_show'
        ? `It is ${when} to mark this booking a no-show: it can be marked ${range}, once its ${BOOKING_WINDOW_MIN}-minute booking window has passed.`
        : `It is ${when} to mark this booking ${BOOKING_STATUS_LABELS[to].toLowerCase()}: that is possible ${range}.`;
  return conflict('outside_time_window', message, details);
}

/** Applies a move in the given transaction (the sweeps batch several); returns the new version. */
export async function applyTransitionInTx(
  ctx: AppContext,
  tx: Tx,
  input: TransitionInput,
  actor: TransitionActor,
): Promise<{ view: repo.BookingView; from: BookingStatus }> {
  const view = await repo.findBookingView(tx, { orgId: input.orgId, id: input.bookingId }, true);
  if (!view || view.booking.orgId !== input.orgId) throw notFound('Booking');
  const b = view.booking;
  const from = b.status as BookingStatus;
  checkTransition(from, input, actor, b.version);
  await refuseWhileSiteStopped(tx, b.siteId, from, input.to);
  const now = ctx.clock.now();
  const tooSoonOrLate = outsideWindowError(from, input.to, b, now, view.timeZone);
  if (tooSoonOrLate) throw tooSoonOrLate;
  // Extend Time (overstay → in progress) changes the planned end only: the vehicle has been at the
  // bay since its real start, which the gate ("at bay since") and the dwell report keep.
  const isExtend = from === 'overstay' && input.to === 'in_progress';
  const stamp = isExtend ? undefined : TIMESTAMP_FIELD[input.to];
  const update: repo.BookingUpdate = {
    status: input.to,
    version: b.version + 1,
    updatedAt: now,
    ...(stamp ? { [stamp]: now } : {}),
    ...(input.reason?.trim() ? { statusReason: input.reason.trim() } : {}),
  };
  if (input.newEnd) {
    if (input.newEnd <= b.endTime) throw badRequest('The new end must be later than the current end', [{ path: 'endTime', message: 'Choose a later end time' }]);
    update.endTime = input.newEnd;
    update.windowEnd = input.newEnd;
  }
  try {
    await repo.updateBooking(tx, { orgId: input.orgId, id: b.id }, update);
  } catch (error) {
    // Extend Time into another booking: the exclusion constraint is the final guard.
    if ((error as { code?: string; cause?: { code?: string } }).code === '23P01' || (error as { cause?: { code?: string } }).cause?.code === '23P01') {
      throw new AppError(409, 'bay_not_free', 'The bay is booked by someone else before the new end time. Choose an earlier end or move the next booking.');
    }
    throw error;
  }
  await writeAudit(tx, {
    actor: actor.user,
    action: `booking.${input.to}`,
    resourceType: 'booking',
    resourceId: b.id,
    orgId: b.orgId,
    siteId: b.siteId,
    details: {
      tsr_number: b.tsrNumber,
      tenant_name: b.tenantName,
      from_status: from,
      status: input.to,
      reason: input.reason?.trim() || null,
      actor: actor.kind,
      ...(input.newEnd ? { previous_end: b.endTime.toISOString(), new_end: input.newEnd.toISOString() } : {}),
      ...input.details,
    },
    ip: actor.ip ?? null,
    anonymousRole: actor.kind === 'system' ? 'system' : 'public',
  });
  const change = actor.kind === 'haulier' || input.mailHaulier === false ? undefined : HAULIER_MAIL[input.to];
  if (change) await queueBookingChangedMail(tx, now, b, change, input.reason?.trim() || null);
  const moved = { ...view, booking: { ...b, ...update } as typeof b };
  // The dockmaster calls the truck: the driver's phone hears which bay (when SMS is on).
  if (from === 'checked_in' && input.to === 'in_progress') await queueGoToBaySms(ctx, tx, now, moved);
  // Outbound webhooks (issue 13): every status move; check-in and the gate's check-out besides.
  await queueBookingWebhooks(tx, now, {
    orgId: b.orgId,
    bookingId: b.id,
    types: ['booking.status_changed', ...(input.to === 'checked_in' ? (['gate.check_in'] as const) : []), ...(input.to === 'completed' && input.details?.gate ? (['gate.check_out'] as const) : [])],
    extra: { previousStatus: from },
    view: moved,
  });
  return { view: moved, from };
}

/** One move in its own transaction, published and mailed after commit. */
export async function applyTransition(ctx: AppContext, input: TransitionInput, actor: TransitionActor) {
  const result = await ctx.database.db.transaction((tx) => applyTransitionInTx(ctx, tx, input, actor));
  afterCommit(ctx, result.view, input.to);
  return result.view;
}

/** Tells the live screens and wakes the mail worker, once the change is durable. */
export function afterCommit(ctx: AppContext, view: repo.BookingView, action: string): void {
  ctx.realtime?.publish({
    entity: 'booking',
    action,
    id: view.booking.id,
    orgId: view.booking.orgId,
    siteId: view.booking.siteId,
    at: ctx.clock.now().toISOString(),
  });
  ctx.mailWorker?.kick();
  ctx.smsWorker?.kick();
  kickWebhookDeliveries(ctx);
}
