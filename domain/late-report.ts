import { z } from 'zod';
import { AWAITING_ARRIVAL_STATUSES, moveWindow } from './booking-lifecycle';
import { isTimeOfDay } from './booking-request';
import type { BookingStatus } from './enums';
import { localDateOf, localTimeOf } from './slot-grid';

// Running late (issue 26 item 5, docs/decisions/043-running-late.md): on the day of the booking the
// haulier tells the site, through the manage link, when the truck now expects to arrive. The ETA is
// a wall-clock time at the site ("HH:mm", the site's time zone, on the booking's own day). The
// truck still fits its slot while the ETA is no later than the close of the slot's check-in window
// (the gate's rule, domain/booking-lifecycle.ts moveWindow approved → checked_in: start + booking
// window + grace); when it does not, the nearest free slots later that day at the site are offered.

/** At most this many slots are offered to a truck that no longer fits its own. */
export const LATE_OFFER_LIMIT = 5;

/** The statuses a late report is taken in: booked, the truck not arrived yet (pending, approved). */
export const LATE_REPORTABLE_STATUSES: readonly BookingStatus[] = AWAITING_ARRIVAL_STATUSES;

export const LATE_ETA_REQUIRED = 'Enter the time you expect to arrive (HH:mm)';

/** POST /api/public/manage/:token/late */
export const lateReportSchema = z.object({
  eta: z.string({ error: LATE_ETA_REQUIRED }).trim().min(1, LATE_ETA_REQUIRED).refine(isTimeOfDay, 'Enter the time you expect to arrive as HH:mm, for example 10:40'),
});
export type LateReportInput = z.infer<typeof lateReportSchema>;

/** POST /api/public/manage/:token/late/accept: the start of one of the offered slots. */
export const lateAcceptSchema = z.object({
  startTime: z.string({ error: 'Choose one of the offered slots' }).datetime({ offset: true, message: 'Choose one of the offered slots' }),
});
export type LateAcceptInput = z.infer<typeof lateAcceptSchema>;

export const lateOfferSchema = z.object({
  /** The slot's start at the site, 'HH:mm'. */
  time: z.string(),
  start: z.string(),
  end: z.string(),
});
export type LateOffer = z.infer<typeof lateOfferSchema>;

export const lateReportResultSchema = z.object({
  /** The ETA as an instant, and as the site's wall clock ('HH:mm'). */
  eta: z.string(),
  etaTime: z.string(),
  timeZone: z.string(),
  /** The ETA is no later than the close of the slot's check-in window: the booking stands. */
  fitsSlot: z.boolean(),
  /** When check-in closes for the booked slot. */
  checkInClosesAt: z.string(),
  /** When the truck no longer fits: the nearest free slots that day from the ETA on, earliest first (at most 5). */
  offers: z.array(lateOfferSchema),
});
export type LateReportResult = z.infer<typeof lateReportResultSchema>;

/** When check-in closes for a booking starting at `startTime` (the gate's window, inclusive). */
export function checkInClosesAt(startTime: Date): Date {
  return moveWindow('approved', 'checked_in', { startTime, endTime: startTime })!.closesAt!;
}

/** The truck still fits its slot while it arrives no later than the slot's check-in close. */
export function fitsSlot(eta: Date, startTime: Date): boolean {
  return eta.getTime() <= checkInClosesAt(startTime).getTime();
}

/** Whether a late report may be made now: the booking awaits its truck and it is the booking's day at the site. */
export function canReportLate(booking: { status: string; startTime: Date }, timeZone: string, now: Date): boolean {
  return (LATE_REPORTABLE_STATUSES as readonly string[]).includes(booking.status) && localDateOf(booking.startTime, timeZone) === localDateOf(now, timeZone);
}

type FreeSlot = { time: string; start: Date; end: Date; bookable: boolean; candidates: readonly unknown[] };

/** The slots to offer: free (bookable, a bay free for the whole duration), starting no earlier than the ETA, earliest first, at most 5. */
export function pickLateOffers(slots: readonly FreeSlot[], eta: Date, limit = LATE_OFFER_LIMIT): LateOffer[] {
  return slots
    .filter((s) => s.bookable && s.candidates.length > 0 && s.start.getTime() >= eta.getTime())
    .sort((a, b) => a.start.getTime() - b.start.getTime())
    .slice(0, limit)
    .map((s) => ({ time: s.time, start: s.start.toISOString(), end: s.end.toISOString() }));
}

/** "late, ETA 10:40" as the dock screens show it, in the site's time. */
export function lateEtaLabel(eta: string | Date, timeZone: string): string {
  return `late, ETA ${localTimeOf(new Date(eta), timeZone)}`;
}
