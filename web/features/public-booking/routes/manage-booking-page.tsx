import { Alert, Badge, Button, Card, Container, Divider, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconCalendarTime, IconInfoCircle, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { VEHICLE_TYPE_LABELS, type VehicleType } from '../../../../domain/enums';
import { ApiError } from '../../../lib/api-client';
import { useManagedBooking } from '../api/get-managed-booking';
import type { ManagedBooking } from '../api/types';
import { ArrivalQr } from '../components/arrival-qr';
import { CancelBookingModal } from '../components/cancel-booking-modal';
import { DriverLiveStatus } from '../components/driver-live-status';
import { HelpContacts } from '../components/help-contacts';
import { MoveBookingPanel } from '../components/move-booking-panel';
import { PageHeader } from '../components/page-header';
import { RunningLatePanel } from '../components/running-late-panel';
import { bookingStatusColor, bookingStatusLabel } from '../utils/booking-status';
import { alertStyles } from '../utils/styles';
import { formatSiteTime, formatSiteTimeRange } from '../utils/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { useManageLive } from '../hooks/use-manage-live';

/** Why a booking can no longer be changed online, by status. */
const FINAL_STATE_MESSAGES: Record<string, string> = {
  cancelled: 'This booking has been cancelled. Its bay has been released. To book again, submit a new request.',
  declined: 'This booking request was declined by the site. Contact the site for the reason, or submit a new request.',
  completed: 'This booking is completed. Thank you for your visit.',
  no_show: 'The vehicle did not arrive within the booking window, so the booking was closed as a no-show.',
  checked_in: 'The vehicle has checked in, so the booking can no longer be changed online. Speak to the dockmaster on site.',
  in_progress: 'The vehicle is at the bay, so the booking can no longer be changed online. Speak to the dockmaster on site.',
  overstay: 'The vehicle is past its booked time at the bay. Speak to the dockmaster on site.',
};

/** Statuses after which nothing more happens at the gate: no live updates. */
const FINISHED_STATUSES = ['cancelled', 'declined', 'completed', 'no_show'];
/** Statuses of a booking not yet at the gate: the arrival code is shown for checking in. */
const ARRIVING_STATUSES = ['pending', 'approved'];

function vehicleText(b: ManagedBooking): string {
  const type = b.vehicleType ? (VEHICLE_TYPE_LABELS[b.vehicleType as VehicleType] ?? b.vehicleType) : null;
  return [type, b.vehicleRegistration].filter(Boolean).join(', ') || 'Not given';
}

function BookingDetails({ booking }: { booking: ManagedBooking }) {
  const rows: Array<[string, string]> = [
    ['Company', booking.tenantName],
    ...(booking.contactName ? ([['Contact', booking.contactName]] as Array<[string, string]>) : []),
    ['Site', booking.siteName],
    ['Bay', booking.bayName],
    ['Date and time', formatSiteTimeRange(booking.startTime, booking.endTime, booking.timeZone)],
    ['Duration', `${booking.durationMin} minutes`],
    ['Vehicle', vehicleText(booking)],
  ];
  return (
    <Table variant="vertical" withTableBorder fz="sm" aria-label="Booking details">
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={{ base: '40%', sm: '30%' }}>{label}</Table.Th>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function LinkProblem({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap="lg">
      <Alert color="red" variant="light" styles={alertStyles} title={title} icon={<IconAlertCircle size={20} aria-hidden />}>
        {children}
      </Alert>
      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h5" mb="sm">
          Contacts
        </Title>
        <HelpContacts />
      </Card>
      <Group>
        <Button component={Link} to="/book">
          Go to booking portal
        </Button>
      </Group>
    </Stack>
  );
}

/** /book/manage/:token: the haulier's private view of one booking, to cancel or move it. */
export default function ManageBookingPage() {
  usePageTitle('Your Booking');
  const { token = '' } = useParams();
  const query = useManagedBooking(token);
  const [isCancelOpen, setCancelOpen] = useState(false);
  const [isMoving, setMoving] = useState(false);
  // The driver's live page on the day: the socket follows this one booking until its visit is over.
  const isLive = !!query.data?.live && !FINISHED_STATUSES.includes(query.data.status);
  useManageLive(token, isLive);

  let content: React.ReactNode;
  if (query.isPending) {
    content = (
      <Group gap="xs">
        <Loader size="sm" />
        <Text size="sm">Loading your booking...</Text>
      </Group>
    );
  } else if (query.isError) {
    const isNotFound = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 410);
    content = isNotFound ? (
      <LinkProblem title="This booking link is invalid or has expired">
        The link may have been mistyped, or the booking it belongs to is no longer available. Check the link in your confirmation
        e-mail, or contact the site.
      </LinkProblem>
    ) : (
      <LinkProblem title="Your booking could not be loaded">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{query.error.message}</Text>
          <Button size="xs" variant="default" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Stack>
      </LinkProblem>
    );
  } else {
    const booking = query.data;
    const isChangeable = booking.canCancel || booking.canReschedule;
    // On the day the code is what the driver needs first: right under the live state.
    const arrivalCard = ARRIVING_STATUSES.includes(booking.status) ? (
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="arrival-code-title">
        <Title order={2} size="h4" mb={4} id="arrival-code-title">
          Arrival code
        </Title>
        <Text size="sm" c="gray.7" mb="md">
          Show this at the gate: scan it at the gate kiosk, or read the code out to the gate staff.
        </Text>
        <ArrivalQr code={booking.arrivalCode} />
      </Card>
    ) : null;
    content = (
      <Stack gap="lg">
        <DriverLiveStatus booking={booking} />
        {booking.live ? arrivalCard : null}
        <Card withBorder radius="md" padding="lg">
          <Group justify="space-between" align="flex-start" mb="md" wrap="wrap" gap="sm">
            <div>
              <Text size="sm" c="gray.7">
                Booking reference
              </Text>
              <Title order={2} size="h3">
                {booking.reference}
              </Title>
            </div>
            <Badge size="lg" variant="dot" color={bookingStatusColor(booking.status)} data-testid="booking-status">
              {bookingStatusLabel(booking.status)}
            </Badge>
          </Group>
          <BookingDetails booking={booking} />
          <Text size="xs" c="gray.7" mt="xs">
            Times are local to the site ({booking.timeZone}). Arrive at the gate from{' '}
            {formatSiteTime(new Date(new Date(booking.startTime).getTime() - 15 * 60_000).toISOString(), booking.timeZone)}.
          </Text>

          {isChangeable && !isMoving ? (
            <>
              <Divider my="md" />
              <Group gap="sm">
                {booking.canReschedule ? (
                  <Button leftSection={<IconCalendarTime size={18} aria-hidden />} onClick={() => setMoving(true)}>
                    Move booking
                  </Button>
                ) : null}
                {booking.canCancel ? (
                  <Button color="red.9" variant="outline" leftSection={<IconX size={18} aria-hidden />} onClick={() => setCancelOpen(true)}>
                    Cancel booking
                  </Button>
                ) : null}
              </Group>
            </>
          ) : null}
          {!isChangeable ? (
            <Alert mt="md" color="gray" variant="light" styles={alertStyles} icon={<IconInfoCircle size={18} aria-hidden />} role="status">
              {FINAL_STATE_MESSAGES[booking.status] ?? 'This booking can no longer be changed online. Please contact the site.'}
            </Alert>
          ) : null}
        </Card>

        {!booking.live ? arrivalCard : null}

        <RunningLatePanel token={token} booking={booking} />

        {isMoving && booking.canReschedule ? (
          <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="move-booking-title">
            <Title order={2} size="h4" mb="sm" id="move-booking-title">
              Move booking
            </Title>
            <MoveBookingPanel token={token} booking={booking} onDone={() => setMoving(false)} />
          </Card>
        ) : null}

        <CancelBookingModal token={token} booking={booking} opened={isCancelOpen} onClose={() => setCancelOpen(false)} />
      </Stack>
    );
  }

  return (
    <Container size="md" py="xl">
      <PageHeader title="Manage your booking" description="Check the status of your booking, move it to another time or cancel it." />
      {content}
    </Container>
  );
}
