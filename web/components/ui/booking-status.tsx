import { Badge } from '@mantine/core';
import { BOOKING_STATUS_LABELS } from '../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../domain/enums';

/**
 * One colour per status on every screen (list, drawer, dashboard, schedule, the haulier's page):
 * waiting (orange), good to go (indigo), at the site (cyan, teal), a problem (red), done (green),
 * over (grey). Text on a tint stays near-black; the colour is in the tint and a dot.
 */
export const BOOKING_STATUS_COLORS: Record<BookingStatus, string> = {
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

export function bookingStatusColor(status: string): string {
  return BOOKING_STATUS_COLORS[status as BookingStatus] ?? 'gray';
}

/** The status as staff read it, e.g. 'Checked in'; `label` overrides (the haulier's wording). */
export function BookingStatusBadge({ status, label, size }: { status: BookingStatus; label?: string; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <Badge
      color={BOOKING_STATUS_COLORS[status]}
      variant="light"
      size={size}
      data-testid="booking-status"
      styles={{ root: { color: 'var(--mantine-color-dark-7)', overflow: 'visible', flexShrink: 0, minWidth: 'max-content' }, label: { overflow: 'visible' } }}
      leftSection={<span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: `var(--mantine-color-${BOOKING_STATUS_COLORS[status]}-7)` }} />}
    >
      {label ?? BOOKING_STATUS_LABELS[status]}
    </Badge>
  );
}
