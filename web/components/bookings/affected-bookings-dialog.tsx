import { Alert, Button, Group, Modal, ScrollArea, Stack, Table, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import {
  AFFECTED_ACTION_LABELS,
  AFFECTED_BOOKINGS_CODE,
  CANCEL_REASON_REQUIRED,
  type AffectedAction,
  type AffectedBooking,
  type AffectedResolution,
} from '../../../domain/affected-bookings';
import { ApiError } from '../../lib/api-client';

// The question every setup change asks before it touches live bookings (a bay closed or lowered,
// a blackout over bookings, opening hours changed): here they are — keep them, move them to another
// free compatible bay at the same time, or cancel them with a reason the hauliers are e-mailed.

/** The affected bookings of a 409 `affected_bookings` answer, or null for any other error. */
export function affectedBookingsOf(error: unknown): AffectedBooking[] | null {
  if (!(error instanceof ApiError) || error.code !== AFFECTED_BOOKINGS_CODE) return null;
  const affected = (error.details as { affected?: AffectedBooking[] } | undefined)?.affected;
  return Array.isArray(affected) ? affected : null;
}

function when(booking: AffectedBooking, timeZone: string | undefined): string {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const end = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${format.format(new Date(booking.startTime))}–${end.format(new Date(booking.endTime))}`;
}

export type AffectedBookingsDialogProps = {
  opened: boolean;
  /** What the change is, e.g. 'Closing bay B-2'. */
  title: string;
  /** One line on why these bookings are listed. */
  description: string;
  affected: AffectedBooking[];
  /** The site's time zone, for the times shown (the browser's when omitted). */
  timeZone?: string;
  /** Leave out 'Keep them' where keeping is not possible. */
  actions?: readonly AffectedAction[];
  /** Runs the change with the chosen resolution; the dialog shows its error and stays open when it throws. */
  onResolve: (resolution: AffectedResolution) => Promise<unknown>;
  onClose: () => void;
};

/** Lists the affected bookings and asks what to do with them; cancelling needs a reason. */
export function AffectedBookingsDialog({
  opened,
  title,
  description,
  affected,
  timeZone,
  actions = ['keep', 'reassign', 'cancel'],
  onResolve,
  onClose,
}: AffectedBookingsDialogProps) {
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [pending, setPending] = useState<AffectedAction | null>(null);
  const [error, setError] = useState<string | null>(null);

  const choose = async (action: AffectedAction) => {
    if (action === 'cancel' && !reason.trim()) {
      setReasonError(CANCEL_REASON_REQUIRED);
      return;
    }
    setPending(action);
    setError(null);
    try {
      await onResolve({ action, reason: reason.trim() || undefined });
      setReason('');
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The change could not be saved. Try again.');
    } finally {
      setPending(null);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg" centered>
      <Stack gap="md">
        <Text size="sm">{description}</Text>
        <ScrollArea.Autosize mah={280}>
          <Table striped withTableBorder aria-label="Affected bookings">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>TSR</Table.Th>
                <Table.Th>Tenant</Table.Th>
                <Table.Th>Vehicle</Table.Th>
                <Table.Th>Bay</Table.Th>
                <Table.Th>When</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {affected.map((b) => (
                <Table.Tr key={b.id}>
                  <Table.Td>{b.tsrNumber}</Table.Td>
                  <Table.Td>{b.tenantName}</Table.Td>
                  <Table.Td>
                    {b.vehicleRegistration} ({b.vehicleHeightM} m)
                  </Table.Td>
                  <Table.Td>{b.bayName}</Table.Td>
                  <Table.Td>{when(b, timeZone)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        {actions.includes('cancel') ? (
          <Textarea
            label="Reason (sent to the hauliers if you cancel)"
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setReasonError(null);
            }}
            error={reasonError}
            maxLength={500}
            autosize
            minRows={2}
          />
        ) : null}
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={pending !== null}>
            Back
          </Button>
          {actions.map((action) => (
            <Button
              key={action}
              color={action === 'cancel' ? 'red' : undefined}
              variant={action === 'keep' ? 'light' : 'filled'}
              loading={pending === action}
              disabled={pending !== null && pending !== action}
              onClick={() => void choose(action)}
            >
              {AFFECTED_ACTION_LABELS[action]}
            </Button>
          ))}
        </Group>
      </Stack>
    </Modal>
  );
}
