import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { useCancelManagedBooking } from '../api/cancel-managed-booking';
import type { ManagedBooking } from '../api/types';
import { formatSiteTimeRange } from '../utils/format';
import { useT } from '../../../i18n/index';
import { useTranslateMessage } from '../../../i18n/validation';

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
  const { t, language } = useT('portal');
  const translateMessage = useTranslateMessage();

  const confirm = () => {
    cancel.mutate(
      { token, reason: reason.trim() || undefined },
      {
        onSuccess: () => {
          toast.success(t('cancel.done'), t('cancel.doneText', { reference: booking.reference }));
          setReason('');
          onClose();
        },
        onError: (error) => toast.error(t('cancel.failed'), error.message ? translateMessage(error.message) : t('cancel.failedText')),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={cancel.isPending ? () => {} : onClose} title={t('cancel.title')} centered>
      <Stack gap="md">
        <Text size="sm">
          {t('cancel.text', {
            reference: booking.reference,
            site: booking.siteName,
            time: formatSiteTimeRange(booking.startTime, booking.endTime, booking.timeZone, language),
          })}
        </Text>
        <Textarea
          label={t('cancel.reason')}
          placeholder={t('cancel.reasonPlaceholder')}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          maxLength={500}
          autosize
          minRows={2}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={cancel.isPending}>
            {t('cancel.keep')}
          </Button>
          <Button color="red.9" onClick={confirm} loading={cancel.isPending}>
            {t('manage.cancel')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
