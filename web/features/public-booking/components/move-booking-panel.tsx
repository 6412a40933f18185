import { Button, Group, Stack, Text } from '@mantine/core';
import { NO_AVAILABLE_BAY } from '../../../../domain/booking-messages';
import { useCallback, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useManagedAvailability } from '../api/get-managed-availability';
import { useRescheduleManagedBooking } from '../api/reschedule-managed-booking';
import type { ManagedBooking } from '../api/types';
import { useAvailabilityEffects } from '../hooks/use-availability-effects';
import { todayIn } from '../../../../domain/slot-grid';
import { formatSiteTimeRange } from '../utils/format';
import { SlotGrid } from './slot-grid';
import { useT } from '../../../i18n/index';
import { useTranslateMessage } from '../../../i18n/validation';
import { DateField } from '../../../components/ui/date-field';


export type MoveBookingPanelProps = {
  token: string;
  booking: ManagedBooking;
  onDone: () => void;
};

/** Pick another day and slot for a booking: same vehicle, same duration, same rules as a new request. */
export function MoveBookingPanel({ token, booking, onDone }: MoveBookingPanelProps) {
  const [date, setDate] = useState<string | null>(null);
  const [slot, setSlot] = useState<string | null>(null);
  const clearSlot = useCallback(() => setSlot(null), []);
  const availability = useManagedAvailability(token, date);
  const clearedNotice = useAvailabilityEffects(availability, slot, clearSlot);
  const reschedule = useRescheduleManagedBooking();
  const data = date ? availability.data : undefined;
  const { t, language } = useT('portal');
  const translateMessage = useTranslateMessage();

  const confirm = () => {
    if (!date || !slot) return;
    reschedule.mutate(
      { token, date, slot },
      {
        onSuccess: (moved) => {
          toast.success(t('move.moved'), t('move.movedText', { time: formatSiteTimeRange(moved.startTime, moved.endTime, moved.timeZone, language) }));
          onDone();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'no_available_bay') {
            toast.error(t('toast.noAvailableBay'), translateMessage(NO_AVAILABLE_BAY));
            void availability.refetch();
          } else {
            toast.error(t('move.failed'), error.message ? translateMessage(error.message) : t('move.failedText'));
          }
        },
      },
    );
  };

  return (
    <Stack gap="md">
      <Text size="sm">
        {t('move.intro', { minutes: booking.durationMin })}
      </Text>
      <DateField
        label={t('move.newDate')}
        minDate={todayIn(booking.timeZone, new Date())}
        value={date}
        onChange={(d) => {
          setDate(d);
          setSlot(null);
        }}
        maw={320}
      />
      {date ? (
        <SlotGrid
          availability={data}
          isFetching={availability.isFetching}
          isError={availability.isError}
          selectedSlot={slot}
          onSelect={setSlot}
          label={t('move.newSlot')}
          clearedNotice={clearedNotice}
        />
      ) : null}
      <Group gap="sm">
        <Button onClick={confirm} disabled={!date || !slot || reschedule.isPending} loading={reschedule.isPending}>
          {t('move.confirm')}
        </Button>
        <Button variant="default" onClick={onDone} disabled={reschedule.isPending}>
          {t('move.keep')}
        </Button>
      </Group>
    </Stack>
  );
}
