import { Alert, Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useCancelOccurrence, useMoveOccurrence, useResolveConflict } from '../api/standing-bookings-api';

// The choices for one date of a series: cancel it (confirmed), move its booking, or — when it could
// not be booked — retry at the series' time, pick another time, or skip it.

export type OccurrenceAction = { kind: 'cancel' | 'move' | 'pick'; seriesId: string; date: string; label: string } | null;

export function OccurrenceActionModal({ orgId, action, onClose }: { orgId: string; action: OccurrenceAction; onClose: () => void }) {
  const [date, setDate] = useState(action?.date ?? '');
  const [slot, setSlot] = useState('');
  const [error, setError] = useState<string | null>(null);
  const cancel = useCancelOccurrence(orgId);
  const move = useMoveOccurrence(orgId);
  const resolve = useResolveConflict(orgId);
  if (!action) return null;
  const run = async () => {
    setError(null);
    try {
      if (action.kind === 'cancel') await cancel.mutateAsync({ id: action.seriesId, date: action.date });
      else if (action.kind === 'move') await move.mutateAsync({ id: action.seriesId, date: action.date, target: { date, slot } });
      else await resolve.mutateAsync({ id: action.seriesId, date: action.date, resolution: { action: 'pick', date, slot } });
      toast.success(action.kind === 'cancel' ? 'Date cancelled' : 'Date booked', action.label);
      onClose();
    } catch (e) {
      setError(errorMessage(e, 'Could not change this date.'));
    }
  };
  const title = action.kind === 'cancel' ? 'Cancel this date?' : action.kind === 'move' ? 'Move this date' : 'Book at another time';
  return (
    <Modal opened onClose={onClose} title={title}>
      <Stack gap="sm">
        <Text size="sm">{action.label}</Text>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {action.kind !== 'cancel' && (
          <Group grow>
            <TextInput label="Date" type="date" value={date} onChange={(e) => setDate(e.currentTarget.value)} />
            <TextInput label="Time" type="time" value={slot} onChange={(e) => setSlot(e.currentTarget.value)} />
          </Group>
        )}
        {action.kind === 'cancel' && <Text size="sm">The booking of this date is cancelled and the haulier is e-mailed. The rest of the series stays.</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Keep
          </Button>
          <Button onClick={() => void run()} loading={cancel.isPending || move.isPending || resolve.isPending}>
            {action.kind === 'cancel' ? 'Cancel date' : 'Book'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Retry at the series' own time, or skip the date: one click each (the result is toasted). */
export function useQuickResolve(orgId: string) {
  const resolve = useResolveConflict(orgId);
  return {
    pending: resolve.isPending,
    run: async (seriesId: string, date: string, action: 'retry' | 'skip') => {
      try {
        await resolve.mutateAsync({ id: seriesId, date, resolution: { action } });
        toast.success(action === 'retry' ? 'Date booked' : 'Date skipped', date);
      } catch (e) {
        toast.error('Still not possible', errorMessage(e, 'The date could not be booked.'));
      }
    },
  };
}

/** A reason, required (decline) or optional (cancel the series), then the action. */
export function ReasonModal(props: { opened: boolean; title: string; body: string; confirm: string; required: boolean; pending: boolean; onClose: () => void; onConfirm: (reason: string) => Promise<void> }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    if (props.required && !reason.trim()) {
      setError('Give a reason');
      return;
    }
    try {
      await props.onConfirm(reason.trim());
      setReason('');
      props.onClose();
    } catch (e) {
      setError(errorMessage(e, 'Could not do this.'));
    }
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title}>
      <Stack gap="sm">
        <Text size="sm">{props.body}</Text>
        <Textarea label="Reason" required={props.required} value={reason} onChange={(e) => setReason(e.currentTarget.value)} error={error} autosize minRows={2} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Keep
          </Button>
          <Button color="red.9" onClick={() => void submit()} loading={props.pending}>
            {props.confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
