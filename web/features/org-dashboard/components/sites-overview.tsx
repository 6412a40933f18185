import { Paper, Progress, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { DashboardSite } from '../../../../domain/org-dashboard';
import { formatCount } from '../../../lib/format';

type SitesOverviewProps = { sites: DashboardSite[] | undefined; isLoading: boolean; isError: boolean };

/** Each active site: its bays, how many hold a vehicle now, today's bookings and utilization. */
export function SitesOverview({ sites, isLoading, isError }: SitesOverviewProps) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="sites-overview-heading">
      <Title order={2} size="h4" id="sites-overview-heading" mb="sm">
        Sites Overview
      </Title>
      {isLoading ? (
        <Stack gap="xs">
          {[0, 1].map((i) => (
            <Skeleton key={i} height={36} />
          ))}
        </Stack>
      ) : isError ? (
        <Text size="sm" c="red.9">
          Error loading data
        </Text>
      ) : !sites || sites.length === 0 ? (
        <Text size="sm" c="dimmed">
          No active sites.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560} type="native" tabIndex={0} role="region" aria-label="Sites overview, scrolls sideways">
          <Table verticalSpacing="xs" aria-labelledby="sites-overview-heading" data-testid="sites-overview">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Site</Table.Th>
                <Table.Th ta="right">Active bays</Table.Th>
                <Table.Th ta="right">Occupied now</Table.Th>
                <Table.Th ta="right">Today&apos;s bookings</Table.Th>
                <Table.Th w={200}>Utilization</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sites.map((site) => (
                <Table.Tr key={site.id} data-site={site.name}>
                  <Table.Td fw={600}>{site.name}</Table.Td>
                  <Table.Td ta="right" data-field="activeBays">
                    {formatCount(site.activeBays)}
                  </Table.Td>
                  <Table.Td ta="right" data-field="occupiedBays">
                    {formatCount(site.occupiedBays)}
                  </Table.Td>
                  <Table.Td ta="right" data-field="todaysBookings">
                    {formatCount(site.todaysBookings)}
                  </Table.Td>
                  <Table.Td data-field="utilisation">
                    {site.isOpenToday ? (
                      <Stack gap={2}>
                        <Text size="sm">{site.utilisationPercent}%</Text>
                        <Progress value={site.utilisationPercent} size="sm" aria-label={`${site.name} utilization ${site.utilisationPercent}%`} />
                      </Stack>
                    ) : (
                      <Text size="sm" c="dimmed">
                        Closed today
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
