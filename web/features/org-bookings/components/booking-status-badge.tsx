import { Badge } from '@mantine/core';
import { BOOKING_STATUS_LABELS } from '../../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../../domain/enums';
import { STATUS_COLORS } from '../utils/booking-display';

export function BookingStatusBadge({ status }: { status: BookingStatus }) {
  return (
    <Badge
      color={STATUS_COLORS[status]}
      variant="light"
      data-testid="booking-status"
      styles={{ root: { color: 'var(--mantine-color-dark-7)', overflow: 'visible' }, label: { overflow: 'visible' } }}
      leftSection={<span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: `var(--mantine-color-${STATUS_COLORS[status]}-7)` }} />}
    >
      {BOOKING_STATUS_LABELS[status]}
    </Badge>
  );
}
