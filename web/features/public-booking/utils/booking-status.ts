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


export function bookingStatusLabel(status: string): string {
  return BOOKING_STATUS_LABELS[status as BookingStatus] ?? status;
}

export { bookingStatusColor } from '../../../components/ui/booking-status';
