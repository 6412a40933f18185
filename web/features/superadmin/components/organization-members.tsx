import { Alert, Badge, Button, Group, List, Modal, Pagination, Paper, Stack, Table, Text, Textarea, Title, VisuallyHidden } from '@mantine/core';
import { IconUserShield } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  IMPERSONATION_MAX_MINUTES,
  IMPERSONATION_REASON_MAX,
  IMPERSONATION_REASON_REQUIRED,
  IMPERSONATOR_ROLES,
  startImpersonationSchema,
} from '../../../../domain/auth-schemas';
import { homePathForRole } from '../../../../domain/enums';
import type { OrganizationDetail } from '../../../../domain/platform-admin';
import { errorMessage } from '../../../lib/api-client';
import { useAuth } from '../../auth/hooks/use-auth';
import { useOrganization } from '../api/get-organization';
import { formatDayTime, roleLabel } from './format';

const badgeStyles = { root: { color: 'var(--mantine-color-dark-7)' } };
const alertStyles = { title: { color: 'var(--mantine-color-dark-7)' }, message: { color: 'var(--mantine-color-dark-7)' } };
const PAGE_SIZE = 20;

type Member = OrganizationDetail['members'][number];

/**
 * The organization's members: who, in which role, active or not, last sign-in — and, for super
 * admins and platform support, "Act as" (decision 017): with a reason, for at most 30 minutes.
 */
export function OrganizationMembers({ members }: { members: OrganizationDetail['members'] }) {
  const { orgId } = useParams();
  const organization = useOrganization(orgId);
  const { user } = useAuth();
  const [page, setPage] = useState(1);
  const [actingAs, setActingAs] = useState<Member | null>(null);
  const canImpersonate = (IMPERSONATOR_ROLES as readonly string[]).includes(user?.platformRole ?? '');
  const isOrgActive = organization.data ? organization.data.active && organization.data.status === 'active' : false;
  const pages = Math.max(1, Math.ceil(members.length / PAGE_SIZE));
  const shown = members.slice((Math.min(page, pages) - 1) * PAGE_SIZE, Math.min(page, pages) * PAGE_SIZE);
  // One count, the usage card's: active members (of all listed, inactive ones included).
  const activeCount = members.filter((m) => m.active).length;
  const countText = `${activeCount} active of ${members.length}`;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="members-heading">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} size="h4" id="members-heading">
          Members
        </Title>
        {members.length > 0 ? (
          <Text size="sm" c="dimmed" data-testid="members-count">
            {countText}
          </Text>
        ) : null}
      </Group>
      {members.length === 0 ? (
        <Text size="sm" c="dimmed">
          No members yet.
        </Text>
      ) : (
        <Stack gap="sm">
          <Table.ScrollContainer minWidth={canImpersonate ? 760 : 640}>
            <Table verticalSpacing="xs" aria-labelledby="members-heading" data-testid="organization-members">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Member</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Employee ID</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Last sign-in</Table.Th>
                  {canImpersonate ? (
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  ) : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((member) => (
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
                    {canImpersonate ? (
                      <Table.Td ta="right">
                        {/* Only active members of an active organization can be acted as (the server says why otherwise). */}
                        {member.active && isOrgActive ? (
                          <Button
                            size="xs"
                            variant="default"
                            leftSection={<IconUserShield size={14} aria-hidden />}
                            aria-label={`Act as ${member.email}`}
                            onClick={() => setActingAs(member)}
                          >
                            Act as
                          </Button>
                        ) : null}
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 ? (
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {countText}
              </Text>
              <Pagination total={pages} value={Math.min(page, pages)} onChange={setPage} size="sm" aria-label="Members pages" />
            </Group>
          ) : null}
        </Stack>
      )}
      {organization.data ? <ActAsModal member={actingAs} organization={organization.data} onClose={() => setActingAs(null)} /> : null}
    </Paper>
  );
}

type ActAsModalProps = { member: Member | null; organization: OrganizationDetail; onClose: () => void };

/** Asks why, says what acting as a member means, then switches to the member's session. */
function ActAsModal({ member, organization, onClose }: ActAsModalProps) {
  const { startImpersonation } = useAuth();
  const navigate = useNavigate();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [isStarting, setIsStarting] = useState(false);
  // The dialog keeps showing its member while it closes.
  const [shown, setShown] = useState(member);
  useEffect(() => {
    if (!member) return;
    setShown(member);
    setReason('');
    setReasonError(null);
    setServerError(null);
    setIsStarting(false);
  }, [member]);

  const start = async () => {
    if (!shown) return;
    const parsed = startImpersonationSchema.shape.reason.safeParse(reason);
    if (!parsed.success) {
      setReasonError(parsed.error.issues[0]?.message ?? IMPERSONATION_REASON_REQUIRED);
      return;
    }
    setReasonError(null);
    setServerError(null);
    setIsStarting(true);
    // Security staff work at a site's gate: their screens open at the first active site.
    const site = shown.role === 'security' ? (organization.sites.find((s) => s.active) ?? null) : null;
    try {
      const result = await startImpersonation(
        { userId: shown.userId, orgId: organization.id, reason: parsed.data },
        site ? { id: site.id, name: site.name } : null,
      );
      const home = homePathForRole(result.role);
      navigate(home === '/dockmaster' && site ? '/dockmaster/dashboard' : home, { replace: true });
    } catch (error) {
      setServerError(errorMessage(error, 'Could not act as this member.'));
      setIsStarting(false);
    }
  };

  return (
    <Modal opened={!!member} onClose={onClose} title={shown ? `Act as ${shown.email}?` : 'Act as a member'} size="lg">
      <Stack gap="md">
        <Text size="sm">
          You will see {organization.name} as {shown?.fullName ?? shown?.email} ({shown ? roleLabel(shown.role) : ''}) sees it:
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>for {IMPERSONATION_MAX_MINUTES} minutes at most, with a banner on every screen to end it;</List.Item>
          <List.Item>every action is recorded with your name and theirs, and so are the start and the end;</List.Item>
          <List.Item>the platform screens are closed until you end it.</List.Item>
        </List>
        <Textarea
          label="Reason"
          description={`Why you need to act as this member (kept in the audit log). At least 10 characters, at most ${IMPERSONATION_REASON_MAX}.`}
          required
          autosize
          minRows={2}
          maxRows={6}
          maxLength={IMPERSONATION_REASON_MAX}
          value={reason}
          error={reasonError}
          data-autofocus
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setReasonError(null);
          }}
        />
        {serverError ? (
          <Alert color="red" variant="light" role="alert" title="Could not act as this member" styles={alertStyles}>
            {serverError}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={isStarting}>
            Cancel
          </Button>
          <Button leftSection={<IconUserShield size={16} aria-hidden />} onClick={start} loading={isStarting}>
            Start acting as member
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
