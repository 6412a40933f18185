import { Badge, Button, Code, Group, Modal, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconList, IconTrash } from '@tabler/icons-react';
import { format } from 'date-fns';
import { useState } from 'react';
import type { SscSubscriptionSummary } from '../../../../domain/webhooks';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { sscDeliveriesQuery, useDeleteSscSubscription, useRedeliverSscEvent, useSscSubscriptions } from '../api/ssc-subscriptions-api';
import { DeliveryLog } from './webhooks-delivery-log';
import { QueryStatus } from '../../../components/ui/query-status';

// Settings › Integrations › Carrier subscriptions (SSC): the webhook subscriptions carriers create
// through the SSC API for the organization's tenants — which key, which tenant, which events, where
// to — each with the log of what was posted to it (a failed event can be sent again); an admin can
// remove one (asked first, audited).

const SUBSCRIPTIONS_PATH = '/api/ssc/webhooks/v1/subscriptions';
const when = (iso: string) => format(new Date(iso), 'd MMM yyyy HH:mm');
const STATUS_COLOR = { pending: 'yellow', delivered: 'green', failed: 'red' } as const;

function KeyCell({ s }: { s: SscSubscriptionSummary }) {
  if (!s.apiKey) {
    return (
      <Text span size="sm" c="dimmed">
        Deleted key
      </Text>
    );
  }
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" fw={500}>
        {s.apiKey.name}
      </Text>
      {s.apiKey.isRevoked ? (
        <Badge color="gray" variant="light" size="sm">
          Revoked
        </Badge>
      ) : null}
    </Group>
  );
}

export function SscSubscriptionsSection() {
  const { selectedOrg } = useOrgSelection();
  const orgId = selectedOrg?.id ?? '';
  const subscriptions = useSscSubscriptions(selectedOrg?.id);
  const remove = useDeleteSscSubscription(orgId);
  const redeliver = useRedeliverSscEvent(orgId);
  const [logOf, setLogOf] = useState<SscSubscriptionSummary | null>(null);
  const [removing, setRemoving] = useState<SscSubscriptionSummary | null>(null);
  if (!selectedOrg) return null;
  if (subscriptions.error instanceof ApiError && subscriptions.error.status === 403) return null;
  const items = subscriptions.data?.items ?? [];

  const body = (
    <QueryStatus
      query={subscriptions}
      loadingLabel="Loading carrier subscriptions"
      errorTitle="Could not load the carrier subscriptions"
      isEmpty={items.length === 0}
      empty={
        <Stack gap={4} align="center" py="lg">
          <Text c="dimmed" size="sm" ta="center">
            No carrier subscriptions yet.
          </Text>
          <Text c="dimmed" size="sm" ta="center" maw={560}>
            Carriers subscribe with an API key that has the <Code>webhooks</Code> scope, through{' '}
            <Code style={{ whiteSpace: 'nowrap' }}>POST {SUBSCRIPTIONS_PATH}</Code>. Their subscriptions show here.
          </Text>
        </Stack>
      }
    >
      {() => (
        <Table.ScrollContainer minWidth={880}>
          <Table verticalSpacing="sm" fz="sm" aria-label="Carrier subscriptions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>API key</Table.Th>
                <Table.Th>Tenant</Table.Th>
                <Table.Th>Events</Table.Th>
                <Table.Th>Callback URL</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>
                    <KeyCell s={s} />
                  </Table.Td>
                  <Table.Td>{s.tenant.name}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {s.eventTypes.map((e) => (
                        <Code key={e} style={{ whiteSpace: 'nowrap' }}>
                          {e}
                        </Code>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td maw={280} style={{ overflowWrap: 'anywhere' }}>
                    {s.callbackUrl ?? (
                      <Text span size="sm" c="dimmed">
                        None
                      </Text>
                    )}
                    {s.lastDeliveryStatus && s.lastDeliveryAt ? (
                      <Group gap={6} mt={2}>
                        <Badge color={STATUS_COLOR[s.lastDeliveryStatus]} variant="dot" size="sm" style={{ minWidth: 'max-content' }}>
                          {s.lastDeliveryStatus}
                        </Badge>
                        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                          {when(s.lastDeliveryAt)}
                        </Text>
                      </Group>
                    ) : null}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{when(s.createdAt)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        leftSection={<IconList size={14} aria-hidden />}
                        onClick={() => setLogOf(s)}
                        aria-label={`Deliveries to ${s.callbackUrl ?? s.tenant.name}`}
                      >
                        Delivery log
                      </Button>
                      <Button
                        size="xs"
                        variant="outline"
                        color="red.9"
                        leftSection={<IconTrash size={14} aria-hidden />}
                        onClick={() => setRemoving(s)}
                        aria-label={`Delete the subscription of ${s.tenant.name} to ${s.callbackUrl ?? 'no callback URL'}`}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </QueryStatus>
  );

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="ssc-subscriptions-title">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="ssc-subscriptions-title">
            Carrier subscriptions (SSC)
          </Title>
          <Text size="sm" c="dimmed">
            Carriers’ systems subscribe through the appointment API to hear when their appointments change. Each subscription belongs to a tenant’s API key; its
            delivery log shows what was posted to it.
          </Text>
        </div>
        {body}
      </Stack>
      <DeliveryLog
        key={logOf?.id ?? 'none'}
        subject={
          logOf
            ? {
                title: `Deliveries to ${logOf.tenant.name}`,
                url: logOf.callbackUrl ?? 'No callback URL',
                note: 'Failed attempts are retried after 1, 4, 16, 64 and 256 minutes; an event that fails every attempt can be sent again.',
              }
            : null
        }
        onClose={() => setLogOf(null)}
        query={(page) => sscDeliveriesQuery(orgId, logOf?.id ?? '', page)}
        eventLabel={(d) => d.eventType}
        emptyText="Nothing posted yet: appointment changes of this tenant are posted here as they happen."
        redeliver={{ run: (d) => redeliver.mutateAsync({ id: logOf!.id, deliveryId: d.id }), canRedeliver: (d) => d.status === 'failed' }}
      />
      <Modal opened={!!removing} onClose={() => (remove.isPending ? undefined : setRemoving(null))} title="Delete this subscription?" centered>
        {removing ? (
          <Stack gap="md">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {removing.tenant.name}’s system stops receiving events at {removing.callbackUrl ?? 'its callback URL'}. What is still queued for it is dropped and its delivery
              log is deleted. The carrier can subscribe again with its API key.
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setRemoving(null)} disabled={remove.isPending}>
                Cancel
              </Button>
              <Button
                color="red.9"
                loading={remove.isPending}
                onClick={() =>
                  remove.mutate(removing.id, {
                    onSuccess: () => {
                      toast.success('Subscription deleted', `${removing.tenant.name}: ${removing.callbackUrl ?? 'no callback URL'}`);
                      if (logOf?.id === removing.id) setLogOf(null);
                      setRemoving(null);
                    },
                    onError: (error) => toast.error('Not deleted', errorMessage(error, 'The subscription could not be deleted.')),
                  })
                }
              >
                Delete subscription
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </Paper>
  );
}
