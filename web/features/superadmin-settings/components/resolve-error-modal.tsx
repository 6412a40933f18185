import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { errorTitle, type ErrorGroup } from '../../../../domain/error-monitoring';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useChangeErrorGroupStatus } from '../api/error-groups-api';

/** Confirms resolving an error group, saying what happens if it comes back. */
export function ResolveErrorModal({ group, onClose }: { group: ErrorGroup | null; onClose: () => void }) {
  const change = useChangeErrorGroupStatus();
  const resolve = () => {
    if (!group) return;
    change.mutate(
      { fingerprint: group.fingerprint, to: 'resolved' },
      {
        onSuccess: () => {
          toast.success('Error resolved', 'It moves to Resolved, and opens again by itself if it happens again.');
          onClose();
        },
        onError: (error) => toast.error('Error not resolved', errorMessage(error, 'The error could not be resolved.')),
      },
    );
  };
  return (
    <Modal opened={!!group} onClose={onClose} title="Resolve this error?" centered>
      <Stack gap="md">
        {group ? (
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {errorTitle(group)}
          </Text>
        ) : null}
        <Text size="sm">Mark it fixed. If it happens again it is reopened by itself and shown as regressed.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={resolve} loading={change.isPending}>
            Resolve
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Reopens a resolved group at once (no confirmation: nothing is lost). */
export function useReopenErrorGroup() {
  const change = useChangeErrorGroupStatus();
  return {
    isPending: change.isPending,
    reopen: (group: ErrorGroup) =>
      change.mutate(
        { fingerprint: group.fingerprint, to: 'open' },
        {
          onSuccess: () => toast.success('Error reopened', 'It is listed under Open again.'),
          onError: (error) => toast.error('Error not reopened', errorMessage(error, 'The error could not be reopened.')),
        },
      ),
  };
}
