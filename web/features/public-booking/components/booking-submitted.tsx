import { Anchor, Button, Card, Group, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { REVIEW_PROMISE_HOURS } from '../../../../domain/constants';
import type { CreatedBooking } from '../api/types';
import { ArrivalQr } from './arrival-qr';
import { bookingStatusLabel } from '../utils/booking-status';
import { formatSiteTimeRange } from '../utils/format';

/** The in-app path of the manage link, whatever host the server put in front of it. */
function managePathOf(manageUrl: string | null | undefined): string | null {
  if (!manageUrl) return null;
  try {
    const path = new URL(manageUrl, window.location.origin).pathname;
    return path.startsWith('/book/manage/') ? path : null;
  } catch {
    return null;
  }
}

/** What the haulier sees once a request has been accepted (spec §2). */
export function BookingSubmitted({ booking, tsrNumber }: { booking: CreatedBooking; tsrNumber: string }) {
  const managePath = managePathOf(booking.manageUrl);
  return (
    <Card withBorder radius="md" padding="xl" maw={640} mx="auto">
      <Stack align="center" gap="md" ta="center">
        <ThemeIcon color="green" size={64} radius="xl" variant="light">
          <IconCircleCheck size={40} aria-hidden />
        </ThemeIcon>
        <Title order={1} size="h2">
          Booking Request Submitted!
        </Title>
        {booking.status === 'pending' ? (
          <Text>
            A confirmation email will arrive shortly. The operations team will review your request within {REVIEW_PROMISE_HOURS} hours
            during business hours.
          </Text>
        ) : (
          <Text>A confirmation email will arrive shortly. Your booking is approved: please arrive on time and check in at the gate.</Text>
        )}

        <Table withTableBorder variant="vertical" fz="sm" ta="left" w="100%" aria-label="Your booking">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w="40%">Reference</Table.Th>
              <Table.Td>{booking.reference}</Table.Td>
            </Table.Tr>
            {tsrNumber !== booking.reference ? (
              <Table.Tr>
                <Table.Th>TSR number</Table.Th>
                <Table.Td>{tsrNumber}</Table.Td>
              </Table.Tr>
            ) : null}
            <Table.Tr>
              <Table.Th>Site and bay</Table.Th>
              <Table.Td>
                {booking.siteName}, {booking.bayName}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Td>{formatSiteTimeRange(booking.startTime, booking.endTime, booking.timeZone)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Status</Table.Th>
              <Table.Td>{bookingStatusLabel(booking.status)}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <ArrivalQr code={booking.arrivalCode} />
        <Text size="sm" c="gray.7">
          Show this code at the gate on the day: scan it at the gate kiosk, or read it out to the gate staff.
        </Text>
        <Text size="sm" c="gray.7">
          The e-mail contains a calendar file and a private link to check, move or cancel this booking.
          {booking.documents ? ` ${booking.documents} document${booking.documents === 1 ? '' : 's'} attached.` : ''}
        </Text>
        {managePath ? (
          <Anchor component={Link} to={managePath} size="sm">
            View, move or cancel this booking
          </Anchor>
        ) : null}

        <Group justify="center" gap="sm" mt="sm">
          <Button component={Link} to="/book">
            Submit Another Booking
          </Button>
          <Button component={Link} to="/" variant="default">
            Back to Home
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
