import { Alert, Anchor, Badge, Button, Divider, Drawer, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDay } from '../../../../domain/day-notice';
import type { Schedule, ScheduleBooking } from '../../../../domain/org-schedule';
import { buildSlotGrid, localDateOf, localTimeOf } from '../../../../domain/slot-grid';
import { DateField } from '../../../components/ui/date-field';
import { SelectField } from '../../../components/ui/select-field';
import { paths } from '../../../app/paths';
import { isReschedulable, SCHEDULE_STATUS_COLORS, statusLabel } from '../utils/schedule-status';

// A booking's details, and the keyboard way to move it: a day, a slot of that day and a bay,
// sent to the same reschedule call as a drag.

export type RescheduleChoice = { date: string; slot: string; bayId: string };

type Props = {
  schedule: Schedule;
  booking: ScheduleBooking | null;
  onClose: () => void;
  /** Resolves on success; rejects with the server's message. */
  onReschedule: (booking: ScheduleBooking, choice: RescheduleChoice) => Promise<void>;
};

export function BookingDetailsDrawer({ schedule, booking, onClose, onReschedule }: Props) {
  return (
    <Drawer opened={!!booking} onClose={onClose} position="right" size="md" title={booking ? `Booking ${booking.tsrNumber}` : 'Booking'}>
      {booking ? <BookingDetails key={`${booking.id}-${booking.version}`} schedule={schedule} booking={booking} onReschedule={onReschedule} /> : null}
    </Drawer>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="gray.7">
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}

function BookingDetails({ schedule, booking, onReschedule }: Omit<Props, 'onClose' | 'booking'> & { booking: ScheduleBooking }) {
  const { site, bays } = schedule;
  const tz = site.timeZone;
  const start = new Date(booking.startTime);
  const end = new Date(booking.endTime);
  const bayName = bays.find((b) => b.id === booking.bayId)?.name ?? '—';
  const canMove = isReschedulable(booking.status);

  return (
    <Stack gap="md">
      <Group gap="xs">
        <Badge color={SCHEDULE_STATUS_COLORS[booking.status]} variant="light" c="gray.9">
          {statusLabel(booking.status)}
        </Badge>
      </Group>
      <SimpleGrid cols={2} spacing="sm">
        <Field label="Company">{booking.tenantName}</Field>
        <Field label="TSR number">{booking.tsrNumber}</Field>
        <Field label="When">
          {formatDay(localDateOf(start, tz))}, {localTimeOf(start, tz)}–{localTimeOf(end, tz)}
        </Field>
        <Field label="Bay">{bayName}</Field>
        <Field label="Vehicle">{booking.vehicleType}</Field>
        <Field label="Registration">{booking.vehicleRegistration}</Field>
      </SimpleGrid>
      <Text size="xs" c="gray.7">
        Times are local to {site.name} ({tz}).
      </Text>
      <Anchor component={Link} to={`${paths.org.bookings}?booking=${encodeURIComponent(booking.id)}`} size="sm">
        Open in Bookings
      </Anchor>
      <Divider />
      {canMove ? (
        <RescheduleForm schedule={schedule} booking={booking} onReschedule={onReschedule} />
      ) : (
        <Text size="sm" c="gray.7">
          Only pending and approved bookings can be moved; this one is {statusLabel(booking.status).toLowerCase()}.
        </Text>
      )}
    </Stack>
  );
}

function RescheduleForm({ schedule, booking, onReschedule }: { schedule: Schedule; booking: ScheduleBooking; onReschedule: Props['onReschedule'] }) {
  const { site, bays } = schedule;
  const tz = site.timeZone;
  const durationMin = Math.round((Date.parse(booking.endTime) - Date.parse(booking.startTime)) / 60_000);
  const [date, setDate] = useState<string | null>(localDateOf(new Date(booking.startTime), tz));
  const [slot, setSlot] = useState(localTimeOf(new Date(booking.startTime), tz));
  const [bayId, setBayId] = useState(booking.bayId);
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  // The slots of the chosen day at the site's interval (the server decides what is free).
  const slots = date
    ? buildSlotGrid({
        date,
        timeZone: tz,
        operatingHours: site.operatingHours,
        slotIntervalMin: site.slotIntervalMin,
        durationMin: Math.max(1, durationMin),
        minAdvanceMin: 0,
        now: new Date(0),
      }).filter((s) => s.bookable)
    : [];
  const slotOptions = [{ value: '', label: slots.length ? 'Choose a time' : 'Closed on this day' }, ...slots.map((s) => ({ value: s.label, label: s.label }))];
  const chosenSlot = slots.some((s) => s.label === slot) ? slot : '';
  const bayOptions = bays.map((b) => ({ value: b.id, label: `${b.name} (${b.heightClearanceM.toFixed(1)} m${b.features.length ? `, ${b.features.join(', ')}` : ''})` }));

  return (
    <form
      aria-label="Reschedule booking"
      onSubmit={async (event) => {
        event.preventDefault();
        if (!date || !chosenSlot) return setError('Choose a date and a time');
        setError(null);
        setIsSaving(true);
        try {
          await onReschedule(booking, { date, slot: chosenSlot, bayId });
        } catch (e) {
          setError(e instanceof Error ? e.message : 'The booking could not be moved');
        } finally {
          setIsSaving(false);
        }
      }}
    >
      <Stack gap="sm">
        <Title order={3} size="h5">
          Reschedule
        </Title>
        <DateField label="Date" value={date} onChange={(d) => { setDate(d); setError(null); }} required />
        <SelectField
          label="Time slot"
          data={slotOptions}
          value={chosenSlot}
          onChange={(e) => { setSlot(e.currentTarget.value); setError(null); }}
        />
        <SelectField label="Bay" data={bayOptions} value={bayId} onChange={(e) => { setBayId(e.currentTarget.value); setError(null); }} />
        {error ? (
          <Alert color="red" variant="light" role="alert" title="Not moved">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={isSaving}>
            Move booking
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
