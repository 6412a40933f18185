import { Alert, Button, Group, Loader, Pagination, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { TeamInvitation, TeamMember } from '../../../../../domain/org-team';
import { errorMessage } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { useOrgSelection } from '../../../org/hooks/use-org-selection';
import { useResendInvitation, useRevokeInvitation, useSetMemberActive, useTeam } from '../../api/team-api';
import { ConfirmModal } from './confirm-modal';
import { EditMemberModal } from './edit-member-modal';
import { InvitationsTable } from './invitations-table';
import { InviteMemberModal } from './invite-member-modal';
import { MembersTable } from './members-table';

// Settings › Team: the organization's members and pending invitations. Admins invite people by
// e-mail, change roles and employee IDs, deactivate and reactivate members (each after a
// confirmation), and resend or revoke invitations. Live 'member' events refresh the lists.

const PAGE_SIZE = 25;

type Pending =
  | { kind: 'deactivate' | 'reactivate'; member: TeamMember }
  | { kind: 'revoke'; invitation: TeamInvitation }
  | null;

const matches = (member: TeamMember, q: string) =>
  [member.fullName, member.email, member.employeeId].some((field) => field?.toLowerCase().includes(q));

export function TeamSection() {
  const { selectedOrg } = useOrgSelection();
  const orgId = selectedOrg?.id ?? '';
  const team = useTeam(selectedOrg?.id);
  const [isInviteOpen, setInviteOpen] = useState(false);
  const [editing, setEditing] = useState<TeamMember | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const setActive = useSetMemberActive(orgId);
  const revoke = useRevokeInvitation(orgId);
  const resend = useResendInvitation(orgId);

  if (!selectedOrg) return <Text c="dimmed">Choose an organization to see its team.</Text>;
  if (team.isLoading) {
    return (
      <Group justify="center" py="xl">
        <Loader aria-label="Loading the team" />
      </Group>
    );
  }
  if (team.isError || !team.data) {
    return (
      <Alert color="red" title="Could not load the team" role="alert">
        {errorMessage(team.error, 'Try again in a moment.')}
      </Alert>
    );
  }

  const { members, invitations, canManage } = team.data;
  const q = search.trim().toLowerCase();
  const shown = q ? members.filter((m) => matches(m, q)) : members;
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const currentPage = Math.min(page, pages);
  const pageItems = shown.slice((currentPage - 1) * PAGE_SIZE, currentPage * PAGE_SIZE);
  const activeCount = members.filter((m) => m.active).length;

  const closeConfirm = () => {
    setPending(null);
    setConfirmError(null);
  };
  const confirm = () => {
    if (!pending) return;
    const onError = (error: Error) => setConfirmError(errorMessage(error, 'The change could not be made.'));
    if (pending.kind === 'revoke') {
      revoke.mutate(pending.invitation.id, {
        onSuccess: () => {
          toast.success('Invitation revoked', `The link sent to ${pending.invitation.email} no longer works.`);
          closeConfirm();
        },
        onError,
      });
      return;
    }
    const name = pending.member.fullName || pending.member.email;
    setActive.mutate(
      { id: pending.member.id, active: pending.kind === 'reactivate' },
      {
        onSuccess: () => {
          if (pending.kind === 'deactivate') toast.success('Member deactivated', `${name} has been signed out and can no longer sign in.`);
          else toast.success('Member reactivated', `${name} can sign in again.`);
          closeConfirm();
        },
        onError,
      },
    );
  };
  const sendAgain = (invitation: TeamInvitation) =>
    resend.mutate(invitation.id, {
      onSuccess: () => toast.success('Invitation sent again', `A new link is on its way to ${invitation.email}; the previous one no longer works.`),
      onError: (error) => toast.error('Not sent', errorMessage(error, 'The invitation could not be sent again.')),
    });

  const pendingName = pending && pending.kind !== 'revoke' ? pending.member.fullName || pending.member.email : '';

  return (
    <Stack gap="lg">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={2} size="h3">
              Members
            </Title>
            <Text size="sm" c="dimmed">
              {activeCount} active of {members.length}. Org admins sign in at the admin login; dockmasters and security staff at the gate with their employee
              ID.
            </Text>
          </div>
          {canManage ? (
            <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setInviteOpen(true)}>
              Invite member
            </Button>
          ) : null}
        </Group>
        {members.length > PAGE_SIZE ? (
          <TextInput
            label="Search members"
            placeholder="Name, e-mail or employee ID"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
            maw={320}
          />
        ) : null}
        <Paper withBorder radius="md">
          {pageItems.length === 0 ? (
            <Text c="dimmed" p="xl" ta="center">
              {q ? 'No members match this search.' : 'No members yet.'}
            </Text>
          ) : (
            <MembersTable
              members={pageItems}
              canManage={canManage}
              onEdit={setEditing}
              onSetActive={(member, active) => setPending({ kind: active ? 'reactivate' : 'deactivate', member })}
            />
          )}
        </Paper>
        {pages > 1 ? (
          <Group justify="flex-end">
            <Pagination total={pages} value={currentPage} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
          </Group>
        ) : null}
      </Stack>

      <Stack gap="sm">
        <Title order={2} size="h3">
          Pending invitations
        </Title>
        <Paper withBorder radius="md">
          {invitations.length === 0 ? (
            <Text c="dimmed" p="lg" ta="center">
              No pending invitations.
            </Text>
          ) : (
            <InvitationsTable
              invitations={invitations}
              canManage={canManage}
              resendingId={resend.isPending ? (resend.variables ?? null) : null}
              onResend={sendAgain}
              onRevoke={(invitation) => setPending({ kind: 'revoke', invitation })}
            />
          )}
        </Paper>
      </Stack>

      <InviteMemberModal orgId={orgId} orgName={selectedOrg.name} opened={isInviteOpen} onClose={() => setInviteOpen(false)} />
      {editing ? <EditMemberModal key={editing.id} orgId={orgId} member={editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmModal
        opened={pending?.kind === 'deactivate'}
        title={`Deactivate ${pendingName}?`}
        confirmLabel="Deactivate"
        isDestructive
        isPending={setActive.isPending}
        error={confirmError}
        onConfirm={confirm}
        onClose={closeConfirm}
      >
        They are signed out of {selectedOrg.name} at once and cannot sign in to it until reactivated. Their bookings and history stay.
      </ConfirmModal>
      <ConfirmModal
        opened={pending?.kind === 'reactivate'}
        title={`Reactivate ${pendingName}?`}
        confirmLabel="Reactivate"
        isPending={setActive.isPending}
        error={confirmError}
        onConfirm={confirm}
        onClose={closeConfirm}
      >
        They can sign in to {selectedOrg.name} again with their current role and password.
      </ConfirmModal>
      <ConfirmModal
        opened={pending?.kind === 'revoke'}
        title="Revoke this invitation?"
        confirmLabel="Revoke invitation"
        isDestructive
        isPending={revoke.isPending}
        error={confirmError}
        onConfirm={confirm}
        onClose={closeConfirm}
      >
        The link sent to {pending?.kind === 'revoke' ? pending.invitation.email : ''} stops working. You can invite them again later.
      </ConfirmModal>
    </Stack>
  );
}
