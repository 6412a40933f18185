import { Button, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { TeamInvitation } from '../../../../../domain/org-team';
import { TeamBadge } from './team-badge';
import { formatWhen, roleLabel } from './team-format';

type Props = {
  invitations: TeamInvitation[];
  canManage: boolean;
  resendingId: string | null;
  onResend: (invitation: TeamInvitation) => void;
  onRevoke: (invitation: TeamInvitation) => void;
};

/** Invitations not yet accepted; an expired one can be sent again with a new link. */
export function InvitationsTable({ invitations, canManage, resendingId, onResend, onRevoke }: Props) {
  return (
    <Table.ScrollContainer minWidth={canManage ? 900 : 700}>
      <Table verticalSpacing="sm" style={{ whiteSpace: 'nowrap' }} aria-label="Pending invitations">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Email</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Employee ID</Table.Th>
            <Table.Th>Sent</Table.Th>
            <Table.Th>Expires</Table.Th>
            {canManage ? (
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invitations.map((i) => (
            <Table.Tr key={i.id}>
              <Table.Td>
                <Stack gap={0}>
                  <Text size="sm">{i.email}</Text>
                  {i.fullName ? (
                    <Text size="xs" c="dimmed">
                      {i.fullName}
                    </Text>
                  ) : null}
                </Stack>
              </Table.Td>
              <Table.Td>{roleLabel(i.role)}</Table.Td>
              <Table.Td>{i.employeeId ?? '—'}</Table.Td>
              <Table.Td>
                <Text size="sm">{formatWhen(i.lastSentAt)}</Text>
              </Table.Td>
              <Table.Td>
                {i.isExpired ? (
                  <TeamBadge color="orange">
                    Expired
                  </TeamBadge>
                ) : (
                  <Text size="sm">{formatWhen(i.expiresAt)}</Text>
                )}
              </Table.Td>
              {canManage ? (
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button
                      size="compact-sm"
                      variant="default"
                      onClick={() => onResend(i)}
                      loading={resendingId === i.id}
                      aria-label={`Resend the invitation to ${i.email}`}
                    >
                      Resend
                    </Button>
                    <Button size="compact-sm" variant="subtle" color="red" c="red.9" onClick={() => onRevoke(i)} aria-label={`Revoke the invitation to ${i.email}`}>
                      Revoke
                    </Button>
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
