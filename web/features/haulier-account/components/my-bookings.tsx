import { Alert, Anchor, Button, Group, Loader, Pagination, Stack, Table, Tabs, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { BookingStatus } from '../../../../domain/enums';
import type { HaulierBookingScope } from '../../../../domain/haulier-accounts';
import { BookingStatusBadge } from '../../../components/ui/booking-status';
import { errorMessage } from '../../../lib/api-client';
import { useHaulierBookings } from '../api/get-haulier-bookings';
import { useT } from '../../../i18n/index';
import { formatSiteSlot } from '../utils/format-site-time';

function BookingsTable({ scope }: { scope: HaulierBookingScope }) {
  const { t, language } = useT('account');
  const [page, setPage] = useState(1);
  const bookings = useHaulierBookings(scope, page);

  if (bookings.isPending) {
    return (
      <Group gap="xs" py="md">
        <Loader size="sm" />
        <Text size="sm">{t('bookings.loading')}</Text>
      </Group>
    );
  }
  if (bookings.isError) {
    return (
      <Alert color="red" variant="light" title={t('bookings.loadFailed')} mt="md">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(bookings.error, t('bookings.loadFailed'))}</Text>
          <Button size="xs" variant="default" onClick={() => void bookings.refetch()}>
            {t('common.tryAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  const { items, total, pageSize } = bookings.data;
  if (items.length === 0) {
    return (
      <Text size="sm" py="md">
        {scope === 'upcoming' ? t('bookings.emptyUpcoming') : t('bookings.emptyPast')}
      </Text>
    );
  }
  return (
    <Stack gap="sm" mt="sm">
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm" striped aria-label={scope === 'upcoming' ? t('bookings.upcoming') : t('bookings.past')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('bookings.organization')}</Table.Th>
              <Table.Th>{t('bookings.site')}</Table.Th>
              <Table.Th>{t('bookings.when')}</Table.Th>
              <Table.Th>{t('bookings.vehicle')}</Table.Th>
              <Table.Th>{t('bookings.status')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('bookings.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((booking) => (
              <Table.Tr key={booking.id}>
                <Table.Td fw={600}>{booking.organizationName}</Table.Td>
                <Table.Td>{booking.siteName}</Table.Td>
                <Table.Td>
                  <Text size="sm">{formatSiteSlot(booking.startTime, booking.endTime, booking.timeZone, language)}</Text>
                  <Text size="xs" c="gray.7">
                    {t('bookings.siteTime', { timeZone: booking.timeZone })}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {booking.vehicleRegistration}
                  <Text size="xs" c="gray.7">
                    {booking.tsrNumber}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <BookingStatusBadge status={booking.status as BookingStatus} label={t(`status.${booking.status}`)} />
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap" justify="flex-end">
                    {booking.manageUrl ? (
                      <Button component="a" href={booking.manageUrl} size="xs" variant="default" aria-label={t('bookings.manageLabel', { reference: booking.tsrNumber })}>
                        {t('bookings.manage')}
                      </Button>
                    ) : null}
                    <Button
                      component={Link}
                      to={`/book/request?rebook=${encodeURIComponent(booking.id)}`}
                      size="xs"
                      variant="light"
                      aria-label={t('bookings.rebookLabel', { reference: booking.tsrNumber })}
                    >
                      {t('bookings.rebook')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {total > pageSize ? <Pagination total={Math.ceil(total / pageSize)} value={page} onChange={setPage} size="sm" aria-label={t('bookings.pages')} /> : null}
    </Stack>
  );
}

/** "My bookings": Upcoming and Past, across every organization booked with the haulier's address. */
export function MyBookings() {
  const { t } = useT('account');
  return (
    <Tabs defaultValue="upcoming" keepMounted={false}>
      <Tabs.List>
        <Tabs.Tab value="upcoming">{t('bookings.upcoming')}</Tabs.Tab>
        <Tabs.Tab value="past">{t('bookings.past')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="upcoming">
        <BookingsTable scope="upcoming" />
      </Tabs.Panel>
      <Tabs.Panel value="past">
        <BookingsTable scope="past" />
      </Tabs.Panel>
      <Text size="xs" c="gray.7" mt="xs">
        {t('bookings.onlyYours')}
      </Text>
      <Anchor component={Link} to="/book/request" size="sm" mt="sm" display="inline-block">
        {t('bookings.newBooking')}
      </Anchor>
    </Tabs>
  );
}
