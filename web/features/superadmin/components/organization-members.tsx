import { Badge, Paper, Table, Text, Title } from '@mantine/core';
import type { OrganizationDetail } from '../../../../domain/platform-admin';
import { formatDayTime, roleLabel } from './format';

const badgeStyles = { root: { color: 'var(--mantine-color-dark-7)' } };

/** The organization's members: who, in which role, active or not, last sign-in. */
export function OrganizationMembers({ members }: { members: OrganizationDetail['members'] }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="members-heading">
      <Title order={2} size="h4" id="members-heading" mb="sm">
        Members
      </Title>
      {members.length === 0 ? (
        <Text size="sm" c="dimmed">
          No members yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" aria-labelledby="members-heading" data-testid="organization-members">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Member</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Employee ID</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Last sign-in</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.map((member) => (
                <Table.Tr key={member.id}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {member.fullName ?? member.email}
                    </Text>
                    {member.fullName ? (
                      <Text size="xs" c="dimmed">
                        {member.email}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{roleLabel(member.role)}</Table.Td>
                  <Table.Td>{member.employeeId ?? '—'}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={member.active ? 'green' : 'gray'} styles={badgeStyles}>
                      {member.active ? 'Active' : 'Inactive'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{member.lastSignInAt ? formatDayTime(member.lastSignInAt) : 'Never'}</Text>
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
