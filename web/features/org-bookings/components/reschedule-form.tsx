import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { BookingDetail } from '../../../../domain/org-bookings';
import { DateField } from '../../../components/ui/date-field';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useRescheduleBooking } from '../api/org-bookings-api';
import { formatSiteRange, siteDateAndTime } from '../utils/booking-display';

/**
 * Another day and time at the same site: the server takes the best-fit bay that is free for the
 * whole booking, under the portal's rules, or says why not (nothing changes then).
 */
export function RescheduleForm({ orgId, booking, onDone }: { orgId: string; booking: BookingDetail; onDone: () => void }) {
  const current = siteDateAndTime(booking.startTime, booking.timeZone);
  const [date, setDate] = useState<string | null>(current.date);
  const [slot, setSlot] = useState(current.time);
  const [error, setError] = useState<string | null>(null);
  const reschedule = useRescheduleBooking(orgId, booking.id);
  return (
    <form
      aria-label="Reschedule booking"
      onSubmit={(event) => {
        event.preventDefault();
        if (!date || !slot) return setError('Choose a date and a time');
        reschedule.mutate(
          { version: booking.version, date, slot },
          {
            onSuccess: (moved) => {
              toast.success('Booking rescheduled', `${moved.tsrNumber} is now ${formatSiteRange(moved.startTime, moved.endTime, moved.timeZone)}, bay ${moved.bayName}.`);
              onDone();
            },
            onError: (e) => setError(e instanceof ApiError ? e.message : 'The booking could not be moved'),
          },
        );
      }}
    >
      <Stack gap="xs">
        <Group align="flex-end" gap="sm">
          <DateField label="New date" value={date} onChange={(d) => { setDate(d); setError(null); }} w={180} />
          <TextInput label="New time" type="time" step={1800} value={slot} onChange={(e) => { setSlot(e.currentTarget.value); setError(null); }} w={130} />
          <Button type="submit" loading={reschedule.isPending}>
            Move
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          Times are local to {booking.siteName} ({booking.timeZone}). The best-fitting free bay is chosen.
        </Text>
        {error ? (
          <Text size="sm" c="red.9" role="alert">
            {error}
          </Text>
        ) : null}
      </Stack>
    </form>
  );
}
