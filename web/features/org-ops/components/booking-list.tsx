import { Anchor, Badge, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { GateBooking } from '../../../../domain/gate';
import { BookingStatusBadge } from '../../../components/ui/booking-status';
import { bookingHref, siteTime, siteTimeRange } from '../utils/format';
import { lateEtaLabel } from '../../../../domain/late-report';

type Props = {
  title: string;
  id: string;
  bookings: GateBooking[];
  empty: string;
  timeZone: string;
  /** What the second line says about the booking's times. */
  detail: (booking: GateBooking, timeZone: string) => string;
  testId: string;
};

/** Arrivals: the slot, and "Late" once the start has passed without a check-in. */
export function arrivalDetail(b: GateBooking, timeZone: string): string {
  return `${siteTimeRange(b.startTime, b.endTime, timeZone)} · ${b.bayName}`;
}

/** On site: when the vehicle checked in and reached its bay. */
export function onSiteDetail(b: GateBooking, timeZone: string): string {
  const parts = [];
  if (b.checkedInAt) parts.push(`in ${siteTime(b.checkedInAt, timeZone)}`);
  if (b.startedAt) parts.push(`at bay ${siteTime(b.startedAt, timeZone)}`);
  parts.push(`until ${siteTime(b.endTime, timeZone)}`);
  return `${parts.join(' · ')} · ${b.bayName}`;
}

function BookingRow({ booking, timeZone, detail }: { booking: GateBooking; timeZone: string; detail: Props['detail'] }) {
  const problem = booking.isLate || booking.status === 'overstay';
  return (
    <li
      data-booking={booking.tsrNumber}
      data-status={booking.status}
      style={{
        padding: '6px 8px',
        borderBottom: '1px solid var(--mantine-color-gray-2)',
        background: problem ? 'var(--mantine-color-red-0)' : undefined,
        borderLeft: problem ? '4px solid var(--mantine-color-red-7)' : '4px solid transparent',
      }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
        <div style={{ minWidth: 0 }}>
          {/* Wrapped, never cut: the times at the end of the line are what staff look for. */}
          <Anchor component={Link} to={bookingHref(booking.id)} size="sm" fw={600} c="dark.7" style={{ display: 'block', overflowWrap: 'anywhere' }}>
            {booking.tsrNumber}
          </Anchor>
          <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
            {booking.vehicleRegistration} · {booking.tenantName}
          </Text>
          <Text size="xs" c="dark.4">
            {detail(booking, timeZone)}
          </Text>
          {booking.lateEta ? (
            <Text size="xs" fw={700} c="red.9" data-testid="late-eta">
              {lateEtaLabel(booking.lateEta, timeZone)}
            </Text>
          ) : null}
        </div>
        {booking.isLate ? (
          <Badge color="red" variant="filled" size="sm" style={{ flexShrink: 0 }}>
            Late
          </Badge>
        ) : (
          <BookingStatusBadge status={booking.status} size="sm" />
        )}
      </Group>
    </li>
  );
}

/** A titled list of bookings, each linking to where staff act on it. */
export function BookingList({ title, id, bookings, empty, timeZone, detail, testId }: Props) {
  return (
    <div style={{ minWidth: 0 }} data-testid={testId}>
      <Text size="sm" fw={700} c="dark.5" tt="uppercase" id={id} mb={4}>
        {title} ({bookings.length})
      </Text>
      {bookings.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <ul aria-labelledby={id} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {bookings.map((b) => (
            <BookingRow key={b.id} booking={b} timeZone={timeZone} detail={detail} />
          ))}
        </ul>
      )}
    </div>
  );
}
