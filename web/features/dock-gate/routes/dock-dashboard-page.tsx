import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconArrowLeft, IconRefresh } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { STORAGE_KEYS } from '../../../../domain/constants';
import type { GateAction, GateBooking } from '../../../../domain/gate';
import { StatCard } from '../../../components/ui/stat-card';
import { errorMessage } from '../../../lib/api-client';
import { readJson } from '../../../lib/storage';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { gateKey, getGateOverview, moveBooking, resumeSite, stopSite, type GateMove } from '../api/gate-api';
import { BayGrid } from '../components/bay-grid';
import { GateBookingRow } from '../components/booking-row';
import { useAuth } from '../../auth/hooks/use-auth';
import { EMERGENCY_ROLES, EmergencyBanner, EmergencyStopButton } from '../components/emergency-controls';
import { GateActionDialogs, type PendingDialog } from '../components/gate-action-dialogs';

// /dockmaster/dashboard (issue 10): the gate of the signed-in site, live. Every button is one the
// server offers for the booking (its `actions`); a refusal shows the server's message and refreshes.
// Dock masters, org admins and security staff share it (decision 012): security sees the same
// picture and the emergency banner, without Emergency Stop and Resume (the server refuses them).

type Selected = { id: string; name: string };

const SUCCESS: Record<GateMove['kind'], string> = {
  'check-in': 'Checked in',
  start: 'Started at bay',
  'check-out': 'Checked out',
  extend: 'Time extended',
  approve: 'Booking approved',
  decline: 'Booking declined',
};

function Section({ title, children, extra }: { title: string; children: ReactNode; extra?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} size="h3">
          {title}
        </Title>
        {extra}
      </Group>
      {children}
    </Paper>
  );
}

export default function DockDashboardPage() {
  usePageTitle('Dock Operations');
  const site = readJson<Selected>(STORAGE_KEYS.selectedSite);
  const org = readJson<Selected>(STORAGE_KEYS.selectedOrg);
  if (!site || !org) {
    return (
      <Alert color="orange" title="No site chosen" m="md">
        Sign in at{' '}
        <Anchor component={Link} to="/dockmaster">
          the dock master sign-in
        </Anchor>{' '}
        and choose your site.
      </Alert>
    );
  }
  return <Dashboard siteId={site.id} orgId={org.id} />;
}

function Dashboard({ siteId, orgId }: { siteId: string; orgId: string }) {
  const queryClient = useQueryClient();
  const { role } = useAuth();
  // Unknown while the role loads: the buttons appear once it is known to allow them.
  const canStopSite = role !== null && EMERGENCY_ROLES.has(role);
  const key = gateKey(orgId, siteId);
  const overview = useQuery({ queryKey: key, queryFn: () => getGateOverview(siteId), refetchInterval: 60_000 });
  const [dialog, setDialog] = useState<PendingDialog | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const move = useMutation({
    mutationFn: ({ booking, move }: { booking: GateBooking; move: GateMove; action: GateAction }) => moveBooking(siteId, booking.id, move),
    onMutate: ({ booking, action }) => setBusyId(`${booking.id}:${action}`),
    onSuccess: (result, { move }) => {
      const dwell = result.dwellMinutes !== null ? ` after ${result.dwellMinutes} min on site` : '';
      toast.success(SUCCESS[move.kind], `${result.booking.vehicleRegistration} · ${result.booking.tsrNumber}${dwell}`);
      setDialog(null);
    },
    onError: (error) => {
      toast.error('Action refused', errorMessage(error, 'The server refused the action.'));
      setDialog(null);
    },
    onSettled: () => {
      setBusyId(null);
      return refresh();
    },
  });
  const send = (booking: GateBooking, action: GateAction, m: GateMove) => move.mutate({ booking, move: m, action });

  const emergency = useMutation({
    mutationFn: (reason: string | null) => (reason === null ? resumeSite(siteId) : stopSite(siteId, reason)),
    onSuccess: (state) =>
      state.isStopped ? toast.error('Emergency stop', 'All operations at this site are stopped.') : toast.success('Operations resumed', 'The site is open again.'),
    onError: (error) => toast.error('Action refused', errorMessage(error, 'The server refused the action.')),
    onSettled: refresh,
  });
  const setEmergency = async (reason: string | null) => {
    try {
      await emergency.mutateAsync(reason);
      return true;
    } catch {
      return false;
    }
  };

  const onAction = (booking: GateBooking, action: GateAction) => {
    const version = booking.version;
    switch (action) {
      case 'approve':
        return send(booking, action, { kind: 'approve', version });
      case 'check_in':
        return send(booking, action, { kind: 'check-in', version });
      case 'check_out':
        return send(booking, action, { kind: 'check-out', version });
      case 'decline':
        return setDialog({ kind: 'decline', booking });
      case 'start':
        return setDialog({ kind: 'start', booking });
      case 'force_check_out':
        return setDialog({ kind: 'force-check-out', booking });
      case 'extend':
        return setDialog({ kind: 'extend', booking });
    }
  };

  const data = overview.data;
  const tz = data?.timeZone ?? 'UTC';
  const c = data?.counters;
  const counters: Array<[string, number | undefined]> = [
    ['Expected Today', c?.expectedToday],
    ['On Site', c?.onSite],
    ['At Bay', c?.atBay],
    ['Late', c?.late],
    ['Overstay', c?.overstay],
  ];

  return (
    <Stack gap="md" maw={1400} mx="auto" w="100%" style={{ minWidth: 0 }}>
      {/* The controls sit on the left, under the title: toasts open at the top right and would
          cover them there right after a gate action (on tablets for their whole width). */}
      <Stack gap={4} style={{ minWidth: 0 }}>
        <Anchor component={Link} to="/" size="sm" style={{ display: 'inline-flex', alignItems: 'center', gap: 4, minHeight: 44, alignSelf: 'flex-start' }}>
          <IconArrowLeft size={16} aria-hidden /> Back to Home
        </Anchor>
        <Title order={1}>Dock Operations</Title>
        <Text c="dimmed" size="sm" style={{ overflowWrap: 'anywhere' }}>
          {data ? `${data.siteName} · ${data.date} (${data.timeZone})` : 'Loading the gate…'}
        </Text>
        <Group gap="xs" mt="xs">
          {data && canStopSite ? <EmergencyStopButton emergency={data.emergency} isBusy={emergency.isPending} onStop={(r) => setEmergency(r)} /> : null}
          <Button variant="default" size="md" leftSection={<IconRefresh size={18} aria-hidden />} onClick={refresh} loading={overview.isFetching && !overview.isLoading}>
            Refresh
          </Button>
        </Group>
      </Stack>

      {data ? (
        <EmergencyBanner emergency={data.emergency} timeZone={tz} isBusy={emergency.isPending} onResume={() => setEmergency(null)} canResume={canStopSite} />
      ) : null}

      {overview.isError && !data ? (
        <Alert color="red" title="Error loading data">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{errorMessage(overview.error, 'The gate could not be loaded.')}</Text>
            <Button size="md" variant="white" color="red" onClick={refresh}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : null}

      <SimpleGrid cols={{ base: 2, xs: 3, sm: 5 }} spacing="sm" data-testid="gate-counters">
        {counters.map(([label, value]) => (
          <div key={label} data-counter={label} style={{ minWidth: 0 }}>
            <StatCard label={label} value={value ?? 0} isLoading={overview.isLoading} isError={overview.isError && !data} />
          </div>
        ))}
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Section title="Live Check-ins" extra={data ? <Text size="sm" c="dimmed">{data.live.length} on the list</Text> : null}>
          <BookingList isLoading={overview.isLoading} bookings={data?.live} empty="No vehicles to handle right now." timeZone={tz} busyId={busyId} onAction={onAction} testId="live-list" />
        </Section>
        <Section title="Upcoming Arrivals" extra={<Text size="sm" c="dimmed">Next 4 hours</Text>}>
          <BookingList isLoading={overview.isLoading} bookings={data?.upcoming} empty="No arrivals in the next 4 hours." timeZone={tz} busyId={busyId} testId="upcoming-list" />
        </Section>
      </SimpleGrid>

      <Section title="Bay Status">
        {overview.isLoading ? <Skeleton height={120} /> : data ? <BayGrid bays={data.bays} timeZone={tz} /> : null}
      </Section>

      <GateActionDialogs
        dialog={dialog}
        siteId={siteId}
        timeZone={tz}
        isBusy={move.isPending}
        onClose={() => setDialog(null)}
        onDecline={(b, reason) => send(b, 'decline', { kind: 'decline', version: b.version, reason })}
        onStart={(b, bayId) => send(b, 'start', { kind: 'start', version: b.version, bayId })}
        onForceCheckOut={(b) => send(b, 'force_check_out', { kind: 'check-out', version: b.version })}
        onExtend={(b, endTime) => send(b, 'extend', { kind: 'extend', version: b.version, endTime })}
      />
    </Stack>
  );
}

type ListProps = {
  isLoading: boolean;
  bookings: GateBooking[] | undefined;
  empty: string;
  timeZone: string;
  busyId: string | null;
  onAction?: (booking: GateBooking, action: GateAction) => void;
  testId: string;
};

function BookingList({ isLoading, bookings, empty, timeZone, busyId, onAction, testId }: ListProps) {
  if (isLoading) {
    return (
      <Stack gap="xs">
        <Skeleton height={72} />
        <Skeleton height={72} />
      </Stack>
    );
  }
  if (!bookings) return null;
  if (bookings.length === 0) {
    return (
      <Text c="dimmed" size="sm" py="md" ta="center">
        {empty}
      </Text>
    );
  }
  return (
    <Stack gap="xs" data-testid={testId}>
      {bookings.map((b) => (
        <GateBookingRow key={b.id} booking={b} timeZone={timeZone} busyId={busyId} onAction={onAction} />
      ))}
    </Stack>
  );
}
