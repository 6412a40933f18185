import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { GateAction, GateBooking } from '../../../../domain/gate';
import { lateEtaLabel } from '../../../../domain/late-report';
import { localTimeOf } from '../../../../domain/slot-grid';
import { BookingStatusBadge } from '../../../components/ui/booking-status';

/** The button for each action the server offers, in the order staff read them. */
export const ACTION_BUTTONS: Array<{ action: GateAction; label: string; color?: string; variant?: string }> = [
  { action: 'approve', label: 'Approve', color: '#237a35' /* green.9 is 4.36:1 under white text; this is 5.4:1 */ },
  { action: 'decline', label: 'Decline', color: 'red.9', variant: 'outline' },
  { action: 'check_in', label: 'Check In' },
  { action: 'start', label: 'Start', color: 'teal.9' },
  { action: 'check_out', label: 'Check Out', color: 'indigo' },
  { action: 'force_check_out', label: 'Force Check Out', color: 'red.9' },
  { action: 'extend', label: 'Extend Time', variant: 'outline' },
];

type Props = {
  booking: GateBooking;
  timeZone: string;
  busyId: string | null;
  onAction?: (booking: GateBooking, action: GateAction) => void;
};

export function GateBookingRow({ booking, timeZone, busyId, onAction }: Props) {
  const time = (iso: string) => localTimeOf(new Date(iso), timeZone);
  const buttons = onAction ? ACTION_BUTTONS.filter((b) => booking.actions.includes(b.action)) : [];
  return (
    <Paper withBorder radius="md" p="sm" data-testid="gate-booking" data-tsr={booking.tsrNumber} data-status={booking.status}>
      <Group justify="space-between" align="center" gap="sm" wrap="wrap">
        <Stack gap={4} style={{ flex: '1 1 240px', minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
              {booking.vehicleRegistration}
            </Text>
            <BookingStatusBadge status={booking.status} />
            {booking.isLate ? (
              <Badge color="red.9" variant="filled">
                Late
              </Badge>
            ) : null}
            {booking.lateEta ? (
              <Badge color="orange" variant="light" data-testid="late-eta" styles={{ root: { color: 'var(--mantine-color-dark-7)' }, label: { textTransform: 'none' } }}>
                {lateEtaLabel(booking.lateEta, timeZone)}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {booking.tenantName} · {booking.tsrNumber}
          </Text>
          <Text size="sm" c="dimmed">
            {time(booking.startTime)}–{time(booking.endTime)} · Bay {booking.bayName} · {booking.vehicleType}
            {booking.checkedInAt ? ` · in at ${time(booking.checkedInAt)}` : ''}
          </Text>
          {/* The real start at the bay: Extend Time moves the planned end only, never this (issue 22 item 7). */}
          {booking.startedAt ? (
            <Text size="sm" fw={600} data-testid="at-bay-since">
              At bay since {time(booking.startedAt)} · planned end {time(booking.endTime)}
            </Text>
          ) : null}
        </Stack>
        {buttons.length > 0 ? (
          <Group gap="xs" wrap="wrap">
            {buttons.map((b) => (
              <Button
                key={b.action}
                size="md"
                color={b.color}
                variant={b.variant ?? 'filled'}
                loading={busyId === `${booking.id}:${b.action}`}
                disabled={busyId !== null && busyId !== `${booking.id}:${b.action}`}
                onClick={() => onAction?.(booking, b.action)}
                aria-label={`${b.label} ${booking.vehicleRegistration}`}
              >
                {b.label}
              </Button>
            ))}
          </Group>
        ) : null}
      </Group>
    </Paper>
  );
}
