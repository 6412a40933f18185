import { Alert, Badge, Button, Code, Drawer, Group, Loader, Pagination, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import { format } from 'date-fns';
import { useState, type ReactNode } from 'react';
import { WEBHOOK_EVENT_LABELS, type WebhookDelivery, type WebhookDeliveryList, type WebhookEndpoint, type WebhookEventType } from '../../../../domain/webhooks';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useRedeliverWebhook, webhookDeliveriesQuery } from './webhooks-api';

// A delivery log, for every sender of the webhook outbox: an endpoint's deliveries, the TSR
// link's work notes, a carrier subscription's callbacks. Latest first, 20 a page — event, when,
// status, attempts, the last answer's code and duration, the next attempt, the last error — with
// Redeliver where the log allows it. Each log passes its query, its labels and its extra column.

const when = (iso: string | null) => (iso ? format(new Date(iso), 'd MMM yyyy HH:mm:ss') : null);

const STATUS_COLOR = { pending: 'yellow', delivered: 'green', failed: 'red' } as const;
const STATUS_LABEL = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' } as const;

type DeliveryPage<D> = Omit<WebhookDeliveryList, 'items'> & { items: D[] };

export type DeliveryLogProps<D extends WebhookDelivery> = {
  /** Open while set: the drawer's title line (what the log is of) and anything to show above the table. */
  subject: { title: string; url: string; note?: ReactNode; alert?: ReactNode } | null;
  onClose: () => void;
  /** The page's query (key and fetcher). */
  query: (page: number) => { queryKey: QueryKey; queryFn: () => Promise<DeliveryPage<D>> };
  eventLabel: (delivery: D) => string;
  /** A column after the event (e.g. the booking of a TSR note). */
  extraColumn?: { header: string; cell: (delivery: D) => ReactNode };
  /** Sends a delivery again; the button shows where `canRedeliver` allows (default: any finished one). */
  redeliver?: { run: (delivery: D) => Promise<unknown>; canRedeliver?: (delivery: D) => boolean };
  emptyText: string;
};

function DeliveryRow<D extends WebhookDelivery>({
  delivery: d,
  label,
  extra,
  hasActions,
  onRedeliver,
  isRedelivering,
}: {
  delivery: D;
  label: string;
  extra: ReactNode | undefined;
  hasActions: boolean;
  onRedeliver: (() => void) | null;
  isRedelivering: boolean;
}) {
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {when(d.createdAt)}
          {d.redeliveryOf ? ' · redelivery' : ''}
        </Text>
      </Table.Td>
      {extra !== undefined ? <Table.Td>{extra}</Table.Td> : null}
      <Table.Td>
        <Badge color={STATUS_COLOR[d.status]} variant="dot" style={{ minWidth: 'max-content' }}>
          {STATUS_LABEL[d.status]}
        </Badge>
      </Table.Td>
      <Table.Td>
        {d.lastStatusCode !== null ? <Code>{d.lastStatusCode}</Code> : <Text span size="sm" c="dimmed">—</Text>}
        {d.lastError && d.status !== 'delivered' ? (
          <Text size="xs" c="red.8" maw={260} lineClamp={3} title={d.lastError} style={{ overflowWrap: 'anywhere' }}>
            {d.lastError}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{d.lastDurationMs !== null ? `${d.lastDurationMs} ms` : '—'}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {d.attempts} of {d.maxAttempts}
      </Table.Td>
      <Table.Td>{d.status === 'pending' ? when(d.nextAttemptAt) : <Text span size="sm" c="dimmed">—</Text>}</Table.Td>
      {hasActions ? (
        <Table.Td ta="right">
          {onRedeliver ? (
            <Button size="xs" variant="default" leftSection={<IconRefresh size={14} aria-hidden />} loading={isRedelivering} onClick={onRedeliver} aria-label={`Redeliver ${label} of ${when(d.createdAt)}`}>
              Redeliver
            </Button>
          ) : null}
        </Table.Td>
      ) : null}
    </Table.Tr>
  );
}

export function DeliveryLog<D extends WebhookDelivery>({ subject, onClose, query, eventLabel, extraColumn, redeliver, emptyText }: DeliveryLogProps<D>) {
  const [page, setPage] = useState(1);
  const [redelivering, setRedelivering] = useState<string | null>(null);
  const deliveries = useQuery({
    ...query(page),
    enabled: !!subject,
    placeholderData: keepPreviousData,
    // A pending delivery changes by itself: look again while one is waiting.
    refetchInterval: (q) => (q.state.data?.items.some((d) => d.status === 'pending') ? 5_000 : false),
  });
  const pages = Math.max(1, Math.ceil((deliveries.data?.total ?? 0) / (deliveries.data?.pageSize ?? 20)));
  const canRedeliver = (d: D) => !!redeliver && d.status !== 'pending' && (redeliver.canRedeliver?.(d) ?? true);
  const send = async (d: D) => {
    setRedelivering(d.id);
    try {
      await redeliver!.run(d);
      setPage(1);
      toast.success('Queued again', `${eventLabel(d)} will be sent again now.`);
    } catch (error) {
      toast.error('Not redelivered', errorMessage(error, 'The delivery could not be queued again.'));
    } finally {
      setRedelivering(null);
    }
  };

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
        {emptyText}
      </Text>
    );
  } else {
    body = (
      // Focusable when it scrolls sideways (a narrow window), so the keyboard can scroll it too.
      <Table.ScrollContainer type="native" minWidth={(extraColumn ? 120 : 0) + (redeliver ? 760 : 660)} tabIndex={0} role="region" aria-label="Deliveries, scrolls sideways">
        <Table verticalSpacing="xs" fz="sm" aria-label="Deliveries" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Event</Table.Th>
              {extraColumn ? <Table.Th>{extraColumn.header}</Table.Th> : null}
              <Table.Th>Status</Table.Th>
              <Table.Th>Response</Table.Th>
              <Table.Th>Duration</Table.Th>
              <Table.Th>Attempts</Table.Th>
              <Table.Th>Next attempt</Table.Th>
              {redeliver ? (
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              ) : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {deliveries.data.items.map((d) => (
              <DeliveryRow
                key={d.id}
                delivery={d}
                label={eventLabel(d)}
                extra={extraColumn ? extraColumn.cell(d) : undefined}
                isRedelivering={redelivering === d.id}
                hasActions={!!redeliver}
                onRedeliver={canRedeliver(d) ? () => void send(d) : null}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Drawer opened={!!subject} onClose={onClose} position="right" size={extraColumn ? 1000 : 880} title={subject?.title ?? 'Delivery log'} closeButtonProps={{ 'aria-label': 'Close' }}>
      {subject ? (
        <Stack gap="md">
          <Stack gap={2}>
            <Tooltip label={subject.url} openDelay={400}>
              <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                {subject.url}
              </Text>
            </Tooltip>
            <Text size="sm" c="dimmed">
              {subject.note ?? 'Failed attempts are retried after 1, 4, 16, 64 and 256 minutes.'}
            </Text>
          </Stack>
          {subject.alert}
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

function webhookEventLabel(d: WebhookDelivery): string {
  return WEBHOOK_EVENT_LABELS[d.eventType as WebhookEventType] ?? (d.eventType === 'webhook.ping' ? 'Test ping' : d.eventType);
}

/** An endpoint's delivery log (Integrations › Webhooks). */
export function WebhookDeliveryLog({ orgId, endpoint, onClose }: { orgId: string; endpoint: WebhookEndpoint | null; onClose: () => void }) {
  const redeliver = useRedeliverWebhook(orgId);
  return (
    <DeliveryLog
      subject={
        endpoint
          ? {
              title: 'Delivery log',
              url: endpoint.url,
              note: 'Failed attempts are retried after 1, 4, 16, 64 and 256 minutes. A delivery that fails every attempt disables the endpoint.',
              alert:
                endpoint.status === 'disabled' ? (
                  <Alert color="red" variant="light" title="This endpoint is disabled">
                    {endpoint.disabledReason ?? 'Nothing is sent to it.'} Enable it before redelivering.
                  </Alert>
                ) : null,
            }
          : null
      }
      onClose={onClose}
      query={(page) => webhookDeliveriesQuery(orgId, endpoint?.id ?? '', page)}
      eventLabel={webhookEventLabel}
      redeliver={{ run: (d) => redeliver.mutateAsync({ endpointId: endpoint!.id, deliveryId: d.id }) }}
      emptyText="Nothing delivered yet. Send a test, or wait for the next event."
    />
  );
}
