import { Badge, Group, Paper, Table, Text, Title } from '@mantine/core';
import type { OrganizationDetail } from '../../../../domain/platform-admin';

const badgeStyles = { root: { color: 'var(--mantine-color-dark-7)', textTransform: 'none' as const } };

/** Each site with its bays (clearance, active or not). */
export function OrganizationSites({ sites }: { sites: OrganizationDetail['sites'] }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="sites-heading">
      <Title order={2} size="h4" id="sites-heading" mb="sm">
        Sites and bays
      </Title>
      {sites.length === 0 ? (
        <Text size="sm" c="dimmed">
          No sites yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm" aria-labelledby="sites-heading" data-testid="organization-sites">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Site</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Active bays</Table.Th>
                <Table.Th>Bays (clearance)</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sites.map((site) => (
                <Table.Tr key={site.id} data-site={site.name}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {site.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {site.timeZone}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={site.active ? 'green' : 'gray'} styles={badgeStyles}>
                      {site.active ? 'Active' : 'Inactive'}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">{site.bays.filter((bay) => bay.active).length}</Table.Td>
                  <Table.Td>
                    {site.bays.length === 0 ? (
                      <Text size="sm" c="dimmed">
                        No bays
                      </Text>
                    ) : (
                      <Group gap={4}>
                        {site.bays.map((bay) => (
                          <Badge
                            key={bay.id}
                            variant={bay.active ? 'light' : 'outline'}
                            color={bay.active ? 'indigo' : 'gray'}
                            styles={badgeStyles}
                            title={bay.features.length ? bay.features.join(', ') : undefined}
                          >
                            {bay.name} · {bay.heightClearanceM.toFixed(1)} m{bay.active ? '' : ' · inactive'}
                          </Badge>
                        ))}
                      </Group>
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
