import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import {
  canReportLate,
  checkInClosesAt,
  fitsSlot,
  pickLateOffers,
  type LateAcceptInput,
  type LateReportInput,
  type LateReportResult,
} from '../../../domain/late-report';
import type { BookingRequest } from '../../../domain/booking-request';
import { BOOKING_STATUS_LABELS } from '../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../domain/enums';
import { localDateOf, localTimeOf, parseTimeOfDay, zonedTimeToUtc } from '../../../domain/slot-grid';
import { hashToken } from '../../auth/tokens';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { writeAudit } from '../../audit/write-audit';
import { AppError, conflict, notFound } from '../../plugins/errors';
import { getDayAvailability } from '../availability/availability.service';
import { publishBookingEvent } from './booking-events';
import { candidatesFor } from './booking-candidates';
import { getManagedBooking } from './manage-booking.service';
import { moveBookingInTx } from './move-booking';
import * as repo from './bookings.repo';

// Running late through the manage link (issue 26 item 5, docs/decisions/043-running-late.md): the
// haulier reports an ETA on the booking's day; it is recorded on the booking (late_eta,
// late_reported_at), audited and published so the dock screens show "late, ETA 10:40". When the
// ETA is past the slot's check-in close, the nearest free slots later that day at the site are
// offered, and accepting one moves the booking through the one move function (moveBookingInTx).

const LINK_INVALID = 'This booking link is invalid or has expired';
const MINUTE_MS = 60_000;

/** The booking behind the link, locked in `tx` (the same 404 as the manage page for an unknown link). */
async function lockByToken(tx: Tx, token: string): Promise<repo.BookingView> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw notFound('Booking');
  const view = await repo.findBookingViewByManageTokenAnyOrg(tx, hashToken(token), true);
  if (!view) throw new AppError(404, 'not_found', LINK_INVALID);
  return view;
}

const dayText = (instant: Date, timeZone: string) => format(new TZDate(instant.getTime(), timeZone), 'EEEE d MMMM');

/** Refuses a report the booking cannot take: a truck already in, a booking called off, another day. */
function requireReportable(view: repo.BookingView, now: Date): void {
  const b = view.booking;
  if (canReportLate(b, view.timeZone, now)) return;
  const status = b.status as BookingStatus;
  if (status !== 'pending' && status !== 'approved') {
    throw conflict(
      'not_late_reportable',
      `This booking is ${BOOKING_STATUS_LABELS[status]?.toLowerCase() ?? status}: running late can no longer be reported. Please contact ${view.siteName} directly.`,
      { status },
    );
  }
  throw conflict(
    'not_booking_day',
    `Running late can only be reported on the day of the booking (${dayText(b.startTime, view.timeZone)}). To change the day, move the booking.`,
    { date: localDateOf(b.startTime, view.timeZone) },
  );
}

/** The ETA at the site on the booking's day; refused when it has already passed. */
function etaInstant(view: repo.BookingView, eta: string, now: Date): Date {
  const minutes = parseTimeOfDay(eta);
  if (minutes === null || minutes >= 24 * 60) {
    throw new AppError(422, 'invalid_eta', 'Enter the time you expect to arrive as HH:mm, for example 10:40', [{ path: 'eta', message: 'Use a time of day such as 10:40' }]);
  }
  const instant = zonedTimeToUtc(localDateOf(view.booking.startTime, view.timeZone), minutes, view.timeZone);
  // The current minute still counts ("arriving now").
  if (instant.getTime() < Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS) {
    throw new AppError(
      422,
      'eta_in_past',
      `${eta} has already passed at ${view.siteName} (it is ${localTimeOf(now, view.timeZone)} there now). Enter the time you now expect to arrive.`,
      [{ path: 'eta', message: 'Enter a time still to come' }],
    );
  }
  return instant;
}

/** The nearest free slots that day at the booking's site from the ETA on (its own time not counted as busy). */
async function offersFor(ctx: AppContext, view: repo.BookingView, eta: Date, now: Date) {
  const b = view.booking;
  const day = await getDayAvailability(
    ctx.database.db,
    {
      orgId: b.orgId,
      siteId: b.siteId,
      date: localDateOf(b.startTime, view.timeZone),
      durationMin: b.expectedDurationMin,
      vehicleHeightM: b.vehicleHeightM,
      vehicleLengthM: b.vehicleLengthM,
      specialAccessNeeds: b.specialAccessNeeds ?? [],
    },
    now,
    // On the day the portal's minimum advance would hide every near slot: the truck is already on its way.
    { excludeBookingId: b.id, ignoreMinAdvance: true },
  );
  return pickLateOffers(day.slots, eta);
}

/** Records the haulier's ETA (a later report replaces the earlier one), audits it, tells the dock; offers slots when it no longer fits. */
export async function reportLate(ctx: AppContext, token: string, input: LateReportInput, ip: string | null): Promise<LateReportResult> {
  const now = ctx.clock.now();
  const recorded = await ctx.database.db.transaction(async (tx) => {
    const view = await lockByToken(tx, token);
    requireReportable(view, now);
    const b = view.booking;
    const eta = etaInstant(view, input.eta, now);
    const fits = fitsSlot(eta, b.startTime);
    await repo.updateBooking(tx, { orgId: b.orgId, id: b.id }, { lateEta: eta, lateReportedAt: now, version: b.version + 1, updatedAt: now });
    await writeAudit(tx, {
      actor: null,
      action: 'booking.late_reported',
      resourceType: 'booking',
      resourceId: b.id,
      orgId: b.orgId,
      siteId: b.siteId,
      details: {
        tsr_number: b.tsrNumber,
        tenant_name: b.tenantName,
        eta: eta.toISOString(),
        eta_local: input.eta,
        previous_eta: b.lateEta?.toISOString() ?? null,
        slot_start: b.startTime.toISOString(),
        fits_slot: fits,
        actor: 'haulier',
        source: 'manage_link',
      },
      ip,
      anonymousRole: 'public',
    });
    return { view, eta, fits };
  });
  const { view, eta, fits } = recorded;
  publishBookingEvent(ctx, 'late_reported', { id: view.booking.id, orgId: view.booking.orgId, siteId: view.booking.siteId }, now);
  return {
    eta: eta.toISOString(),
    etaTime: localTimeOf(eta, view.timeZone),
    timeZone: view.timeZone,
    fitsSlot: fits,
    checkInClosesAt: checkInClosesAt(view.booking.startTime).toISOString(),
    offers: fits ? [] : await offersFor(ctx, view, eta, now),
  };
}

/** Moves a late booking to one of the offered slots: same day, same site, from the ETA on, still free. */
export async function acceptLateOffer(ctx: AppContext, token: string, input: LateAcceptInput, ip: string | null) {
  const now = ctx.clock.now();
  const target = new Date(input.startTime);
  const moved = await ctx.database.db.transaction(async (tx) => {
    const view = await lockByToken(tx, token);
    requireReportable(view, now);
    const b = view.booking;
    if (!b.lateEta) throw conflict('no_late_report', 'Tell the site when you expect to arrive first: the slots offered depend on it.');
    if (fitsSlot(b.lateEta, b.startTime)) {
      throw conflict('still_fits', `Your expected arrival at ${localTimeOf(b.lateEta, view.timeZone)} still fits your booked slot: there is nothing to move.`);
    }
    const date = localDateOf(b.startTime, view.timeZone);
    if (localDateOf(target, view.timeZone) !== date) {
      throw new AppError(422, 'not_booking_day', 'Choose one of the slots offered for the day of your booking.', [{ path: 'startTime', message: 'Choose an offered slot' }]);
    }
    if (target.getTime() < b.lateEta.getTime()) {
      throw new AppError(
        422,
        'before_eta',
        `That slot starts before your expected arrival at ${localTimeOf(b.lateEta, view.timeZone)}. Choose one of the offered slots.`,
        [{ path: 'startTime', message: 'Choose an offered slot' }],
      );
    }
    const slot = localTimeOf(target, view.timeZone);
    const gone = () =>
      conflict('offer_taken', `The ${slot} slot is no longer free. Report your arrival time again to see the slots still free.`, { startTime: target.toISOString() });
    let candidates;
    try {
      candidates = await candidatesFor(
        tx,
        now,
        {
          orgId: b.orgId,
          siteId: b.siteId,
          date,
          slot,
          expectedDurationMin: b.expectedDurationMin,
          vehicleHeightM: b.vehicleHeightM,
          vehicleLengthM: b.vehicleLengthM ?? undefined,
          specialAccessNeeds: (b.specialAccessNeeds ?? []) as BookingRequest['specialAccessNeeds'],
        },
        b.id,
        { ignoreMinAdvance: true },
      );
    } catch (error) {
      // Taken since it was offered, or no longer a slot at all (past, closed): the offer is stale.
      if (error instanceof AppError && ['no_available_bay', 'slot_unavailable', 'invalid_slot'].includes(error.code)) throw gone();
      throw error;
    }
    const candidatesAtTime = candidates.filter((c) => c.start.getTime() === target.getTime());
    if (candidatesAtTime.length === 0) throw gone();
    try {
      const result = await moveBookingInTx(tx, now, {
        current: view,
        candidates: candidatesAtTime,
        // The haulier's own move, as the manage page's: the lifecycle reviews it again.
        mover: 'haulier',
        // The new slot starts at or after the ETA: the truck is no longer late for it.
        afterMove: async (sp) => {
          await repo.updateBooking(sp, { orgId: b.orgId, id: b.id }, { lateEta: null });
        },
        audit: {
          actor: null,
          details: { from: b.startTime.toISOString(), to_date: date, to_slot: slot, eta: b.lateEta.toISOString(), source: 'late_report' },
          ip,
        },
      });
      return result.view;
    } catch (error) {
      if (error instanceof AppError && error.code === 'no_available_bay') throw gone();
      throw error;
    }
  });
  // The dock screens refetch, the haulier's "moved" mail and the webhooks go out.
  publishBookingEvent(ctx, 'rescheduled', { id: moved.booking.id, orgId: moved.booking.orgId, siteId: moved.booking.siteId }, now);
  ctx.mailWorker?.kick();
  return getManagedBooking(ctx, token);
}
