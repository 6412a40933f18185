import type { BookingStatus } from '../../../domain/enums';
import {
  BOOKING_STATUS_LABELS,
  canTransition,
  illegalTransitionMessage,
  isTransition,
  REASON_REQUIRED,
  type LifecycleActor,
} from '../../../domain/booking-lifecycle';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../plugins/errors';
import { writeAudit, type AuditActor } from '../audit/audit.service';
import { queueBookingChangedMail } from './booking-mail-queue';
import type { BookingChange } from './booking-mail';
import * as repo from './bookings.repo';
import { queueBookingWebhooks } from '../webhooks/webhook-events';
import { kickWebhookDeliveries } from '../webhooks/webhook-delivery';

// Every status move of a booking goes through applyTransition: it checks the move against the
// lifecycle table (domain/booking-lifecycle.ts) and the caller's version, sets the status, its
// timestamp and the reason, writes the audit entry and queues the haulier's e-mail in one
// transaction, then publishes the change once it has committed.

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
};

/** What the haulier is told of a move made by the site. */
const HAULIER_MAIL: Partial<Record<BookingStatus, BookingChange>> = {
  approved: 'approved',
  declined: 'declined',
  cancelled: 'cancelled_by_site',
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
  const now = ctx.clock.now();
  const stamp = TIMESTAMP_FIELD[input.to];
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
  const change = actor.kind === 'haulier' ? undefined : HAULIER_MAIL[input.to];
  if (change) await queueBookingChangedMail(tx, now, b, change, input.reason?.trim() || null);
  const moved = { ...view, booking: { ...b, ...update } as typeof b };
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
  kickWebhookDeliveries(ctx);
}
