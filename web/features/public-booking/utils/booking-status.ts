import type { BookingStatus } from '../../../../domain/enums';

export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  pending: 'Pending review',
  approved: 'Approved',
  declined: 'Declined',
  cancelled: 'Cancelled',
  checked_in: 'Checked in',
  in_progress: 'At the bay',
  completed: 'Completed',
  overstay: 'Overstay',
  no_show: 'No-show',
};

export const BOOKING_STATUS_COLORS: Record<BookingStatus, string> = {
  pending: 'yellow',
  approved: 'green',
  declined: 'red',
  cancelled: 'gray',
  checked_in: 'blue',
  in_progress: 'indigo',
  completed: 'teal',
  overstay: 'orange',
  no_show: 'red',
};

export function bookingStatusLabel(status: string): string {
  return BOOKING_STATUS_LABELS[status as BookingStatus] ?? status;
}

export function bookingStatusColor(status: string): string {
  return BOOKING_STATUS_COLORS[status as BookingStatus] ?? 'gray';
}
