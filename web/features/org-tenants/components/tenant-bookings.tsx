import { Alert, Anchor, Group, Loader, Pagination, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { VEHICLE_TYPE_LABELS, type VehicleType } from '../../../../domain/enums';
import { paths } from '../../../app/paths';
import { BookingStatusBadge } from '../../../components/ui/booking-status';
import { errorMessage } from '../../../lib/api-client';
import { useTenantBookings } from '../api/org-tenants-api';
import { alertStyles, formatSiteRange } from '../utils/tenant-display';

/** The tenant's bookings, latest first, a page at a time; each opens in the bookings workspace. */
export function TenantBookings({ orgId, tenantId }: { orgId: string; tenantId: string }) {
  const [page, setPage] = useState(1);
  const bookings = useTenantBookings(orgId, tenantId, page);
  const total = bookings.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / (bookings.data?.pageSize ?? 10)));

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Bookings
          </Title>
          <Text size="sm" c="dimmed">
            {bookings.data ? `${total} linked booking${total === 1 ? '' : 's'}` : ''}
          </Text>
        </Group>
        {bookings.isLoading ? (
          <Group justify="center" py="lg">
            <Loader aria-label="Loading bookings" />
          </Group>
        ) : bookings.isError ? (
          <Alert styles={alertStyles} color="red" title="Could not load bookings">
            {errorMessage(bookings.error, 'Try again in a moment.')}
          </Alert>
        ) : total === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            No bookings are linked to this tenant yet. Portal requests from its domains, contacts or name will appear here.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="xs" aria-label="Tenant bookings">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>TSR Number</Table.Th>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Site and bay</Table.Th>
                  <Table.Th>Vehicle</Table.Th>
                  <Table.Th>Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {bookings.data!.items.map((b) => (
                  <Table.Tr key={b.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`${paths.org.bookings}?booking=${encodeURIComponent(b.id)}`} fw={600} fz="sm" aria-label={`Open booking ${b.tsrNumber}`}>
                        {b.tsrNumber}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatSiteRange(b.startTime, b.endTime, b.timeZone)}</Text>
                    </Table.Td>
                    <Table.Td>
                      {b.siteName}, {b.bayName}
                    </Table.Td>
                    <Table.Td>
                      {VEHICLE_TYPE_LABELS[b.vehicleType as VehicleType] ?? b.vehicleType}, {b.vehicleRegistration}
                    </Table.Td>
                    <Table.Td>
                      <BookingStatusBadge status={b.status} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {pages > 1 ? (
          <Group justify="flex-end">
            <Pagination total={pages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
