import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { planLabel, type OrganizationListItem } from '../../../../domain/platform-admin';
import { paths } from '../../../app/paths';
import { formatCount } from '../../../lib/format';
import { formatDay } from './format';
import { OrganizationStatusBadge } from './organization-status-badge';

/** One row per organization (spec §7 "Organization list"): status, plan, created, active sites and bays. */
export function OrganizationsTable({ items }: { items: OrganizationListItem[] }) {
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table highlightOnHover verticalSpacing="sm" aria-label="Organizations" data-testid="organizations-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th miw={220}>Organization</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Plan</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th ta="right">Active sites</Table.Th>
            <Table.Th ta="right">Active bays</Table.Th>
            <Table.Th ta="right">Members</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((org) => (
            <Table.Tr key={org.id} data-organization={org.name}>
              <Table.Td>
                <Anchor component={Link} to={paths.superadmin.organization(org.id)} fw={600} fz="sm">
                  {org.name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {org.slug}
                </Text>
              </Table.Td>
              <Table.Td>
                <OrganizationStatusBadge status={org.status} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" c={org.plan ? undefined : 'dimmed'}>
                  {planLabel(org.plan)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatDay(org.createdAt)}</Text>
              </Table.Td>
              <Table.Td ta="right" data-field="activeSites">
                {formatCount(org.activeSites)}
              </Table.Td>
              <Table.Td ta="right" data-field="activeBays">
                {formatCount(org.activeBays)}
              </Table.Td>
              <Table.Td ta="right" data-field="activeMembers">
                {formatCount(org.activeMembers)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
