import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { BAY_HAS_BOOKINGS_MESSAGE, type BayItem } from '../../../../domain/org-bays';

export type ConfirmAction = 'deactivate' | 'reactivate' | 'delete';

type Props = {
  bay: BayItem;
  action: ConfirmAction;
  opened: boolean;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  /** From a delete that cannot be: close the bay instead. */
  onDeactivateInstead: () => void;
  onClose: () => void;
};

const upcoming = (n: number) => `${n} upcoming booking${n === 1 ? '' : 's'}`;

/** The question before a bay is closed, reopened or deleted. */
export function BayConfirmModal({ bay, action, opened, pending, error, onConfirm, onDeactivateInstead, onClose }: Props) {
  const cannotDelete = action === 'delete' && bay.hasBookings;
  const title = cannotDelete
    ? `Bay ${bay.name} cannot be deleted`
    : { deactivate: `Deactivate bay ${bay.name}?`, reactivate: `Reactivate bay ${bay.name}?`, delete: `Delete bay ${bay.name}?` }[action];

  let body: string;
  if (cannotDelete) body = BAY_HAS_BOOKINGS_MESSAGE;
  else if (action === 'deactivate')
    body =
      bay.upcomingBookings > 0
        ? `The bay stops taking new bookings and the booking portal stops offering it. It has ${upcoming(bay.upcomingBookings)}: you will choose whether to keep them, move them to another bay or cancel them.`
        : 'The bay stops taking new bookings and the booking portal stops offering it at once.';
  else if (action === 'reactivate') body = 'The bay takes bookings again: the booking portal offers it at once.';
  else body = `The bay ${bay.name} at ${bay.siteName} is removed for good, with its blackouts. It has never had a booking.`;

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack gap="md">
        <Text size="sm">{body}</Text>
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={pending}>
            {cannotDelete ? 'Close' : 'Cancel'}
          </Button>
          {cannotDelete ? (
            bay.active ? (
              <Button onClick={onDeactivateInstead}>
                Deactivate instead
              </Button>
            ) : null
          ) : (
            <Button color={action === 'delete' ? 'red.9' : undefined} loading={pending} onClick={onConfirm}>
              {{ deactivate: 'Deactivate', reactivate: 'Reactivate', delete: 'Delete' }[action]}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
