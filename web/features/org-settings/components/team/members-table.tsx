import { Badge, Button, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import type { TeamMember } from '../../../../../domain/org-team';
import { TeamBadge } from './team-badge';
import { formatWhen, roleLabel } from './team-format';

type Props = {
  members: TeamMember[];
  canManage: boolean;
  onEdit: (member: TeamMember) => void;
  onSetActive: (member: TeamMember, active: boolean) => void;
};

/** One row per member; admins edit, deactivate and reactivate from the row. */
export function MembersTable({ members, canManage, onEdit, onSetActive }: Props) {
  return (
    <Table.ScrollContainer minWidth={canManage ? 820 : 640}>
      <Table verticalSpacing="sm" style={{ whiteSpace: 'nowrap' }} aria-label="Team members">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Member</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Employee ID</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Last sign-in</Table.Th>
            {canManage ? (
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {members.map((m) => {
            const name = m.fullName || m.email;
            return (
              <Table.Tr key={m.id}>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm" fw={500}>
                      {name}
                    </Text>
                    {m.isYou ? (
                      <Badge size="xs" variant="outline" color="dark" styles={{ root: { overflow: 'visible', flexShrink: 0, minWidth: 'max-content' }, label: { overflow: 'visible' } }}>
                        You
                      </Badge>
                    ) : null}
                  </Group>
                  {m.fullName ? (
                    <Text size="xs" c="dimmed">
                      {m.email}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{roleLabel(m.role)}</Table.Td>
                <Table.Td>{m.employeeId ?? '—'}</Table.Td>
                <Table.Td>
                  {m.active ? (
                    <TeamBadge color="green">
                      Active
                    </TeamBadge>
                  ) : (
                    <TeamBadge color="gray" title={m.deactivatedAt ? `Since ${formatWhen(m.deactivatedAt)}` : undefined}>
                      Deactivated
                    </TeamBadge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatWhen(m.lastSignInAt, 'Never')}</Text>
                </Table.Td>
                {canManage ? (
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="compact-sm" variant="default" onClick={() => onEdit(m)} aria-label={`Edit ${name}`}>
                        Edit
                      </Button>
                      {m.isYou ? null : m.active ? (
                        <Button size="compact-sm" variant="subtle" color="red" c="red.9" onClick={() => onSetActive(m, false)} aria-label={`Deactivate ${name}`}>
                          Deactivate
                        </Button>
                      ) : (
                        <Button size="compact-sm" variant="subtle" onClick={() => onSetActive(m, true)} aria-label={`Reactivate ${name}`}>
                          Reactivate
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                ) : null}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
