import { Alert, Button, Group, Modal, Paper, PasswordInput, SegmentedControl, Stack, Switch, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconList, IconPlugConnected } from '@tabler/icons-react';
import { format } from 'date-fns';
import { useState } from 'react';
import { TSR_LINK_LABELS, tsrConnectionInputSchema, type TsrConnection, type TsrConnectionInput, type TsrDelivery, type TsrLinkSystem } from '../../../../domain/webhooks';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { applyApiFieldErrors, zodFormValidate } from '../../../lib/zod-form';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { tsrDeliveriesQuery, useDeleteTsrConnection, useRedeliverTsrNote, useSaveTsrConnection, useTsrConnections } from './tsr-api';
import { DeliveryLog } from './webhooks-delivery-log';
import { QueryStatus } from '../../../components/ui/query-status';

// Settings › Integrations › TSR link: the organization's ServiceNow or FMClarity connection. A
// booking whose TSR URL points at a record there gets a work note at every status change. The
// credentials go to the server and are never shown again (stored encrypted). Each connection's
// delivery log lists the notes posted, with their booking; a failed one can be sent again.

type FormValues = { system: TsrLinkSystem; baseUrl: string; username: string; password: string; apiKey: string; enabled: boolean };

const validateInput = zodFormValidate(tsrConnectionInputSchema);
const toInput = (v: FormValues): TsrConnectionInput =>
  v.system === 'servicenow'
    ? { system: 'servicenow', baseUrl: v.baseUrl, username: v.username, password: v.password, enabled: v.enabled }
    : { system: 'fmclarity', baseUrl: v.baseUrl, apiKey: v.apiKey, enabled: v.enabled };

function ConnectionModal({ orgId, existing, opened, onClose }: { orgId: string; existing: TsrConnection | null; opened: boolean; onClose: () => void }) {
  const save = useSaveTsrConnection(orgId);
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: {
      system: existing?.system ?? 'servicenow',
      baseUrl: existing?.baseUrl ?? '',
      username: existing?.username ?? '',
      password: '',
      apiKey: '',
      enabled: existing?.enabled ?? true,
    },
    validate: (values) => validateInput(toInput(values)),
  });
  const system = form.values.system;
  const submit = (values: FormValues) =>
    save.mutate(toInput(values), {
      onSuccess: (saved) => {
        toast.success('Connection saved', `${TSR_LINK_LABELS[saved.system]} at ${saved.baseUrl}`);
        onClose();
      },
      onError: (error) => {
        if (!applyApiFieldErrors(error, form.setFieldError)) form.setErrors({ form: errorMessage(error, 'The connection could not be saved.') });
      },
    });
  return (
    <Modal opened={opened} onClose={save.isPending ? () => {} : onClose} title={existing ? `Edit the ${TSR_LINK_LABELS[existing.system]} connection` : 'Connect a TSR system'} size="lg">
      <form noValidate onSubmit={form.onSubmit(submit)}>
        <Stack gap="md">
          {existing ? null : (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="tsr-system-label">
                System
              </Text>
              <SegmentedControl
                aria-labelledby="tsr-system-label"
                data={[
                  { value: 'servicenow', label: 'ServiceNow' },
                  { value: 'fmclarity', label: 'FMClarity' },
                ]}
                {...form.getInputProps('system')}
              />
            </Stack>
          )}
          <TextInput
            label="Base URL"
            description={system === 'servicenow' ? 'Your instance, e.g. https://yourcompany.service-now.com' : 'Your FMClarity address'}
            withAsterisk
            data-autofocus
            {...form.getInputProps('baseUrl')}
          />
          {system === 'servicenow' ? (
            <>
              <TextInput label="User name" description="An integration user allowed to write work notes on the TSR table." withAsterisk autoComplete="off" {...form.getInputProps('username')} />
              <PasswordInput label="Password" description={existing ? 'Enter it again to save a change.' : undefined} withAsterisk autoComplete="new-password" {...form.getInputProps('password')} />
            </>
          ) : (
            <PasswordInput label="API key" description={existing ? 'Enter it again to save a change.' : undefined} withAsterisk autoComplete="off" {...form.getInputProps('apiKey')} />
          )}
          <Switch label="Post status changes to TSR records" {...form.getInputProps('enabled', { type: 'checkbox' })} />
          {form.errors.form ? (
            <Alert color="red" role="alert" title="Not saved">
              {form.errors.form}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} leftSection={<IconPlugConnected size={16} aria-hidden />}>
              Save connection
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function TsrDeliveryLog({ orgId, connection, onClose }: { orgId: string; connection: TsrConnection | null; onClose: () => void }) {
  const redeliver = useRedeliverTsrNote(orgId);
  return (
    <DeliveryLog<TsrDelivery>
      subject={
        connection
          ? {
              title: `${TSR_LINK_LABELS[connection.system]} work notes`,
              url: connection.baseUrl,
              note: 'A note the system refuses is retried after 1, 4, 16, 64 and 256 minutes; one that fails every attempt can be sent again.',
              alert: connection.enabled ? null : (
                <Alert color="yellow" variant="light" title="This connection is off">
                  No notes are queued while it is off. Turn it on before sending a note again.
                </Alert>
              ),
            }
          : null
      }
      onClose={onClose}
      query={(page) => tsrDeliveriesQuery(orgId, connection?.system ?? '', page)}
      eventLabel={() => 'Work note'}
      extraColumn={{
        header: 'Booking',
        cell: (d) =>
          d.booking ? (
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {d.booking.tsrNumber}
            </Text>
          ) : (
            <Text span size="sm" c="dimmed">
              —
            </Text>
          ),
      }}
      redeliver={{ run: (d) => redeliver.mutateAsync({ system: connection!.system, deliveryId: d.id }), canRedeliver: (d) => d.status === 'failed' }}
      emptyText="No notes posted yet: one is posted at the next status change of a booking whose TSR URL points at this system."
    />
  );
}

export function TsrConnectionsSection() {
  const { selectedOrg } = useOrgSelection();
  const orgId = selectedOrg?.id ?? '';
  const connections = useTsrConnections(selectedOrg?.id);
  const remove = useDeleteTsrConnection(orgId);
  const [editing, setEditing] = useState<TsrConnection | 'new' | null>(null);
  const [removing, setRemoving] = useState<TsrConnection | null>(null);
  const [logOf, setLogOf] = useState<TsrLinkSystem | null>(null);
  if (!selectedOrg) return null;
  if (connections.error instanceof ApiError && connections.error.status === 403) return null;
  const items = connections.data?.items ?? [];
  // The log follows the list (its base URL and switch after an edit).
  const logConnection = items.find((c) => c.system === logOf) ?? null;

  const body = (
    <QueryStatus query={connections} loadingLabel="Loading TSR connections" errorTitle="Could not load the TSR connections" isEmpty={items.length === 0} empty="No TSR system connected.">
      {() => (
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="sm" fz="sm" aria-label="TSR connections">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>System</Table.Th>
                <Table.Th>Base URL</Table.Th>
                <Table.Th>Signs in as</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((c) => (
                <Table.Tr key={c.system}>
                  <Table.Td fw={500}>{TSR_LINK_LABELS[c.system]}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{c.baseUrl}</Table.Td>
                  <Table.Td>{c.username ?? 'API key'}</Table.Td>
                  <Table.Td>
                    {c.enabled ? 'On' : 'Off'}
                    <Text size="xs" c="dimmed">
                      saved {format(new Date(c.updatedAt), 'd MMM yyyy HH:mm')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        leftSection={<IconList size={14} aria-hidden />}
                        onClick={() => setLogOf(c.system)}
                        aria-label={`Work notes sent to ${TSR_LINK_LABELS[c.system]}`}
                      >
                        Delivery log
                      </Button>
                      <Button size="xs" variant="default" onClick={() => setEditing(c)} aria-label={`Edit the ${TSR_LINK_LABELS[c.system]} connection`}>
                        Edit
                      </Button>
                      <Button size="xs" variant="outline" color="red.9" onClick={() => setRemoving(c)} aria-label={`Remove the ${TSR_LINK_LABELS[c.system]} connection`}>
                        Remove
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
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="tsr-title">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" align="flex-start">
          <div style={{ flex: '1 1 320px' }}>
            <Title order={2} size="h4" id="tsr-title">
              TSR link
            </Title>
            <Text size="sm" c="dimmed">
              When a booking’s TSR URL points at a record in your ServiceNow or FMClarity, each status change is added to that record as a work note.
            </Text>
          </div>
          <Button leftSection={<IconPlugConnected size={16} aria-hidden />} onClick={() => setEditing('new')} disabled={items.length >= 2 || connections.isLoading}>
            Connect a system
          </Button>
        </Group>
        {body}
      </Stack>
      <ConnectionModal
        key={editing === null ? 'closed' : editing === 'new' ? 'new' : editing.system}
        orgId={orgId}
        existing={editing === 'new' ? null : editing}
        opened={editing !== null}
        onClose={() => setEditing(null)}
      />
      <TsrDeliveryLog key={logOf ?? 'none'} orgId={orgId} connection={logConnection} onClose={() => setLogOf(null)} />
      <Modal opened={!!removing} onClose={() => setRemoving(null)} title="Remove this connection?" centered>
        {removing ? (
          <Stack gap="md">
            <Text size="sm">
              Bookings stop posting to {TSR_LINK_LABELS[removing.system]} at once; notes still waiting to be sent are dropped, and its delivery log is deleted. The credentials are deleted.
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setRemoving(null)}>
                Cancel
              </Button>
              <Button
                color="red.9"
                loading={remove.isPending}
                onClick={() =>
                  remove.mutate(removing.system, {
                    onSuccess: () => {
                      toast.success('Connection removed', TSR_LINK_LABELS[removing.system]);
                      setRemoving(null);
                    },
                    onError: (error) => toast.error('Not removed', errorMessage(error, 'The connection could not be removed.')),
                  })
                }
              >
                Remove connection
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </Paper>
  );
}
