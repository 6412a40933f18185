import { Badge } from '@mantine/core';
import type { BookingStatus } from '../../../../domain/enums';
import { STATUS_COLORS, statusLabel } from './format';

export function StatusBadge({ status }: { status: BookingStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" autoContrast>
      {statusLabel(status)}
    </Badge>
  );
}
