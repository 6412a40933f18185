import { Alert, Badge, Button, Group, Loader, Modal, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconDeviceTablet } from '@tabler/icons-react';
import { useState } from 'react';
import { BOOKING_TYPE_LABELS } from '../../../../domain/enums';
import type { WalkInRequest } from '../../../../domain/kiosk';
import { localTimeOf } from '../../../../domain/slot-grid';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { gateKey } from '../api/gate-api';
import { acceptWalkInRequest, declineWalkInRequest, walkInRequestsQuery } from '../api/walk-in-requests-api';
import { WalkInDialog } from './walk-in-dialog';

// Trucks without a booking that registered at the site's kiosk (decision 041), oldest first, live.
// Accept opens the walk-in form with what the driver gave (the gate's walk-in picks the bay and
// checks the truck in); Decline asks to confirm, with an optional reason.

type Props = { orgId: string; siteId: string; timeZone: string; canDecide: boolean; isStopped: boolean };

export function WalkInRequests({ orgId, siteId, timeZone, canDecide, isStopped }: Props) {
  const queryClient = useQueryClient();
  const requests = useQuery(walkInRequestsQuery(orgId, siteId));
  const [accepting, setAccepting] = useState<WalkInRequest | null>(null);
  const [declining, setDeclining] = useState<WalkInRequest | null>(null);
  const [reason, setReason] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: gateKey(orgId, siteId) });

  const decline = useMutation({
    mutationFn: ({ request, reason }: { request: WalkInRequest; reason: string }) => declineWalkInRequest(siteId, request.id, reason.trim() || undefined),
    onSuccess: (request) => {
      toast.success('Request declined', `${request.vehicleRegistration} · ${request.companyName}`);
      setDeclining(null);
      setReason('');
    },
    onError: (error) => toast.error('Request not declined', errorMessage(error, 'The request could not be declined.')),
    onSettled: refresh,
  });

  const items = requests.data ?? [];
  if (requests.isLoading) {
    return (
      <Group justify="center" py="sm">
        <Loader size="sm" aria-label="Loading kiosk requests" />
      </Group>
    );
  }
  if (requests.isError) {
    return (
      <Alert color="red" title="Kiosk requests could not be loaded" role="alert">
        <Group justify="space-between">
          <Text size="sm">{errorMessage(requests.error, 'Try again.')}</Text>
          <Button size="lg" variant="white" color="red" onClick={() => void requests.refetch()}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  }
  if (items.length === 0) return null;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="walk-in-requests-heading" data-testid="walk-in-requests">
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} size="h3" id="walk-in-requests-heading">
          Walk-in requests from the kiosk
        </Title>
        <Badge size="lg" color="orange.9">
          {items.length}
        </Badge>
      </Group>
      <Stack gap="sm">
        {items.map((request) => (
          <Paper key={request.id} withBorder radius="md" p="sm" data-testid="walk-in-request" data-plate={request.vehicleRegistration}>
            <Group justify="space-between" gap="sm" wrap="wrap">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={800} fz={22} style={{ overflowWrap: 'anywhere' }}>
                  {request.vehicleRegistration}
                </Text>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {request.companyName}
                  {request.driverName ? ` · ${request.driverName}` : ''}
                  {request.driverPhone ? ` · ${request.driverPhone}` : ''} · {BOOKING_TYPE_LABELS[request.bookingType]}
                </Text>
                <Text size="sm" c="dimmed">
                  <IconDeviceTablet size={14} aria-hidden style={{ verticalAlign: 'middle' }} /> {request.deviceName ?? 'Kiosk'} at {localTimeOf(new Date(request.createdAt), timeZone)}
                </Text>
              </Stack>
              {canDecide ? (
                <Group gap="sm">
                  <Button size="lg" variant="outline" color="red.9" onClick={() => setDeclining(request)} aria-label={`Decline ${request.vehicleRegistration}`}>
                    Decline
                  </Button>
                  <Button size="lg" onClick={() => setAccepting(request)} disabled={isStopped} aria-label={`Accept ${request.vehicleRegistration}`}>
                    Accept
                  </Button>
                </Group>
              ) : (
                <Text size="sm" c="dimmed">
                  A dock master accepts or declines it.
                </Text>
              )}
            </Group>
          </Paper>
        ))}
      </Stack>

      {accepting ? (
        <WalkInDialog
          key={accepting.id}
          opened
          siteId={siteId}
          orgId={orgId}
          prefill={{
            vehicleRegistration: accepting.vehicleRegistration,
            tenantName: accepting.companyName,
            contactName: accepting.driverName ?? '',
            tenantPhone: accepting.driverPhone ?? '',
            bookingType: accepting.bookingType,
          }}
          register={(input) => acceptWalkInRequest(siteId, accepting.id, input)}
          onClose={() => {
            setAccepting(null);
            void refresh();
          }}
        />
      ) : null}

      <Modal opened={!!declining} onClose={() => setDeclining(null)} title="Decline this walk-in request?" closeButtonProps={{ 'aria-label': 'Close dialog', size: 'xl' }}>
        {declining ? (
          <Stack gap="md">
            <Text>
              <b>{declining.vehicleRegistration}</b> ({declining.companyName}) is told at the gate house that it cannot come in now.
            </Text>
            <Textarea size="lg" label="Reason (optional)" autosize minRows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
            <Group justify="flex-end">
              <Button size="lg" variant="default" onClick={() => setDeclining(null)}>
                Keep it
              </Button>
              <Button size="lg" color="red.9" loading={decline.isPending} onClick={() => decline.mutate({ request: declining, reason })}>
                Decline request
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </Paper>
  );
}
