import { statusAfterMove, type BookingMover } from '../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../domain/enums';
import type { Tx } from '../../db/client';
import { writeAudit, type AuditActor } from '../../audit/write-audit';
import { AppError } from '../../plugins/errors';
import type { Candidate } from '../availability/availability.service';
import { claimBay } from './claim-bay';
import { queueBookingChangedMail } from './booking-mail-queue';
import { queueBookingWebhooks } from './booking-webhooks';
import * as repo from './bookings.repo';
import { resetRemindersAfterMove } from './reminders-after-move';

// One way to move a booking to another time, bay or site (issue 20 items 1 and 2). Every path that
// moves a booking — the haulier's manage link, an admin's reschedule, the SSC channel's
// reschedule-appointment, a setup change (closed bay, blackout, closed site) moving what it
// strands — calls moveBookingInTx inside its transaction, on the booking row it has locked: it
// claims the first candidate bay the database accepts (the exclusion constraint), writes the
// status the lifecycle gives the move (domain/booking-lifecycle.ts statusAfterMove: the haulier's
// own move is reviewed again, staff and the system keep it, the carrier's follows the policy),
// bumps the version, audits, queues the haulier's e-mail and the webhooks.

/** What the haulier's e-mail calls the move: their own (or their carrier's), or the site's. */
export const moveMailChange = (mover: BookingMover) => (mover === 'haulier' || mover === 'carrier' ? 'moved' : 'moved_by_site');

export type MoveBookingInput = {
  /** The booking as read and locked (`for update`) in this transaction. */
  current: repo.BookingView;
  /** Free bays at the new time, best fit first: the first the database accepts is taken. */
  candidates: Candidate[];
  mover: BookingMover;
  /** Answers the lifecycle's `policy` rows (the carrier's move): does the approval policy approve at once? */
  policyApproves?: boolean;
  /** A new planned duration (the carrier may change it with the time). */
  expectedDurationMin?: number;
  /** Runs after the bay is claimed, before the audit entry (the channel's own row). */
  afterMove?: (tx: Tx, moved: Candidate) => Promise<void>;
  /** `booking.rescheduled` (a new time) or `booking.reassigned` (same time, another bay or site). */
  audit: { action?: 'booking.rescheduled' | 'booking.reassigned'; actor: AuditActor; details?: Record<string, unknown>; ip: string | null };
  /** The reason the haulier's e-mail carries (the carrier's comment, the closure). */
  mailReason?: string | null;
  /** false: the haulier's mail is left to the caller (a standing series' move mails once for all, decision 045). */
  mailHaulier?: boolean;
};

export type MovedBooking = { view: repo.BookingView; moved: Candidate; previous: repo.BookingView; status: BookingStatus };

/** Moves a booking: claim, status by the lifecycle, version, audit, mail, webhooks. Inside the caller's transaction. */
export async function moveBookingInTx(tx: Tx, now: Date, input: MoveBookingInput): Promise<MovedBooking> {
  const previous = input.current;
  const b = previous.booking;
  const from = b.status as BookingStatus;
  const status = statusAfterMove(from, input.mover, input.policyApproves ?? false);
  if (!status) throw new AppError(409, 'not_reschedulable', `This booking is ${from.replace('_', ' ')}: it cannot be moved.`, { status: from });
  // Approved now, or still: its approval time. A booking that keeps a later status (a vehicle
  // checked in, sent to another bay at the gate) keeps it too.
  const approvedAt = status === 'approved' ? (from === 'approved' ? b.approvedAt : now) : status === from ? b.approvedAt : null;
  const moved = await claimBay(
    tx,
    input.candidates,
    async (sp, c) => {
      await repo.updateBooking(sp, { orgId: b.orgId, id: b.id }, {
        siteId: c.siteId,
        bayId: c.bayId,
        startTime: c.start,
        endTime: c.end,
        windowStart: c.start,
        windowEnd: c.end,
        ...(input.expectedDurationMin !== undefined ? { expectedDurationMin: input.expectedDurationMin } : {}),
        status,
        approvedAt,
        version: b.version + 1,
        updatedAt: now,
      });
      return c;
    },
    b.vehicleRegistration,
  );
  if (moved.start.getTime() !== b.startTime.getTime()) await resetRemindersAfterMove(tx, b, moved.start, now);
  await input.afterMove?.(tx, moved);
  await writeAudit(tx, {
    actor: input.audit.actor,
    action: input.audit.action ?? 'booking.rescheduled',
    resourceType: 'booking',
    resourceId: b.id,
    orgId: b.orgId,
    siteId: moved.siteId,
    details: {
      tsr_number: b.tsrNumber,
      tenant_name: b.tenantName,
      status,
      previous_status: from,
      mover: input.mover,
      previous_start: b.startTime.toISOString(),
      previous_bay: previous.bayName,
      previous_site: previous.siteName,
      new_start: moved.start.toISOString(),
      new_bay: moved.bayName,
      new_site: moved.siteName,
      ...input.audit.details,
    },
    ip: input.audit.ip,
  });
  if (input.mailHaulier !== false) await queueBookingChangedMail(tx, now, b, moveMailChange(input.mover), input.mailReason ?? null);
  const view = (await repo.findBookingView(tx, { orgId: b.orgId, id: b.id }))!;
  // The move, and the status when the lifecycle changed it (a haulier's move of an approved booking).
  await queueBookingWebhooks(tx, now, {
    orgId: b.orgId,
    bookingId: b.id,
    types: status === from ? ['booking.rescheduled'] : ['booking.rescheduled', 'booking.status_changed'],
    extra: { previous: b, previousStatus: from },
    view,
  });
  return { view, moved, previous, status };
}
