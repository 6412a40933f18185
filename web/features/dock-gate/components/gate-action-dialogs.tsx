import { Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { GateBooking } from '../../../../domain/gate';
import { localDateOf, localTimeOf, parseTimeOfDay, zonedTimeToUtc } from '../../../../domain/slot-grid';
import { STORAGE_KEYS } from '../../../../domain/constants';
import { readJson } from '../../../lib/storage';
import { gateQueueQuery } from '../api/gate-api';

// The dialogs of the gate's moves that need a word from the dockmaster: a reason, a bay, a new end
// time or a confirmation. Each calls onConfirm with what the server needs; the parent sends it.

export type PendingDialog =
  | { kind: 'decline'; booking: GateBooking }
  /** `purpose: 'call'`: opened from the gate queue ("Call to bay"); else the dashboard's Start. */
  | { kind: 'start'; booking: GateBooking; purpose?: 'call' }
  | { kind: 'force-check-out'; booking: GateBooking }
  | { kind: 'extend'; booking: GateBooking };

type DialogProps = {
  dialog: PendingDialog | null;
  siteId: string;
  /** The organization of the site (the queue's query key); read from the dock sign-in when absent. */
  orgId?: string;
  timeZone: string;
  isBusy: boolean;
  onClose: () => void;
  onStart: (booking: GateBooking, bayId: string | undefined) => void;
  /** Needed where the screen opens that dialog (the gate queue only calls vehicles to bays). */
  onDecline?: (booking: GateBooking, reason: string) => void;
  onForceCheckOut?: (booking: GateBooking) => void;
  onExtend?: (booking: GateBooking, endTime: string) => void;
};

const label = (b: GateBooking) => `${b.tsrNumber} · ${b.vehicleRegistration}`;

export function GateActionDialogs(props: DialogProps) {
  const { dialog, onClose } = props;
  const titles: Record<PendingDialog['kind'], string> = {
    decline: 'Decline booking',
    start: dialog?.kind === 'start' && dialog.purpose === 'call' ? 'Call to another bay' : 'Start at bay',
    'force-check-out': 'Force Check Out',
    extend: 'Extend Time',
  };
  return (
    <Modal
      opened={dialog !== null}
      onClose={onClose}
      title={dialog ? titles[dialog.kind] : ''}
      centered
      size="md"
      closeButtonProps={{ 'aria-label': 'Close dialog', size: 'xl' }}
    >
      {dialog?.kind === 'decline' ? <DeclineForm key={dialog.booking.id} {...props} booking={dialog.booking} /> : null}
      {dialog?.kind === 'start' ? <StartForm key={dialog.booking.id} {...props} booking={dialog.booking} purpose={dialog.purpose} /> : null}
      {dialog?.kind === 'force-check-out' ? <ForceCheckOutForm {...props} booking={dialog.booking} /> : null}
      {dialog?.kind === 'extend' ? <ExtendForm key={dialog.booking.id} {...props} booking={dialog.booking} /> : null}
    </Modal>
  );
}

type FormProps = DialogProps & { booking: GateBooking };

type ActionsProps = { onClose: () => void; isBusy: boolean; isDisabled?: boolean; confirm: string; color?: string };

/** Cancel and confirm, 50 px high: these dialogs are used on tablets at the gate. */
function Actions({ onClose, isBusy, isDisabled, confirm, color }: ActionsProps) {
  return (
    <Group justify="flex-end" mt="md">
      <Button variant="default" size="lg" onClick={onClose} disabled={isBusy}>
        Cancel
      </Button>
      <Button type="submit" size="lg" color={color} loading={isBusy} disabled={isDisabled}>
        {confirm}
      </Button>
    </Group>
  );
}

function DeclineForm({ booking, isBusy, onClose, onDecline }: FormProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!reason.trim()) return setError('A reason is required');
        onDecline?.(booking, reason.trim());
      }}
    >
      <Stack gap="sm">
        <Text size="sm">Declining {label(booking)}. The haulier is told the reason.</Text>
        <Textarea
          label="Reason"
          size="lg"
          required
          autosize
          minRows={3}
          maxLength={500}
          value={reason}
          error={error}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setError(null);
          }}
          data-autofocus
        />
      </Stack>
      <Actions onClose={onClose} isBusy={isBusy} confirm="Decline" color="red.9" />
    </form>
  );
}

function StartForm({ booking, siteId, orgId, isBusy, onClose, onStart, purpose }: FormProps & { purpose?: 'call' }) {
  const org = orgId ?? readJson<{ id: string }>(STORAGE_KEYS.selectedOrg)?.id ?? '';
  const queue = useQuery({ ...gateQueueQuery(org, siteId), staleTime: 0 });
  const item = queue.data?.items.find((i) => i.id === booking.id);
  const isBookedBayFree = item ? item.isExpectedBayFree : true;
  const others = (item?.freeBays ?? []).filter((b) => b.id !== booking.bayId);
  const options = [
    { value: booking.bayId, label: `${booking.bayName} (booked bay${isBookedBayFree ? '' : ', not free'})`, disabled: !isBookedBayFree },
    ...others.map((b) => ({ value: b.id, label: b.name })),
  ];
  // The booked bay when it is free, else the first free compatible one; the dockmaster may pick another.
  const [chosen, setChosen] = useState<string | null>(null);
  const bayId = chosen ?? (isBookedBayFree ? booking.bayId : (others[0]?.id ?? booking.bayId));
  const isNothingFree = item !== undefined && !isBookedBayFree && others.length === 0;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onStart(booking, bayId === booking.bayId ? undefined : bayId);
      }}
    >
      <Stack gap="sm">
        <Text size="sm">Call {label(booking)} to the bay.</Text>
        {!isBookedBayFree ? (
          <Text size="sm" c="orange.9">
            {isNothingFree
              ? `${booking.bayName} is not free and no other compatible bay is free now: let the vehicle wait.`
              : `${booking.bayName} is not free yet; choose another free compatible bay or wait.`}
          </Text>
        ) : null}
        <Select
          label="Bay"
          size="lg"
          data={options}
          value={bayId}
          allowDeselect={false}
          onChange={(value) => value && setChosen(value)}
          comboboxProps={{ withinPortal: true }}
          disabled={queue.isLoading}
        />
      </Stack>
      <Actions onClose={onClose} isBusy={isBusy} isDisabled={queue.isLoading || isNothingFree} confirm={purpose === 'call' ? 'Call to bay' : 'Start'} />
    </form>
  );
}

function ForceCheckOutForm({ booking, isBusy, onClose, onForceCheckOut }: FormProps) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onForceCheckOut?.(booking);
      }}
    >
      <Text size="sm">
        {label(booking)} has overstayed at {booking.bayName}. Check it out now and free the bay?
      </Text>
      <Actions onClose={onClose} isBusy={isBusy} confirm="Force Check Out" color="red.9" />
    </form>
  );
}

function ExtendForm({ booking, timeZone, isBusy, onClose, onExtend }: FormProps) {
  const currentEnd = new Date(booking.endTime);
  const day = localDateOf(currentEnd, timeZone);
  const suggested = localTimeOf(new Date(Math.max(currentEnd.getTime(), Date.now()) + 30 * 60_000), timeZone);
  const [time, setTime] = useState(suggested);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const minutes = parseTimeOfDay(time);
        if (minutes === null) return setError('Choose the new end time');
        const end = zonedTimeToUtc(day, minutes, timeZone);
        if (end.getTime() <= currentEnd.getTime()) return setError(`The new end must be after ${localTimeOf(currentEnd, timeZone)}`);
        onExtend?.(booking, end.toISOString());
      }}
    >
      <Stack gap="sm">
        <Text size="sm">
          {label(booking)} was due to leave at {localTimeOf(currentEnd, timeZone)}.
        </Text>
        <TextInput
          type="time"
          label="New end time"
          size="lg"
          required
          value={time}
          error={error}
          onChange={(e) => {
            setTime(e.currentTarget.value);
            setError(null);
          }}
          data-autofocus
        />
      </Stack>
      <Actions onClose={onClose} isBusy={isBusy} confirm="Extend Time" />
    </form>
  );
}
