import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { GateBooking } from '../../../../domain/gate';
import type { PlateReadDto } from '../../../../domain/plate-reads';
import { errorMessage } from '../../../lib/api-client';
import { siteDateTime, similarity } from '../utils/format';
import { NOTICE_STYLES } from './notice-styles';

type Props = {
  read: PlateReadDto | null;
  /** Today's bookings at the site (the gate's lists), offered after the read's own candidates. */
  bookings: GateBooking[];
  timeZone: string;
  isBusy: boolean;
  onClose: () => void;
  /** Resolves the read to the booking; rejects with the server's message. */
  onResolve: (read: PlateReadDto, bookingId: string) => Promise<unknown>;
};

/** Links an unmatched or ambiguous read to the booking the vehicle belongs to. */
export function ResolveReadDialog({ read, bookings, timeZone, isBusy, onClose, onResolve }: Props) {
  const [bookingId, setBookingId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setBookingId(null);
    setError(null);
    onClose();
  };

  const candidates = read?.candidates ?? [];
  const likely = new Set(candidates.map((c) => c.bookingId));
  const options = [
    {
      group: 'Similar plates',
      items: candidates.map((c) => ({
        value: c.bookingId,
        label: `${c.vehicleRegistration} · ${c.tsrNumber} · ${c.tenantName} · ${siteDateTime(c.startTime, timeZone)} · ${similarity(c.score)}`,
      })),
    },
    {
      group: 'Other bookings today',
      items: bookings
        .filter((b) => !likely.has(b.id))
        .map((b) => ({ value: b.id, label: `${b.vehicleRegistration} · ${b.tsrNumber} · ${b.tenantName} · ${siteDateTime(b.startTime, timeZone)}` })),
    },
  ].filter((group) => group.items.length > 0);

  const submit = async () => {
    if (!read) return;
    if (!bookingId) {
      setError('Choose the booking this vehicle belongs to');
      return;
    }
    setError(null);
    try {
      await onResolve(read, bookingId);
      close();
    } catch (cause) {
      setError(errorMessage(cause, 'The read could not be resolved.'));
    }
  };

  return (
    <Modal opened={read !== null} onClose={close} title={read ? `Resolve ${read.plate}` : 'Resolve read'} centered size="lg" closeButtonProps={{ size: 'xl', 'aria-label': 'Close' }}>
      <Stack gap="md">
        <Text size="sm">Choose the booking of the vehicle whose plate this is. The read is linked to it; check the vehicle in or out at the gate as usual.</Text>
        <Select
          label="Booking"
          placeholder={options.length === 0 ? 'No bookings at this site today' : 'Search by plate, TSR or tenant'}
          data={options}
          value={bookingId}
          onChange={(value) => {
            setBookingId(value);
            setError(null);
          }}
          searchable
          nothingFoundMessage="No booking matches"
          size="lg"
          disabled={options.length === 0}
          comboboxProps={{ withinPortal: true }}
          maxDropdownHeight={320}
        />
        {error ? (
          <Alert styles={NOTICE_STYLES} color="red" variant="light" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" size="lg" onClick={close}>
            Cancel
          </Button>
          <Button size="lg" onClick={() => void submit()} loading={isBusy}>
            Resolve
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
