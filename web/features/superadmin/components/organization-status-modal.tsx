import { Alert, Button, Group, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { SUSPEND_REASON_MAX, SUSPEND_REASON_REQUIRED, suspendOrganizationSchema } from '../../../../domain/platform-admin';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useChangeOrganizationStatus } from '../api/suspend-organization';

type Props = {
  organization: { id: string; name: string };
  /** Which confirmation is open, if any. */
  kind: 'suspend' | 'reactivate' | null;
  onClose: () => void;
};

const alertStyles = { title: { color: 'var(--mantine-color-text)' } };

/**
 * Confirms suspending an organization (a reason is required, kept in the audit log) or
 * reactivating it, saying what each does. The server decides; its message is shown as it is.
 */
export function OrganizationStatusModal({ organization, kind, onClose }: Props) {
  const change = useChangeOrganizationStatus(organization.id);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  // The dialog keeps its texts while it closes, even after the status has changed.
  const [shown, setShown] = useState(kind);
  useEffect(() => {
    if (!kind) return;
    setShown(kind);
    setReason('');
    setReasonError(null);
    change.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a fresh dialog each time it opens
  }, [kind]);
  const isSuspend = shown === 'suspend';

  const confirm = () => {
    if (isSuspend) {
      const parsed = suspendOrganizationSchema.safeParse({ reason });
      if (!parsed.success) {
        setReasonError(parsed.error.issues[0]?.message ?? SUSPEND_REASON_REQUIRED);
        return;
      }
      change.mutate(
        { kind: 'suspend', reason: parsed.data.reason },
        {
          onSuccess: (result) => {
            const ended = result.sessionsEnded;
            toast.success('Organization suspended', `${organization.name} is suspended. ${ended} session${ended === 1 ? '' : 's'} ended.`);
            onClose();
          },
        },
      );
      return;
    }
    change.mutate(
      { kind: 'reactivate' },
      {
        onSuccess: () => {
          toast.success('Organization reactivated', `${organization.name} is active again.`);
          onClose();
        },
      },
    );
  };

  return (
    <Modal
      opened={!!kind}
      onClose={onClose}
      title={isSuspend ? `Suspend ${organization.name}?` : `Reactivate ${organization.name}?`}
      size="lg"
    >
      <Stack gap="md">
        {isSuspend ? (
          <>
            <Text size="sm">Suspending takes effect at once:</Text>
            <List size="sm" spacing={4}>
              <List.Item>its members are signed out and cannot sign in to it;</List.Item>
              <List.Item>its booking portal refuses new requests;</List.Item>
              <List.Item>bookings already made are not changed.</List.Item>
            </List>
            <Textarea
              label="Reason"
              description="Kept in the audit log and shown on this page."
              required
              autosize
              minRows={3}
              maxLength={SUSPEND_REASON_MAX}
              value={reason}
              error={reasonError}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setReasonError(null);
              }}
              data-autofocus
            />
          </>
        ) : (
          <Text size="sm">Its members can sign in again and its booking portal accepts requests again.</Text>
        )}
        {change.isError ? (
          <Alert styles={alertStyles} color="red" role="alert" title="Not changed">
            {errorMessage(change.error, 'The organization could not be changed')}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color={isSuspend ? 'red.8' : undefined} loading={change.isPending} onClick={confirm}>
            {isSuspend ? 'Suspend organization' : 'Reactivate organization'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
