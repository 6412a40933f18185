import { Button, Group, Paper, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import type { DashboardBooking } from '../../../../domain/org-dashboard';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { isStaleBooking, useTransitionBooking } from '../api/transition-booking';
import { DeclineBookingModal } from './decline-booking-modal';
import { siteDay, siteTimeRange, vehicleLabel } from './format';
import { BookingStatusBadge } from '../../../components/ui/booking-status';

type RecentRequestsProps = {
  orgId: string;
  bookings: DashboardBooking[] | undefined;
  isLoading: boolean;
  isError: boolean;
};

/** The latest booking requests; pending ones can be approved or declined from here. */
export function RecentRequests({ orgId, bookings, isLoading, isError }: RecentRequestsProps) {
  const approve = useTransitionBooking();
  const [declining, setDeclining] = useState<DashboardBooking | null>(null);

  const handleApprove = (booking: DashboardBooking) => {
    approve.mutate(
      { orgId, bookingId: booking.id, to: 'approved', version: booking.version },
      {
        onSuccess: () => toast.success('Booking approved', `${booking.tsrNumber} is approved; the haulier has been told.`),
        onError: (error) =>
          isStaleBooking(error)
            ? toast.error('Booking changed', errorMessage(error, 'This booking has changed. The list has been refreshed.'))
            : toast.error('Approval Failed', errorMessage(error, 'Failed to approve the booking')),
      },
    );
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="recent-requests-heading">
      <Title order={2} size="h4" id="recent-requests-heading" mb="sm">
        Recent Booking Requests
      </Title>
      {isLoading ? (
        <Stack gap="xs">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={36} />
          ))}
        </Stack>
      ) : isError ? (
        <Text size="sm" c="red.9">
          Error loading data
        </Text>
      ) : !bookings || bookings.length === 0 ? (
        <Text size="sm" c="dimmed">
          No booking requests yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720} type="native" tabIndex={0} role="region" aria-label="Recent booking requests, scrolls sideways">
          <Table verticalSpacing="xs" aria-labelledby="recent-requests-heading" data-testid="recent-requests">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>TSR number</Table.Th>
                <Table.Th>Tenant</Table.Th>
                <Table.Th>Bay</Table.Th>
                <Table.Th>Time</Table.Th>
                <Table.Th>Vehicle</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {bookings.map((b) => {
                const isBusy = approve.isPending && approve.variables?.bookingId === b.id;
                return (
                  <Table.Tr key={b.id} data-booking-id={b.id}>
                    <Table.Td fw={600}>{b.tsrNumber}</Table.Td>
                    <Table.Td>{b.tenantName}</Table.Td>
                    <Table.Td>
                      {b.bayName}
                      <Text size="xs" c="dimmed">
                        {b.siteName}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {siteTimeRange(b.startTime, b.endTime, b.timeZone)}
                      <Text size="xs" c="dimmed">
                        {siteDay(b.startTime, b.timeZone)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{vehicleLabel(b.vehicleType)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <BookingStatusBadge status={b.status} />
                    </Table.Td>
                    <Table.Td>
                      {b.status === 'pending' ? (
                        <Group gap={6} wrap="nowrap" justify="flex-end">
                          <Button size="xs" variant="default" c="red.9" onClick={() => setDeclining(b)} disabled={isBusy} aria-label={`Decline ${b.tsrNumber}`}>
                            Decline
                          </Button>
                          <Button size="xs" onClick={() => handleApprove(b)} loading={isBusy} aria-label={`Approve ${b.tsrNumber}`}>
                            Approve
                          </Button>
                        </Group>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <DeclineBookingModal orgId={orgId} booking={declining} onClose={() => setDeclining(null)} />
    </Paper>
  );
}
