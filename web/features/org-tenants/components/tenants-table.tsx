import { ActionIcon, Anchor, Group, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconBan, IconLockOpen, IconPencil } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { TenantListItem } from '../../../../domain/org-tenants';
import { paths } from '../../../app/paths';
import { TenantPolicyBadges, TenantStatusBadge } from './tenant-badges';

type Props = {
  items: TenantListItem[];
  canEdit: boolean;
  onEdit: (tenant: TenantListItem) => void;
  onToggleBlock: (tenant: TenantListItem) => void;
};

/** One row per tenant: its page, contacts, domains, policy, status and bookings; admins get edit and block. */
export function TenantsTable({ items, canEdit, onEdit, onToggleBlock }: Props) {
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table highlightOnHover verticalSpacing="sm" aria-label="Tenants">
        <Table.Thead>
          <Table.Tr>
            <Table.Th miw={200}>Company</Table.Th>
            <Table.Th>Contacts</Table.Th>
            <Table.Th>E-mail domains</Table.Th>
            <Table.Th>Policy</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Bookings</Table.Th>
            {canEdit ? <Table.Th w={96}><VisuallyHidden>Actions</VisuallyHidden></Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((tenant) => (
            <Table.Tr key={tenant.id}>
              <Table.Td>
                <Anchor component={Link} to={paths.org.tenant(tenant.id)} fw={600} fz="sm">
                  {tenant.name}
                </Anchor>
                {tenant.phone ? (
                  <Text size="xs" c="dimmed">
                    {tenant.phone}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                {tenant.contactEmails.length ? (
                  <Stack gap={0}>
                    {tenant.contactEmails.slice(0, 2).map((email) => (
                      <Text key={email} size="sm">
                        {email}
                      </Text>
                    ))}
                    {tenant.contactEmails.length > 2 ? (
                      <Text size="xs" c="dimmed">
                        and {tenant.contactEmails.length - 2} more
                      </Text>
                    ) : null}
                  </Stack>
                ) : (
                  <Text size="sm" c="dimmed">
                    —
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{tenant.emailDomains.length ? tenant.emailDomains.join(', ') : '—'}</Text>
              </Table.Td>
              <Table.Td>
                <TenantPolicyBadges tenant={tenant} />
              </Table.Td>
              <Table.Td>
                <TenantStatusBadge status={tenant.status} />
              </Table.Td>
              <Table.Td ta="right">{tenant.bookingCount}</Table.Td>
              {canEdit ? (
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Tooltip label="Edit">
                      <ActionIcon variant="subtle" aria-label={`Edit ${tenant.name}`} onClick={() => onEdit(tenant)}>
                        <IconPencil size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={tenant.status === 'active' ? 'Block' : 'Unblock'}>
                      <ActionIcon
                        variant="subtle"
                        color={tenant.status === 'active' ? 'red' : 'green'}
                        aria-label={`${tenant.status === 'active' ? 'Block' : 'Unblock'} ${tenant.name}`}
                        onClick={() => onToggleBlock(tenant)}
                      >
                        {tenant.status === 'active' ? <IconBan size={18} aria-hidden /> : <IconLockOpen size={18} aria-hidden />}
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
