import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

type ConfirmModalProps = {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Red for what takes access away. */
  isDestructive?: boolean;
  isPending: boolean;
  /** Why the last attempt was refused (e.g. the last admin), shown in the dialog. */
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
};

/** Asks before a change to someone's access; a refusal is shown in the dialog, which stays open. */
export function ConfirmModal({ opened, title, children, confirmLabel, isDestructive, isPending, error, onConfirm, onClose }: ConfirmModalProps) {
  return (
    <Modal opened={opened} onClose={isPending ? () => {} : onClose} title={title} centered>
      <Stack gap="md">
        <Text size="sm">{children}</Text>
        {error ? (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={isPending}>
            Cancel
          </Button>
          <Button color={isDestructive ? 'red.9' : undefined} onClick={onConfirm} loading={isPending}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
