import { Badge } from '@mantine/core';
import type { BookingStatus } from '../../../../domain/enums';
import { STATUS_COLORS, statusLabel } from './format';

export function StatusBadge({ status }: { status: BookingStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="dot" tt="none" styles={{ root: { flexShrink: 0, maxWidth: 'none', minWidth: 'max-content' }, label: { overflow: 'visible' } }}>
      {statusLabel(status)}
    </Badge>
  );
}
