import { Alert, Anchor, Button, Group, Loader, Pagination, Paper, SegmentedControl, Select, Stack, Table, Text } from '@mantine/core';
import { IconCheck, IconRefresh, IconRotateClockwise } from '@tabler/icons-react';
import { useState } from 'react';
import { ERRORS_FETCH_FAILED, errorTitle, type ErrorGroup } from '../../../../domain/error-monitoring';
import { ERROR_GROUPS_PAGE_SIZE, ERROR_SOURCES, ERROR_STATUS_FILTERS, type ErrorSource, type ErrorStatusFilter } from '../../../../domain/error-monitoring-rules';
import { errorMessage } from '../../../lib/api-client';
import { formatCount } from '../../../lib/format';
import { useListParams } from '../../../lib/use-list-params';
import { useErrorGroups } from '../api/error-groups-api';
import { ErrorSourceBadge, ErrorStatusBadge } from './error-badges';
import { ErrorGroupDrawer, whereLabel } from './error-group-drawer';
import { formatDateTime } from './format';
import { ResolveErrorModal, useReopenErrorGroup } from './resolve-error-modal';

// Error monitoring: server failures and browser errors grouped by fingerprint, newest last seen
// first, filtered by status and source, 20 a page. The filters, the page and the open group live
// in the address (?tab=errors&status=…&source=…&page=…&error=<fingerprint>).

const STATUS_LABELS: Record<ErrorStatusFilter, string> = { open: 'Open', resolved: 'Resolved', all: 'All' };
const EMPTY_TEXT: Record<ErrorStatusFilter, string> = {
  open: 'No open errors. Nothing has gone wrong since the last ones were resolved.',
  resolved: 'No resolved errors.',
  all: 'No errors recorded yet.',
};

const readStatus = (value: string | null): ErrorStatusFilter => ((ERROR_STATUS_FILTERS as readonly string[]).includes(value ?? '') ? (value as ErrorStatusFilter) : 'open');
const readSource = (value: string | null): ErrorSource | undefined => ((ERROR_SOURCES as readonly string[]).includes(value ?? '') ? (value as ErrorSource) : undefined);
const readPage = (value: string | null) => Math.max(1, Number.parseInt(value ?? '1', 10) || 1);

function GroupsTable({ items, canTriage, onOpen, onResolve }: { items: ErrorGroup[]; canTriage: boolean; onOpen: (g: ErrorGroup) => void; onResolve: (g: ErrorGroup) => void }) {
  const { reopen, isPending } = useReopenErrorGroup();
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="sm" aria-label="Error groups">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Error</Table.Th>
            <Table.Th>Source</Table.Th>
            <Table.Th ta="right">Count</Table.Th>
            <Table.Th>First seen</Table.Th>
            <Table.Th>Last seen</Table.Th>
            <Table.Th>Status</Table.Th>
            {canTriage ? <Table.Th>Action</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((group) => (
            <Table.Tr key={group.fingerprint} data-fingerprint={group.fingerprint}>
              <Table.Td maw={420}>
                <Anchor component="button" type="button" size="sm" fw={600} ta="left" onClick={() => onOpen(group)} style={{ overflowWrap: 'anywhere' }}>
                  {errorTitle(group)}
                </Anchor>
                <Text size="xs" c="dimmed" mt={2} style={{ overflowWrap: 'anywhere' }}>
                  {whereLabel(group.sample)}
                </Text>
              </Table.Td>
              <Table.Td>
                <ErrorSourceBadge source={group.source} />
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm" fw={600}>
                  {formatCount(group.count)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatDateTime(group.firstSeen)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatDateTime(group.lastSeen)}</Text>
              </Table.Td>
              <Table.Td>
                <ErrorStatusBadge status={group.status} isRegression={group.isRegression} />
              </Table.Td>
              {canTriage ? (
                <Table.Td>
                  {group.status === 'open' ? (
                    <Button size="xs" variant="light" leftSection={<IconCheck size={14} aria-hidden />} onClick={() => onResolve(group)} aria-label={`Resolve ${errorTitle(group)}`}>
                      Resolve
                    </Button>
                  ) : (
                    <Button
                      size="xs"
                      variant="default"
                      leftSection={<IconRotateClockwise size={14} aria-hidden />}
                      disabled={isPending}
                      onClick={() => reopen(group)}
                      aria-label={`Reopen ${errorTitle(group)}`}
                    >
                      Reopen
                    </Button>
                  )}
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function ErrorMonitoringSection() {
  const { params, update } = useListParams();
  const status = readStatus(params.get('status'));
  const source = readSource(params.get('source'));
  const page = readPage(params.get('page'));
  const openFingerprint = params.get('error');
  const list = useErrorGroups({ status, source, page, pageSize: ERROR_GROUPS_PAGE_SIZE });
  const [resolving, setResolving] = useState<ErrorGroup | null>(null);

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ERROR_GROUPS_PAGE_SIZE));
  const canTriage = list.data?.canTriage ?? false;

  return (
    <Stack gap="md">
      <Text c="dimmed" size="sm">
        Server failures and errors in people’s browsers, grouped when they are the same fault. Resolve a group once it is fixed: if it happens again, it opens again
        by itself.
      </Text>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Group gap="md" align="flex-end">
          <Stack gap={4}>
            <Text size="sm" fw={500} id="error-status-filter">
              Status
            </Text>
            <SegmentedControl
              aria-labelledby="error-status-filter"
              data={ERROR_STATUS_FILTERS.map((value) => ({ value, label: STATUS_LABELS[value] }))}
              value={status}
              onChange={(value) => update({ status: value === 'open' ? null : value })}
            />
          </Stack>
          <Select
            label="Source"
            data={[
              { value: 'all', label: 'All sources' },
              { value: 'server', label: 'Server' },
              { value: 'browser', label: 'Browser' },
            ]}
            value={source ?? 'all'}
            onChange={(value) => update({ source: value === 'all' ? null : value })}
            allowDeselect={false}
            w={170}
          />
        </Group>
        <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void list.refetch()} loading={list.isFetching && !list.isLoading}>
          Refresh
        </Button>
      </Group>

      <Paper withBorder radius="md" aria-busy={list.isFetching}>
        {list.isLoading ? (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading errors" />
          </Group>
        ) : list.isError ? (
          <Alert color="red" m="md" title={ERRORS_FETCH_FAILED} role="alert" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
            {errorMessage(list.error, 'Try again in a moment.')}
          </Alert>
        ) : total === 0 || !list.data || list.data.items.length === 0 ? (
          <Text c="dimmed" p="xl" ta="center">
            {total > 0 ? 'There is nothing on this page.' : source ? `${EMPTY_TEXT[status]} (${source === 'server' ? 'server' : 'browser'} errors)` : EMPTY_TEXT[status]}
          </Text>
        ) : (
          <GroupsTable
            items={list.data.items}
            canTriage={canTriage}
            onOpen={(group) => update({ error: group.fingerprint }, true)}
            onResolve={setResolving}
          />
        )}
      </Paper>

      {total > 0 ? (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {formatCount(total)} {total === 1 ? 'group' : 'groups'}
          </Text>
          {pages > 1 ? (
            <Pagination
              total={pages}
              value={Math.min(page, pages)}
              onChange={(next) => update({ page: String(next) }, true)}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            />
          ) : null}
        </Group>
      ) : null}

      <ErrorGroupDrawer fingerprint={openFingerprint} onClose={() => update({ error: null }, true)} onResolve={setResolving} />
      <ResolveErrorModal group={resolving} onClose={() => setResolving(null)} />
    </Stack>
  );
}
