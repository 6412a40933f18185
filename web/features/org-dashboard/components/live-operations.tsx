import { Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { DashboardBooking, OrgDashboard } from '../../../../domain/org-dashboard';
import { siteTimeRange } from './format';
import { BookingStatusBadge } from '../../../components/ui/booking-status';

type LiveOperationsProps = {
  live: OrgDashboard['liveOperations'] | undefined;
  isLoading: boolean;
  isError: boolean;
  /** Show the site beside the bay (the whole organization is shown). */
  showSite: boolean;
};

function BookingLine({ booking, showSite }: { booking: DashboardBooking; showSite: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" py={6} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={600} truncate>
          {booking.bayName} · {booking.tenantName}
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {siteTimeRange(booking.startTime, booking.endTime, booking.timeZone)} · {booking.vehicleRegistration}
          {showSite ? ` · ${booking.siteName}` : ''}
        </Text>
      </div>
      <BookingStatusBadge status={booking.status} />
    </Group>
  );
}

function BookingColumn({ title, id, bookings, empty, showSite }: { title: string; id: string; bookings: DashboardBooking[]; empty: string; showSite: boolean }) {
  return (
    <div>
      <Text size="sm" fw={700} c="dimmed" tt="uppercase" id={id} mb={4}>
        {title} ({bookings.length})
      </Text>
      {bookings.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <ul aria-labelledby={id} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {bookings.map((b) => (
            <li key={b.id}>
              <BookingLine booking={b} showSite={showSite} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Vehicles on site now, and who arrives next today. */
export function LiveOperations({ live, isLoading, isError, showSite }: LiveOperationsProps) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="live-operations-heading">
      <Title order={2} size="h4" id="live-operations-heading" mb="sm">
        Live Operations
      </Title>
      {isLoading ? (
        <Stack gap="xs">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={36} />
          ))}
        </Stack>
      ) : isError || !live ? (
        <Text size="sm" c="red.9">
          Error loading data
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" data-testid="live-operations">
          <BookingColumn title="On site now" id="live-on-site" bookings={live.onSite} empty="No vehicles on site." showSite={showSite} />
          <BookingColumn title="Next arrivals today" id="live-next" bookings={live.nextArrivals} empty="No more arrivals today." showSite={showSite} />
        </SimpleGrid>
      )}
    </Paper>
  );
}
