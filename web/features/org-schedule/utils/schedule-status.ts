import { BOOKING_STATUS_LABELS, BAY_HOLDING_STATUSES, LIVE_BOOKING_STATUSES, RESCHEDULABLE_STATUSES } from '../../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../../domain/enums';

// The schedule uses the one status colour scheme (web/components/ui/booking-status.tsx) as a
// block's tint and border; its text is near-black, well over 4.5:1 on every tint.
export { BOOKING_STATUS_COLORS as SCHEDULE_STATUS_COLORS } from '../../../components/ui/booking-status';

/** The statuses a schedule can show (those that hold a bay), in lifecycle order: the live ones, then completed. */
export const LEGEND_STATUSES: readonly BookingStatus[] = [...LIVE_BOOKING_STATUSES, ...BAY_HOLDING_STATUSES.filter((s) => !LIVE_BOOKING_STATUSES.includes(s))];

export const statusLabel = (status: BookingStatus) => BOOKING_STATUS_LABELS[status];

/** Only bookings that have not arrived move (the server checks again). */
export function isReschedulable(status: BookingStatus): boolean {
  return RESCHEDULABLE_STATUSES.includes(status);
}
