import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import type { DashboardBooking } from '../../../../domain/org-dashboard';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { isStaleBooking, useTransitionBooking } from '../api/transition-booking';
import { siteDay, siteTimeRange } from './format';

const REASON_REQUIRED = 'A reason is required';

type DeclineBookingModalProps = {
  orgId: string;
  /** The booking to decline; null when closed. */
  booking: DashboardBooking | null;
  onClose: () => void;
};

/** Declining needs a reason: it is e-mailed to the haulier. The server's refusal is shown here. */
export function DeclineBookingModal({ orgId, booking, onClose }: DeclineBookingModalProps) {
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const decline = useTransitionBooking();

  const close = () => {
    if (decline.isPending) return;
    setReason('');
    setFieldError(null);
    setServerError(null);
    onClose();
  };

  const confirm = () => {
    if (!booking) return;
    if (!reason.trim()) {
      setFieldError(REASON_REQUIRED);
      return;
    }
    setServerError(null);
    decline.mutate(
      { orgId, bookingId: booking.id, to: 'declined', version: booking.version, reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success('Booking declined', `${booking.tsrNumber} was declined; the haulier has been told why.`);
          setReason('');
          onClose();
        },
        onError: (error) => {
          if (isStaleBooking(error)) {
            // Someone else got there first: say so and show the booking as it is now (refetched).
            toast.error('Booking changed', errorMessage(error, 'This booking has changed. The list has been refreshed.'));
            setReason('');
            onClose();
          } else {
            setServerError(errorMessage(error, 'Failed to decline the booking'));
          }
        },
      },
    );
  };

  return (
    <Modal opened={booking !== null} onClose={close} title="Decline this booking?" centered>
      {booking ? (
        <Stack gap="md">
          <Text size="sm">
            {booking.tsrNumber} from {booking.tenantName}, {siteDay(booking.startTime, booking.timeZone)}{' '}
            {siteTimeRange(booking.startTime, booking.endTime, booking.timeZone)} at {booking.siteName}, bay {booking.bayName}, will be declined
            and its bay released. The haulier receives the reason by e-mail.
          </Text>
          {serverError ? (
            <Alert color="red" variant="light" role="alert">
              {serverError}
            </Alert>
          ) : null}
          <Textarea
            label="Reason"
            placeholder="e.g. The bay is closed for maintenance that day"
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              if (fieldError) setFieldError(null);
            }}
            error={fieldError}
            required
            maxLength={500}
            autosize
            minRows={2}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={decline.isPending}>
              Keep booking
            </Button>
            <Button color="red.9" onClick={confirm} loading={decline.isPending}>
              Decline booking
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
