import { ActionIcon, Alert, Badge, Button, Code, Group, Menu, Modal, Paper, Stack, Table, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconDots, IconKey, IconList, IconPencil, IconPlayerPause, IconPlayerPlay, IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { format } from 'date-fns';
import { useState } from 'react';
import { WEBHOOK_ADMIN_ONLY, WEBHOOK_EVENT_LABELS, WEBHOOK_HEADERS, type WebhookEndpoint } from '../../../../domain/webhooks';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { useDeleteWebhook, useRotateWebhookSecret, useTestWebhook, useUpdateWebhook, useWebhookEndpoints } from './webhooks-api';
import { WebhookDeliveryLog } from './webhooks-delivery-log';
import { WebhookEndpointModal, WebhookSecretPanel } from './webhooks-endpoint-modal';
import { QueryStatus } from '../../../components/ui/query-status';

// Settings › Integrations › Webhooks: the organization's endpoints (org admins). Add, edit, send a
// test, rotate the secret, disable / enable and delete (each change that breaks a receiver asks
// first); the delivery log per endpoint with redelivery. docs/webhooks.md is the receiver's guide.

const when = (iso: string | null) => (iso ? format(new Date(iso), 'd MMM yyyy HH:mm') : null);

type Pending = { kind: 'rotate' | 'disable' | 'delete'; endpoint: WebhookEndpoint } | null;

const CONFIRM: Record<'rotate' | 'disable' | 'delete', { title: string; label: string; text: (url: string) => string; destructive: boolean }> = {
  rotate: {
    title: 'Rotate the signing secret?',
    label: 'Rotate secret',
    text: (url) => `Deliveries to ${url} are signed with a new secret from now on, retries included. The receiver must have the new secret, or it will refuse them.`,
    destructive: false,
  },
  disable: {
    title: 'Disable this endpoint?',
    label: 'Disable endpoint',
    text: (url) => `Nothing is sent to ${url} while it is disabled, and events meanwhile are not kept for it. You can enable it again.`,
    destructive: true,
  },
  delete: {
    title: 'Delete this endpoint?',
    label: 'Delete endpoint',
    text: (url) => `${url} stops receiving events, and its delivery log is deleted with it. This cannot be undone.`,
    destructive: true,
  },
};

function StatusBadge({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.status === 'active') {
    return (
      <Badge color="green" variant="dot" style={{ minWidth: 'max-content' }}>
        Active
      </Badge>
    );
  }
  return (
    <Tooltip label={endpoint.disabledReason ?? 'Disabled'} multiline w={280} withArrow>
      <Badge color="red" variant="dot" tabIndex={0} style={{ minWidth: 'max-content' }}>
        Disabled
      </Badge>
    </Tooltip>
  );
}

export function WebhooksSection() {
  const { selectedOrg } = useOrgSelection();
  const orgId = selectedOrg?.id ?? '';
  const endpoints = useWebhookEndpoints(selectedOrg?.id);
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [logOf, setLogOf] = useState<WebhookEndpoint | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const update = useUpdateWebhook(orgId);
  const remove = useDeleteWebhook(orgId);
  const rotate = useRotateWebhookSecret(orgId);
  const test = useTestWebhook(orgId);

  if (!selectedOrg) return <Text c="dimmed">Choose an organization to see its webhooks.</Text>;

  const items = endpoints.data?.items ?? [];
  const limit = endpoints.data?.limit ?? 20;
  const atLimit = items.length >= limit;
  // The log drawer follows the list (its status after enable / disable).
  const logEndpoint = logOf ? (items.find((e) => e.id === logOf.id) ?? logOf) : null;

  const enable = (endpoint: WebhookEndpoint) =>
    update.mutate(
      { id: endpoint.id, patch: { enabled: true } },
      {
        onSuccess: () => toast.success('Endpoint enabled', `Events go to ${endpoint.url} again.`),
        onError: (error) => toast.error('Not enabled', errorMessage(error, 'The endpoint could not be enabled.')),
      },
    );
  const sendTest = (endpoint: WebhookEndpoint) =>
    test.mutate(endpoint.id, {
      onSuccess: () => {
        toast.success('Test queued', `A webhook.ping is on its way to ${endpoint.url}. Its outcome shows in the delivery log.`);
        setLogOf(endpoint);
      },
      onError: (error) => toast.error('Test not sent', errorMessage(error, 'The test could not be queued.')),
    });
  const confirm = () => {
    if (!pending) return;
    const { kind, endpoint } = pending;
    const onError = (error: unknown) => setConfirmError(errorMessage(error, 'That did not work. Try again.'));
    const done = () => {
      setPending(null);
      setConfirmError(null);
    };
    if (kind === 'rotate') {
      rotate.mutate(endpoint.id, {
        onSuccess: (result) => {
          done();
          setSecret({ url: endpoint.url, secret: result.secret });
        },
        onError,
      });
    } else if (kind === 'disable') {
      update.mutate(
        { id: endpoint.id, patch: { enabled: false } },
        {
          onSuccess: () => {
            done();
            toast.success('Endpoint disabled', `Nothing is sent to ${endpoint.url} until you enable it.`);
          },
          onError,
        },
      );
    } else {
      remove.mutate(endpoint.id, {
        onSuccess: () => {
          done();
          toast.success('Endpoint deleted', endpoint.url);
        },
        onError,
      });
    }
  };

  const forbidden = endpoints.error instanceof ApiError && endpoints.error.status === 403;
  const body = forbidden ? (
    <Alert color="gray" variant="light">
      {WEBHOOK_ADMIN_ONLY}.
    </Alert>
  ) : (
    <QueryStatus query={endpoints} loadingLabel="Loading webhook endpoints" errorTitle="Could not load the webhook endpoints" isEmpty={items.length === 0} empty="No webhook endpoints yet. Add one to send booking and gate events to your own systems.">
      {() => (
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" fz="sm" aria-label="Webhook endpoints" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Endpoint</Table.Th>
                <Table.Th>Events</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Last delivery</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td maw={320}>
                    <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                      {e.url}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {e.description ? `${e.description} · ` : ''}secret …{e.secretHint}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {e.events.map((type) => (
                        <Badge key={type} variant="default" tt="none" fw={500}>
                          {WEBHOOK_EVENT_LABELS[type]}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge endpoint={e} />
                  </Table.Td>
                  <Table.Td>
                    {e.lastDeliveryAt ? (
                      <>
                        {when(e.lastDeliveryAt)}
                        <Text size="xs" c={e.lastDeliveryStatus === 'failed' ? 'red.8' : 'dimmed'}>
                          {e.lastDeliveryStatus}
                        </Text>
                      </>
                    ) : (
                      <Text span size="sm" c="dimmed">
                        Never
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="default" leftSection={<IconList size={14} aria-hidden />} onClick={() => setLogOf(e)} aria-label={`Deliveries of ${e.url}`}>
                        Deliveries
                      </Button>
                      <Menu position="bottom-end" withinPortal>
                        <Menu.Target>
                          <ActionIcon variant="subtle" color="gray" aria-label={`More actions for ${e.url}`}>
                            <IconDots size={16} aria-hidden />
                          </ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item leftSection={<IconPencil size={14} aria-hidden />} onClick={() => setEditing(e)}>
                            Edit
                          </Menu.Item>
                          <Menu.Item leftSection={<IconSend size={14} aria-hidden />} disabled={e.status !== 'active'} onClick={() => sendTest(e)}>
                            Send test
                          </Menu.Item>
                          <Menu.Item leftSection={<IconKey size={14} aria-hidden />} onClick={() => setPending({ kind: 'rotate', endpoint: e })}>
                            Rotate secret
                          </Menu.Item>
                          {e.status === 'active' ? (
                            <Menu.Item leftSection={<IconPlayerPause size={14} aria-hidden />} onClick={() => setPending({ kind: 'disable', endpoint: e })}>
                              Disable
                            </Menu.Item>
                          ) : (
                            <Menu.Item leftSection={<IconPlayerPlay size={14} aria-hidden />} onClick={() => enable(e)}>
                              Enable
                            </Menu.Item>
                          )}
                          <Menu.Divider />
                          <Menu.Item color="red.9" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => setPending({ kind: 'delete', endpoint: e })}>
                            Delete
                          </Menu.Item>
                        </Menu.Dropdown>
                      </Menu>
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
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="webhooks-title">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" align="flex-start">
          <div style={{ flex: '1 1 320px' }}>
            <Title order={2} size="h4" id="webhooks-title">
              Webhooks
            </Title>
            <Text size="sm" c="dimmed">
              Booking and gate events, posted to your systems as they happen. Each delivery is signed: check the <Code>{WEBHOOK_HEADERS.signature}</Code>{' '}
              header with the endpoint’s secret (HMAC-SHA256 over the timestamp and the body).
            </Text>
          </div>
          {forbidden ? null : (
            <Tooltip label={`At most ${limit} endpoints`} disabled={!atLimit}>
              <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')} disabled={atLimit || endpoints.isLoading} data-disabled={atLimit || undefined}>
                Add endpoint
              </Button>
            </Tooltip>
          )}
        </Group>
        {body}
      </Stack>
      <WebhookEndpointModal
        key={editing === null ? 'closed' : editing === 'new' ? 'new' : editing.id}
        orgId={orgId}
        endpoint={editing === 'new' ? null : editing}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        onCreated={(endpoint, created) => {
          setEditing(null);
          setSecret({ url: endpoint.url, secret: created });
        }}
      />
      <Modal opened={!!secret} onClose={() => setSecret(null)} title="Copy the signing secret" size="lg" closeOnClickOutside={false}>
        {secret ? (
          <Stack gap="sm">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              For <b>{secret.url}</b>
            </Text>
            <WebhookSecretPanel secret={secret.secret} onDone={() => setSecret(null)} />
          </Stack>
        ) : null}
      </Modal>
      <Modal
        opened={!!pending}
        onClose={() => {
          setPending(null);
          setConfirmError(null);
        }}
        title={pending ? CONFIRM[pending.kind].title : ''}
        centered
      >
        {pending ? (
          <Stack gap="md">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {CONFIRM[pending.kind].text(pending.endpoint.url)}
            </Text>
            {confirmError ? (
              <Alert color="red" variant="light" role="alert">
                {confirmError}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button
                variant="default"
                onClick={() => {
                  setPending(null);
                  setConfirmError(null);
                }}
              >
                Cancel
              </Button>
              <Button color={CONFIRM[pending.kind].destructive ? 'red.9' : undefined} loading={update.isPending || remove.isPending || rotate.isPending} onClick={confirm}>
                {CONFIRM[pending.kind].label}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
      <WebhookDeliveryLog key={logEndpoint?.id ?? 'none'} orgId={orgId} endpoint={logEndpoint} onClose={() => setLogOf(null)} />
    </Paper>
  );
}
