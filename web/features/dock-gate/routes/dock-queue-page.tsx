import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconAlertOctagon, IconRefresh, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { STORAGE_KEYS } from '../../../../domain/constants';
import type { GateBooking } from '../../../../domain/gate';
import { localTimeOf } from '../../../../domain/slot-grid';
import { paths } from '../../../app/paths';
import { errorMessage } from '../../../lib/api-client';
import { readJson } from '../../../lib/storage';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAuth } from '../../auth/hooks/use-auth';
import { gateKey, gateQueueQuery, moveBooking } from '../api/gate-api';
import { GateActionDialogs, type PendingDialog } from '../components/gate-action-dialogs';
import type { QueueItem } from '../components/queue-item';
import { QueueList } from '../components/queue-list';
import { WalkInDialog } from '../components/walk-in-dialog';
import { WalkInRequests } from '../components/walk-in-requests';

// /dockmaster/queue (issue 10): the vehicles of the signed-in site that have arrived (checked in),
// first come first, with how long they have waited, the bay they are booked on and whether it is
// free. Staff call a vehicle to its bay or to another free compatible one (when the server offers
// them `start`), register walk-ins, and accept or decline the kiosk's walk-in requests (decision
// 041). Live: booking, site and walk-in request events refresh the queue.

type Selected = { id: string; name: string };

export default function DockQueuePage() {
  usePageTitle('Gate Queue');
  const site = readJson<Selected>(STORAGE_KEYS.selectedSite);
  const org = readJson<Selected>(STORAGE_KEYS.selectedOrg);
  if (!site || !org) {
    return (
      <Alert color="orange" title="No site chosen" m="md">
        Sign in at{' '}
        <Anchor component={Link} to={paths.dockmaster.login}>
          the dock master sign-in
        </Anchor>{' '}
        and choose your site.
      </Alert>
    );
  }
  return <GateQueue siteId={site.id} orgId={org.id} siteName={site.name} />;
}

function GateQueue({ siteId, orgId, siteName }: { siteId: string; orgId: string; siteName: string }) {
  const queryClient = useQueryClient();
  const queue = useQuery(gateQueueQuery(orgId, siteId));
  const { role } = useAuth();
  // Kiosk walk-in requests are accepted or declined by dock masters and admins (security staff see them).
  const canDecideRequests = role === 'dockmaster' || role === 'org_admin';
  const [dialog, setDialog] = useState<PendingDialog | null>(null);
  const [isWalkInOpen, setIsWalkInOpen] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: gateKey(orgId, siteId) });

  const call = useMutation({
    mutationFn: ({ booking, bayId }: { booking: GateBooking; bayId?: string }) =>
      moveBooking(siteId, booking.id, { kind: 'start', version: booking.version, bayId }),
    onMutate: ({ booking }) => setBusyId(booking.id),
    onSuccess: (result) => {
      toast.success('Called to bay', `${result.booking.vehicleRegistration} · ${result.booking.tsrNumber} → bay ${result.booking.bayName}`);
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

  const data = queue.data;
  const isStopped = data?.emergency.isStopped ?? false;
  const timeZone = data?.timeZone ?? 'UTC';
  const count = data?.items.length ?? 0;

  return (
    <Stack gap="md" maw={1100} mx="auto" w="100%" style={{ minWidth: 0 }}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Title order={1}>Gate Queue</Title>
          <Text c="dimmed" size="sm">
            {data ? `${data.siteName} · vehicles that have arrived, first come first · times in ${data.timeZone}` : `${siteName} · loading the queue…`}
          </Text>
        </div>
        <Group gap="sm">
          <Button variant="default" size="lg" leftSection={<IconRefresh size={20} aria-hidden />} onClick={refresh} loading={queue.isFetching && !queue.isLoading}>
            Refresh
          </Button>
          <Button size="lg" leftSection={<IconUserPlus size={20} aria-hidden />} onClick={() => setIsWalkInOpen(true)} disabled={isStopped}>
            Register walk-in
          </Button>
        </Group>
      </Group>

      {isStopped && data ? (
        <Alert color="red.9" variant="filled" radius="md" icon={<IconAlertOctagon size={28} aria-hidden />} role="alert" data-testid="queue-emergency">
          <Text fw={700}>
            Emergency stop in effect{data.emergency.since ? ` since ${localTimeOf(new Date(data.emergency.since), timeZone)}` : ''}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {data.emergency.reason ? `Reason: ${data.emergency.reason}. ` : ''}Check-in, calls to bays and walk-ins are on hold until the site resumes;
            the hauliers due today have been e-mailed.
          </Text>
        </Alert>
      ) : null}

      {queue.isError ? (
        <Alert color="red" title={data ? 'The queue could not be refreshed' : 'Error loading data'} role="alert">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{errorMessage(queue.error, 'The queue could not be loaded.')}</Text>
            <Button size="lg" variant="white" color="red" onClick={refresh}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : null}

      <WalkInRequests orgId={orgId} siteId={siteId} timeZone={timeZone} canDecide={canDecideRequests} isStopped={isStopped} />

      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="queue-heading">
        <Group justify="space-between" mb="sm" gap="xs">
          <Title order={2} size="h3" id="queue-heading">
            Waiting
          </Title>
          {data ? (
            <Text size="sm" c="dimmed" data-testid="queue-count">
              {count === 1 ? '1 vehicle' : `${count} vehicles`}
            </Text>
          ) : null}
        </Group>
        <QueueList
          items={data?.items}
          isLoading={queue.isLoading}
          timeZone={timeZone}
          isStopped={isStopped}
          busyId={busyId}
          onCall={(item: QueueItem) => call.mutate({ booking: item })}
          onChooseBay={(item: QueueItem) => setDialog({ kind: 'start', booking: item, purpose: 'call' })}
        />
      </Paper>

      <GateActionDialogs
        dialog={dialog}
        siteId={siteId}
        orgId={orgId}
        timeZone={timeZone}
        isBusy={call.isPending}
        onClose={() => setDialog(null)}
        onStart={(booking, bayId) => call.mutate({ booking, bayId })}
      />
      <WalkInDialog opened={isWalkInOpen} siteId={siteId} orgId={orgId} onClose={() => setIsWalkInOpen(false)} />
    </Stack>
  );
}
