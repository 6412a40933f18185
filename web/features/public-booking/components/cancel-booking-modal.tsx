import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { useCancelManagedBooking } from '../api/cancel-managed-booking';
import type { ManagedBooking } from '../api/types';
import { formatSiteTimeRange } from '../utils/format';

export type CancelBookingModalProps = {
  token: string;
  booking: ManagedBooking;
  opened: boolean;
  onClose: () => void;
};

/** Asks before cancelling: a cancelled booking releases its bay and cannot be restored. */
export function CancelBookingModal({ token, booking, opened, onClose }: CancelBookingModalProps) {
  const [reason, setReason] = useState('');
  const cancel = useCancelManagedBooking();

  const confirm = () => {
    cancel.mutate(
      { token, reason: reason.trim() || undefined },
      {
        onSuccess: () => {
          toast.success('Booking cancelled', `Booking ${booking.reference} has been cancelled and the bay released.`);
          setReason('');
          onClose();
        },
        onError: (error) => toast.error('Cancellation Failed', error.message || 'Failed to cancel the booking'),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={cancel.isPending ? () => {} : onClose} title="Cancel this booking?" centered>
      <Stack gap="md">
        <Text size="sm">
          Booking {booking.reference} at {booking.siteName}, {formatSiteTimeRange(booking.startTime, booking.endTime, booking.timeZone)}{' '}
          will be cancelled and its bay released. This cannot be undone.
        </Text>
        <Textarea
          label="Reason (optional)"
          placeholder="Let the site know why, e.g. the delivery was postponed"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          maxLength={500}
          autosize
          minRows={2}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={cancel.isPending}>
            Keep booking
          </Button>
          <Button color="red.9" onClick={confirm} loading={cancel.isPending}>
            Cancel booking
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
