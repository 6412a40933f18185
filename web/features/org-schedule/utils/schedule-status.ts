import { BOOKING_STATUS_LABELS, RESCHEDULABLE_STATUSES } from '../../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../../domain/enums';

// How the schedule shows a status: the same families as the bookings list — waiting (orange),
// good to go (indigo), at the site (cyan/teal), a problem (red), done (green). The colour is a block's
// tint and border; its text is near-black, well over 4.5:1 on every tint.

export const SCHEDULE_STATUS_COLORS: Record<BookingStatus, string> = {
  pending: 'orange',
  approved: 'indigo',
  checked_in: 'cyan',
  in_progress: 'teal',
  overstay: 'red',
  completed: 'green',
  declined: 'gray',
  cancelled: 'gray',
  no_show: 'dark',
};

/** The statuses a schedule can show (released ones do not hold a bay), in lifecycle order. */
export const LEGEND_STATUSES: BookingStatus[] = ['pending', 'approved', 'checked_in', 'in_progress', 'overstay', 'completed'];

export const statusLabel = (status: BookingStatus) => BOOKING_STATUS_LABELS[status];

/** Only bookings that have not arrived move (the server checks again). */
export function isReschedulable(status: BookingStatus): boolean {
  return (RESCHEDULABLE_STATUSES as readonly BookingStatus[]).includes(status);
}
