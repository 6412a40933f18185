import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
  NumberInput,
  Pagination,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import {
  API_KEY_SCOPE_LABELS,
  API_KEY_SCOPES,
  DEFAULT_API_KEY_RATE_LIMIT,
  apiKeyCreateSchema,
  type ApiKey,
  type ApiKeyScope,
  type CreatedApiKey,
} from '../../../../domain/api-keys';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useApiKeys, useCreateApiKey, useRevokeApiKey, useTenantOptions } from '../api/api-keys-api';
import { SecretOnce } from '../../../components/ui/secret-once';
import { QueryStatus } from '../../../components/ui/query-status';

// Settings › Integrations › API keys: each key lets a haulier's transport management system use
// the SSC appointment API for one tenant, with the scopes chosen here. The secret is shown once,
// when the key is made; afterwards only its last four characters tell keys apart.

type Site = { id: string; name: string };

const when = (iso: string | null) => (iso ? new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)) : null);

/** A first call a carrier can paste: the slots of one location on one day. */
export function sscExample(siteId: string, secret: string): string {
  return [
    `curl -X POST ${window.location.origin}/api/ssc/appointments/v1/fetch-available-appointments \\`,
    `  -H "Authorization: Bearer ${secret}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"identifiers": {"locationId": "${siteId}"}}'`,
  ].join('\n');
}

type FormValues = { name: string; tenantId: string; scopes: ApiKeyScope[]; expiresOn: string; rateLimitPerMinute: number | string };

/** The form's expiry day as the instant the key stops working: the start of that day, the admin's own time. */
const expiryOf = (day: string) => (day ? new Date(`${day}T00:00:00`).toISOString() : null);
const toInput = (values: FormValues) => ({
  name: values.name,
  tenantId: values.tenantId,
  scopes: values.scopes,
  expiresAt: expiryOf(values.expiresOn),
  rateLimitPerMinute: values.rateLimitPerMinute === '' ? undefined : Number(values.rateLimitPerMinute),
});

function validate(values: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const result = apiKeyCreateSchema.safeParse(toInput(values));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = issue.path[0] === 'expiresAt' ? 'expiresOn' : String(issue.path[0] ?? 'form');
      errors[key] ??= issue.message;
    }
  }
  if (values.expiresOn && !errors.expiresOn && new Date(`${values.expiresOn}T00:00:00`).getTime() <= Date.now()) errors.expiresOn = 'Expiry must be in the future';
  return errors;
}

function CreateKeyModal({ orgId, sites, opened, onClose }: { orgId: string; sites: Site[]; opened: boolean; onClose: () => void }) {
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: { name: '', tenantId: '', scopes: ['availability:read', 'appointments:schedule'], expiresOn: '', rateLimitPerMinute: DEFAULT_API_KEY_RATE_LIMIT },
    validate,
  });
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const tenants = useTenantOptions(opened ? orgId : undefined, q);
  const create = useCreateApiKey(orgId);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const close = () => {
    // The secret leaves the screen for good.
    setCreated(null);
    form.reset();
    create.reset();
    onClose();
  };
  const submit = (values: FormValues) =>
    create.mutate(toInput(values), {
      onSuccess: (key) => {
        setCreated(key);
        toast.success('API key created', `${key.name} for ${key.tenantName}.`);
      },
      onError: (error) => {
        const details = (error as { details?: { path?: string; message?: string }[] }).details;
        const field = Array.isArray(details) ? details.find((d) => d?.path && d.message) : undefined;
        if (field?.path) form.setFieldError(field.path === 'expiresAt' ? 'expiresOn' : field.path, field.message!);
        else form.setErrors({ form: errorMessage(error, 'The key could not be created.') });
      },
    });
  const options = (tenants.data?.items ?? []).map((t) => ({ value: t.id, label: t.name }));
  const example = sites[0] ? sscExample(sites[0].id, created?.secret ?? '') : null;

  return (
    <Modal opened={opened} onClose={close} title={created ? 'Copy the API key' : 'New API key'} size="lg" closeOnClickOutside={!created}>
      {created ? (
        <SecretOnce
          warning={<>This key will not be shown again. Give it to {created.tenantName}’s system over a secure channel; if it is lost, revoke it and make a new one.</>}
          label={`API key ${created.name} (${created.tenantName})`}
          secret={created.secret}
          copyLabel="Copy key"
          testId="api-key-secret"
          example={example ? { title: `First call (${sites[0]!.name})`, text: example } : null}
          onDone={close}
        />
      ) : (
        <form noValidate onSubmit={form.onSubmit(submit)}>
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              A key acts for one tenant: its bookings are that tenant’s, under the tenant’s booking policy.
            </Text>
            <TextInput label="Name" placeholder="Fast Freight TMS (production)" withAsterisk data-autofocus {...form.getInputProps('name')} />
            <Select
              label="Tenant"
              placeholder="Search tenants"
              withAsterisk
              searchable
              nothingFoundMessage={tenants.isLoading ? 'Loading…' : 'No active tenant matches'}
              data={options}
              searchValue={search}
              onSearchChange={setSearch}
              {...form.getInputProps('tenantId')}
            />
            <Checkbox.Group label="Scopes" withAsterisk {...form.getInputProps('scopes')}>
              <Stack gap={6} mt={6}>
                {API_KEY_SCOPES.map((scope) => (
                  <Checkbox key={scope} value={scope} label={API_KEY_SCOPE_LABELS[scope]} />
                ))}
              </Stack>
            </Checkbox.Group>
            <Group grow align="flex-start">
              <TextInput type="date" label="Expires on" description="Optional; blank: never" {...form.getInputProps('expiresOn')} />
              <NumberInput label="Rate limit" description="Calls per minute" min={1} max={100000} allowDecimal={false} {...form.getInputProps('rateLimitPerMinute')} />
            </Group>
            {form.errors.form ? (
              <Alert color="red" role="alert" title="Not created">
                {form.errors.form}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending} leftSection={<IconKey size={16} aria-hidden />}>
                Create key
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function RevokeModal({ orgId, apiKey, onClose }: { orgId: string; apiKey: ApiKey | null; onClose: () => void }) {
  const revoke = useRevokeApiKey(orgId);
  return (
    <Modal opened={!!apiKey} onClose={onClose} title="Revoke this API key?">
      {apiKey ? (
        <Stack gap="md">
          <Text size="sm">
            <b>{apiKey.name}</b> ({apiKey.tenantName}, ending {apiKey.hint}) stops working at once: the system using it is refused from its next call. This cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Keep it
            </Button>
            <Button
              color="red.9"
              loading={revoke.isPending}
              onClick={() =>
                revoke.mutate(apiKey.id, {
                  onSuccess: () => {
                    toast.success('API key revoked', `${apiKey.name} no longer works.`);
                    onClose();
                  },
                  onError: (e) => toast.error('API key not revoked', errorMessage(e, 'The key could not be revoked.')),
                })
              }
            >
              Revoke key
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

const NOWRAP = { whiteSpace: 'nowrap' } as const;
/** The status word in full: a squeezed table would otherwise cut it to "AC…". */
const BADGE_STYLES = { root: { flexShrink: 0, width: 'max-content', maxWidth: 'none' }, label: { overflow: 'visible', textOverflow: 'clip' } } as const;

const STATUS_BADGE: Record<ApiKey['status'], { color: string; label: string }> = {
  active: { color: 'green', label: 'Active' },
  expired: { color: 'orange', label: 'Expired' },
  revoked: { color: 'gray', label: 'Revoked' },
};

export function ApiKeysSection({ orgId, sites }: { orgId: string; sites: Site[] }) {
  const [page, setPage] = useState(1);
  const keys = useApiKeys(orgId, page);
  const [isCreating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const list = keys.data?.keys ?? [];
  const pages = keys.data ? Math.max(1, Math.ceil(keys.data.total / keys.data.pageSize)) : 1;

  const body = (
    <QueryStatus query={keys} loadingLabel="Loading API keys" errorTitle="Could not load the API keys" isEmpty={list.length === 0} empty="No API keys yet. Create one for each haulier system that should book through the API.">
      {() => (
        <Table.ScrollContainer minWidth={860}>
          <Table verticalSpacing="xs" fz="sm" aria-label="API keys" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Tenant</Table.Th>
                <Table.Th>Scopes</Table.Th>
                <Table.Th style={NOWRAP}>Key</Table.Th>
                <Table.Th style={NOWRAP}>Expires</Table.Th>
                <Table.Th style={NOWRAP}>Last used</Table.Th>
                <Table.Th style={NOWRAP}>Status</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((k) => (
                <Table.Tr key={k.id}>
                  <Table.Td fw={500}>
                    {k.name}
                    <Text size="xs" c="dimmed">
                      {k.rateLimitPerMinute} calls/min · created {when(k.createdAt)}
                      {k.createdByEmail ? ` by ${k.createdByEmail}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>{k.tenantName}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {k.scopes.map((scope) => (
                        <Tooltip key={scope} label={API_KEY_SCOPE_LABELS[scope]}>
                          <Badge size="sm" variant="light" color="indigo" tt="none">
                            {scope}
                          </Badge>
                        </Tooltip>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td style={NOWRAP}>
                    <Code>…{k.hint}</Code>
                  </Table.Td>
                  <Table.Td style={NOWRAP}>{when(k.expiresAt) ?? <Text span size="sm" c="dimmed">Never</Text>}</Table.Td>
                  <Table.Td style={NOWRAP}>{when(k.lastUsedAt) ?? <Text span size="sm" c="dimmed">Never</Text>}</Table.Td>
                  <Table.Td style={NOWRAP}>
                    <Badge color={STATUS_BADGE[k.status].color} variant="dot" styles={BADGE_STYLES}>
                      {STATUS_BADGE[k.status].label}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">
                    {k.status === 'revoked' ? null : (
                      <Button size="xs" variant="outline" color="red.9" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name} (${k.tenantName})`}>
                        Revoke
                      </Button>
                    )}
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
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="api-keys-title">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <div>
            <Title order={2} size="h4" id="api-keys-title">
              API keys
            </Title>
            <Text size="sm" c="dimmed">
              Haulier systems book through the SSC appointment API with a key acting for one tenant. Revoke a key to stop it at once.
            </Text>
          </div>
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            New API key
          </Button>
        </Group>
        {body}
        {pages > 1 ? (
          <Group justify="center">
            <Pagination total={pages} value={page} onChange={setPage} aria-label="API key pages" />
          </Group>
        ) : null}
      </Stack>
      <CreateKeyModal key={isCreating ? 'open' : 'closed'} orgId={orgId} sites={sites} opened={isCreating} onClose={() => setCreating(false)} />
      <RevokeModal orgId={orgId} apiKey={revoking} onClose={() => setRevoking(null)} />
    </Paper>
  );
}
