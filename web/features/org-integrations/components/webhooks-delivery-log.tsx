import { Alert, Badge, Button, Code, Drawer, Group, Loader, Pagination, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { format } from 'date-fns';
import { useState } from 'react';
import { WEBHOOK_EVENT_LABELS, type WebhookDelivery, type WebhookEndpoint, type WebhookEventType } from '../../../../domain/webhooks';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useRedeliverWebhook, useWebhookDeliveries } from './webhooks-api';

// An endpoint's delivery log: every delivery, latest first, 20 a page — event, status, attempts,
// the last answer's code and duration, the next attempt — with Redeliver for finished ones.

const when = (iso: string | null) => (iso ? format(new Date(iso), 'd MMM yyyy HH:mm:ss') : null);

const STATUS_COLOR = { pending: 'yellow', delivered: 'green', failed: 'red' } as const;
const STATUS_LABEL = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' } as const;

function eventLabel(type: string): string {
  return WEBHOOK_EVENT_LABELS[type as WebhookEventType] ?? (type === 'webhook.ping' ? 'Test ping' : type);
}

function DeliveryRow({ delivery, onRedeliver, isRedelivering }: { delivery: WebhookDelivery; onRedeliver: () => void; isRedelivering: boolean }) {
  const d = delivery;
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500}>
          {eventLabel(d.eventType)}
        </Text>
        <Text size="xs" c="dimmed">
          {when(d.createdAt)}
          {d.redeliveryOf ? ' · redelivery' : ''}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge color={STATUS_COLOR[d.status]} variant="dot" style={{ minWidth: 'max-content' }}>
          {STATUS_LABEL[d.status]}
        </Badge>
      </Table.Td>
      <Table.Td>
        {d.lastStatusCode !== null ? <Code>{d.lastStatusCode}</Code> : <Text span size="sm" c="dimmed">—</Text>}
        {d.lastError && d.lastStatusCode === null ? (
          <Text size="xs" c="red.8" maw={260} style={{ overflowWrap: 'anywhere' }}>
            {d.lastError}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>{d.lastDurationMs !== null ? `${d.lastDurationMs} ms` : '—'}</Table.Td>
      <Table.Td>
        {d.attempts} of {d.maxAttempts}
      </Table.Td>
      <Table.Td>{d.status === 'pending' ? when(d.nextAttemptAt) : <Text span size="sm" c="dimmed">—</Text>}</Table.Td>
      <Table.Td ta="right">
        {d.status === 'pending' ? null : (
          <Button size="xs" variant="default" leftSection={<IconRefresh size={14} aria-hidden />} loading={isRedelivering} onClick={onRedeliver} aria-label={`Redeliver ${eventLabel(d.eventType)} of ${when(d.createdAt)}`}>
            Redeliver
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

export function WebhookDeliveryLog({ orgId, endpoint, onClose }: { orgId: string; endpoint: WebhookEndpoint | null; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(orgId, endpoint?.id ?? null, page);
  const redeliver = useRedeliverWebhook(orgId);
  const pages = Math.max(1, Math.ceil((deliveries.data?.total ?? 0) / (deliveries.data?.pageSize ?? 20)));

  let body;
  if (deliveries.isLoading) {
    body = (
      <Group justify="center" py="xl">
        <Loader aria-label="Loading deliveries" />
      </Group>
    );
  } else if (deliveries.isError) {
    body = (
      <Alert color="red" title="Could not load the deliveries">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(deliveries.error, 'Try again in a moment.')}</Text>
          <Button size="xs" variant="default" onClick={() => void deliveries.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  } else if (!deliveries.data || deliveries.data.items.length === 0) {
    body = (
      <Text c="dimmed" ta="center" py="lg" size="sm">
        Nothing delivered yet. Send a test, or wait for the next event.
      </Text>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="xs" fz="sm" aria-label="Deliveries" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Event</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Response</Table.Th>
              <Table.Th>Duration</Table.Th>
              <Table.Th>Attempts</Table.Th>
              <Table.Th>Next attempt</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {deliveries.data.items.map((d) => (
              <DeliveryRow
                key={d.id}
                delivery={d}
                isRedelivering={redeliver.isPending && redeliver.variables?.deliveryId === d.id}
                onRedeliver={() =>
                  redeliver.mutate(
                    { endpointId: endpoint!.id, deliveryId: d.id },
                    {
                      onSuccess: () => {
                        setPage(1);
                        toast.success('Queued again', `${eventLabel(d.eventType)} will be sent again now.`);
                      },
                      onError: (error) => toast.error('Not redelivered', errorMessage(error, 'The delivery could not be queued again.')),
                    },
                  )
                }
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Drawer opened={!!endpoint} onClose={onClose} position="right" size="xl" title="Delivery log" closeButtonProps={{ 'aria-label': 'Close' }}>
      {endpoint ? (
        <Stack gap="md">
          <Stack gap={2}>
            <Tooltip label={endpoint.url} openDelay={400}>
              <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                {endpoint.url}
              </Text>
            </Tooltip>
            <Text size="sm" c="dimmed">
              Failed attempts are retried after 1, 4, 16, 64 and 256 minutes. A delivery that fails every attempt disables the endpoint.
            </Text>
          </Stack>
          {endpoint.status === 'disabled' ? (
            <Alert color="red" variant="light" title="This endpoint is disabled">
              {endpoint.disabledReason ?? 'Nothing is sent to it.'} Enable it before redelivering.
            </Alert>
          ) : null}
          {body}
          {pages > 1 ? (
            <Group justify="flex-end">
              <Pagination total={pages} value={Math.min(page, pages)} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
            </Group>
          ) : null}
        </Stack>
      ) : null}
    </Drawer>
  );
}
