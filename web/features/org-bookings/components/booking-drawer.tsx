import { Alert, Anchor, Button, Divider, Drawer, Group, List, Loader, Modal, Stack, Table, Text, Textarea, Timeline, Title } from '@mantine/core';
import { IconAlertOctagon, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { BOOKING_STATUS_LABELS, RELEASED_BOOKING_STATUSES, RESCHEDULABLE_STATUSES, TRANSITION_ACTION_LABELS } from '../../../../domain/booking-lifecycle';
import {
  BOOKING_SOURCE_LABELS,
  BOOKING_TYPE_LABELS,
  SPECIAL_ACCESS_LABELS,
  TSR_SYSTEM_LABELS,
  VEHICLE_TYPE_LABELS,
  type BookingSource,
  type BookingStatus,
  type BookingType,
  type SpecialAccessNeed,
  type TsrSystemType,
  type VehicleType,
} from '../../../../domain/enums';
import type { BookingDetail } from '../../../../domain/org-bookings';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { downloadDocument, useBookingDetail, useTransitionBooking } from '../api/org-bookings-api';
import { formatDateTime, formatSiteRange } from '../utils/booking-display';
import { BookingStatusBadge } from '../../../components/ui/booking-status';
import { RescheduleForm } from './reschedule-form';
import { RescheduleRequestPanel } from './reschedule-request-panel';

type Props = { orgId: string; bookingId: string | null; onClose: () => void };

/** Moves that ask first (with a reason) and stand out: they end the booking for the haulier (decline, cancel, no-show). */
const isEndingMove = (to: BookingStatus) => RELEASED_BOOKING_STATUSES.includes(to);

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w="38%" fw={500} c="dimmed">
        {label}
      </Table.Th>
      <Table.Td>{children ?? '—'}</Table.Td>
    </Table.Tr>
  );
}

function Details({ b }: { b: BookingDetail }) {
  const needs = b.specialAccessNeeds.map((n) => SPECIAL_ACCESS_LABELS[n as SpecialAccessNeed] ?? n).join(', ');
  return (
    <Table verticalSpacing={6} fz="sm" aria-label="Booking details">
      <Table.Tbody>
        <Field label="TSR number">{b.tsrNumber}</Field>
        <Field label="TSR system">{b.tsrSystemType ? (TSR_SYSTEM_LABELS[b.tsrSystemType as TsrSystemType] ?? b.tsrSystemType) : null}</Field>
        <Field label="TSR URL">{b.tsrUrl ? <Anchor href={b.tsrUrl} target="_blank" rel="noreferrer noopener">{b.tsrUrl}</Anchor> : null}</Field>
        <Field label="Company">{b.tenantName}</Field>
        <Field label="Contact">{b.contactName}</Field>
        <Field label="Email">{b.tenantEmail}</Field>
        <Field label="Phone">{b.tenantPhone}</Field>
        <Field label="Booking type">{BOOKING_TYPE_LABELS[b.bookingType as BookingType] ?? b.bookingType}</Field>
        <Field label="When">{`${formatSiteRange(b.startTime, b.endTime, b.timeZone)} (${b.timeZone})`}</Field>
        <Field label="Duration">{`${b.expectedDurationMin} minutes`}</Field>
        <Field label="Site and bay">{`${b.siteName}, ${b.bayName}`}</Field>
        <Field label="Vehicle">{`${VEHICLE_TYPE_LABELS[b.vehicleType as VehicleType] ?? b.vehicleType}, ${b.vehicleRegistration}`}</Field>
        <Field label="Height / length">{`${b.vehicleHeightM} m${b.vehicleLengthM !== null ? ` / ${b.vehicleLengthM} m` : ''}`}</Field>
        <Field label="Special access">{needs || null}</Field>
        <Field label="Goods">{b.goodsDescription}</Field>
        <Field label="Induction completed">{b.driverInductionCompleted ? 'Yes' : 'No'}</Field>
        <Field label="Notes">{b.notes}</Field>
        <Field label="Source">{BOOKING_SOURCE_LABELS[b.source as BookingSource] ?? b.source}</Field>
        {b.statusReason ? <Field label="Reason">{b.statusReason}</Field> : null}
        <Field label="Requested">{formatDateTime(b.createdAt, b.timeZone)}</Field>
      </Table.Tbody>
    </Table>
  );
}

function ReasonModal({ opened, title, required, onCancel, onConfirm, isPending }: {
  opened: boolean;
  title: string;
  required: boolean;
  onCancel: () => void;
  onConfirm: (reason: string) => void;
  isPending: boolean;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (required && !reason.trim()) return setError('A reason is required');
          onConfirm(reason.trim());
        }}
      >
        <Stack>
          <Textarea
            label={required ? 'Reason' : 'Reason (optional)'}
            description="The haulier sees it in their e-mail."
            withAsterisk={required}
            autosize
            minRows={3}
            maxLength={500}
            value={reason}
            error={error}
            data-autofocus
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setError(null);
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              Back
            </Button>
            <Button type="submit" color="red.9" loading={isPending}>
              {title}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function Actions({ orgId, booking }: { orgId: string; booking: BookingDetail }) {
  const move = useTransitionBooking(orgId, booking.id);
  const [asking, setAsking] = useState<BookingStatus | null>(null);
  const [rescheduling, setRescheduling] = useState(false);
  const run = (to: BookingStatus, reason?: string) =>
    move.mutate(
      { to, version: booking.version, ...(reason ? { reason } : {}) },
      {
        onSuccess: (next) => {
          setAsking(null);
          toast.success('Booking updated', `${next.tsrNumber} is now ${BOOKING_STATUS_LABELS[next.status].toLowerCase()}.`);
        },
        onError: (error) => toast.error('Not changed', error instanceof ApiError ? error.message : 'The booking could not be changed'),
      },
    );
  // The server says which moves are open now, the clock included, and when the others open.
  const moves = booking.allowedTransitions;
  const upcoming = booking.upcomingTransitions;
  const held = booking.heldTransitions;
  const canReschedule = RESCHEDULABLE_STATUSES.includes(booking.status);
  if (moves.length === 0 && upcoming.length === 0 && held.length === 0 && !canReschedule) {
    return <Text size="sm" c="dimmed">No further action: this booking is {BOOKING_STATUS_LABELS[booking.status].toLowerCase()}.</Text>;
  }
  return (
    <Stack gap="sm">
      <Group gap="xs">
        {moves.map((to) => (
          <Button
            key={to}
            size="sm"
            // Outline red 9 on white: the ending moves stand out and keep their text above 4.5:1.
            color={isEndingMove(to) ? 'red.9' : undefined}
            variant={to === 'approved' || to === 'checked_in' || to === 'completed' ? 'filled' : to === 'in_progress' ? 'light' : 'outline'}
            loading={move.isPending && move.variables?.to === to}
            onClick={() => (isEndingMove(to) ? setAsking(to) : run(to))}
          >
            {TRANSITION_ACTION_LABELS[to] ?? BOOKING_STATUS_LABELS[to]}
          </Button>
        ))}
        {canReschedule ? (
          <Button size="sm" variant="default" onClick={() => setRescheduling((open) => !open)} aria-expanded={rescheduling}>
            Reschedule
          </Button>
        ) : null}
      </Group>
      {held.length > 0 ? <HeldMoves held={held} /> : null}
      {upcoming.map((u) => (
        <Text key={u.to} size="sm" c="dimmed" data-testid="upcoming-move">
          {TRANSITION_ACTION_LABELS[u.to] ?? BOOKING_STATUS_LABELS[u.to]} opens {formatDateTime(u.opensAt, booking.timeZone)} (site time, {booking.timeZone}).
        </Text>
      ))}
      {rescheduling ? <RescheduleForm orgId={orgId} booking={booking} onDone={() => setRescheduling(false)} /> : null}
      <ReasonModal
        key={asking ?? 'none'}
        opened={asking !== null}
        title={asking === 'declined' ? 'Decline' : asking === 'cancelled' ? 'Cancel booking' : 'Mark No-show'}
        required={asking === 'declined'}
        isPending={move.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={(reason) => asking && run(asking, reason)}
      />
    </Stack>
  );
}

/** The moves an emergency stop at the booking's site holds: not offered, and the server's reason shown instead (as the dock screens do). */
function HeldMoves({ held }: { held: BookingDetail['heldTransitions'] }) {
  const names = held.map((h) => TRANSITION_ACTION_LABELS[h.to] ?? BOOKING_STATUS_LABELS[h.to]).join(' and ');
  return (
    <Alert color="red.9" variant="filled" icon={<IconAlertOctagon size={20} aria-hidden />} title={`${names} on hold: emergency stop`} data-testid="emergency-hold">
      {held[0]!.message}
    </Alert>
  );
}

function History({ booking }: { booking: BookingDetail }) {
  if (booking.history.length === 0) return <Text size="sm" c="dimmed">No history recorded.</Text>;
  return (
    <Timeline bulletSize={12} lineWidth={2} aria-label="Booking history">
      {booking.history.map((h) => (
        <Timeline.Item key={h.id} title={<Text size="sm" fw={600}>{h.toStatus && h.action !== 'booking.rescheduled' ? BOOKING_STATUS_LABELS[h.toStatus as BookingStatus] ?? h.toStatus : h.action.replace('booking.', '')}</Text>}>
          <Text size="xs" c="dimmed">
            {formatDateTime(h.createdAt, booking.timeZone)} · {h.actorEmail ?? (h.actorRole === 'system' ? 'Baywise (automatic)' : 'Haulier')}
          </Text>
          {h.reason ? <Text size="sm">Reason: {h.reason}</Text> : null}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

function Documents({ orgId, booking }: { orgId: string; booking: BookingDetail }) {
  if (booking.documents.length === 0) return <Text size="sm" c="dimmed">No documents were attached.</Text>;
  return (
    <List spacing={4} listStyleType="none" aria-label="Documents">
      {booking.documents.map((d) => (
        <List.Item key={d.id}>
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={() => downloadDocument(orgId, booking.id, d.id, d.fileName).catch((error: Error) => toast.error('Download failed', error.message))}
          >
            {d.fileName} ({Math.max(1, Math.round(d.sizeBytes / 1024))} KB)
          </Button>
        </List.Item>
      ))}
    </List>
  );
}

/** The booking's every field, its documents and history, and the moves the caller may make. */
export function BookingDrawer({ orgId, bookingId, onClose }: Props) {
  const detail = useBookingDetail(orgId, bookingId);
  const b = detail.data;
  return (
    <Drawer opened={bookingId !== null} onClose={onClose} position="right" size="lg" title={b ? `Booking ${b.tsrNumber}` : 'Booking'}
      styles={{ title: { fontSize: 'var(--mantine-font-size-lg)', fontWeight: 700 } }}
      closeButtonProps={{ 'aria-label': 'Close booking details' }}>
      {detail.isLoading ? (
        <Group justify="center" py="xl">
          <Loader aria-label="Loading booking" />
        </Group>
      ) : detail.isError || !b ? (
        <Alert color="red" title="Could not load the booking">
          {detail.error instanceof ApiError ? detail.error.message : 'Try again in a moment.'}
        </Alert>
      ) : (
        <Stack gap="md">
          <Group justify="space-between">
            <BookingStatusBadge status={b.status} />
            <Text size="xs" c="dimmed">
              Version {b.version}
            </Text>
          </Group>
          <RescheduleRequestPanel orgId={orgId} booking={b} />
          <Actions orgId={orgId} booking={b} />
          <Divider />
          <Details b={b} />
          <Title order={3} size="h5">
            Documents
          </Title>
          <Documents orgId={orgId} booking={b} />
          <Title order={3} size="h5">
            History
          </Title>
          <History booking={b} />
        </Stack>
      )}
    </Drawer>
  );
}
