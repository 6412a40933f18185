import { Anchor, Group, Pagination, Paper, Stack, Table, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { USAGE_PAGE_SIZE, USAGE_SOURCE_LABELS, USAGE_SOURCES, type UsageOrganization, type UsageSortKey } from '../../../../domain/usage';
import { paths } from '../../../app/paths';
import { formatCount } from '../../../lib/format';
import { formatBytes } from '../utils/usage-format';

// Every organization's figures for the period: sorted by any column (a header click; again to
// reverse), searched by name or slug, a page at a time. The server sorts and pages.

type Column = { key: UsageSortKey; label: string; value: (o: UsageOrganization) => string; numeric?: boolean };

const COLUMNS: Column[] = [
  { key: 'name', label: 'Organization', value: (o) => o.name },
  { key: 'bookingsCreated', label: 'Bookings', value: (o) => formatCount(o.bookingsCreated), numeric: true },
  { key: 'activeUsers', label: 'Active users', value: (o) => formatCount(o.activeUsers), numeric: true },
  { key: 'signIns', label: 'Sign-ins', value: (o) => formatCount(o.signIns), numeric: true },
  { key: 'documentsStored', label: 'Documents', value: (o) => formatCount(o.documentsStored), numeric: true },
  { key: 'documentBytesStored', label: 'Storage', value: (o) => formatBytes(o.documentBytesStored), numeric: true },
  { key: 'apiCalls', label: 'API calls', value: (o) => formatCount(o.apiCalls), numeric: true },
  { key: 'webhookCalls', label: 'Webhook calls', value: (o) => formatCount(o.webhookCalls), numeric: true },
];

type Props = {
  items: UsageOrganization[];
  total: number;
  sort: UsageSortKey;
  order: 'asc' | 'desc';
  page: number;
  search: string;
  onSort: (sort: UsageSortKey, order: 'asc' | 'desc') => void;
  onPage: (page: number) => void;
  onSearch: (text: string) => void;
};

function sourcesOf(o: UsageOrganization): string {
  return USAGE_SOURCES.filter((s) => o.bookingsBySource[s] > 0)
    .map((s) => `${o.bookingsBySource[s]} ${USAGE_SOURCE_LABELS[s].toLowerCase()}`)
    .join(', ');
}

export function UsageOrganizationsTable({ items, total, sort, order, page, search, onSort, onPage, onSearch }: Props) {
  const [text, setText] = useState(search);
  const [debounced] = useDebouncedValue(text, 300);
  useEffect(() => {
    if (debounced.trim() !== search) onSearch(debounced.trim());
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the debounced text drives this
  }, [debounced]);
  const pages = Math.max(1, Math.ceil(total / USAGE_PAGE_SIZE));

  const header = (column: Column) => {
    const isSorted = sort === column.key;
    const next = isSorted ? (order === 'asc' ? 'desc' : 'asc') : column.numeric ? 'desc' : 'asc';
    const Icon = isSorted ? (order === 'asc' ? IconArrowUp : IconArrowDown) : IconArrowsSort;
    return (
      <Table.Th key={column.key} aria-sort={isSorted ? (order === 'asc' ? 'ascending' : 'descending') : 'none'} ta={column.numeric ? 'right' : undefined} miw={column.numeric ? undefined : 200}>
        <UnstyledButton onClick={() => onSort(column.key, next)} fw={700} fz="sm" style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}>
          {column.label}
          <Icon size={14} aria-hidden style={{ opacity: isSorted ? 1 : 0.5 }} />
        </UnstyledButton>
      </Table.Th>
    );
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="usage-organizations-heading">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
          <div>
            <Title order={2} size="h4" id="usage-organizations-heading">
              Per organization
            </Title>
            <Text size="sm" c="dimmed" aria-live="polite">
              {total} organization{total === 1 ? '' : 's'} · sort by any column
            </Text>
          </div>
          <TextInput
            label="Search organizations"
            placeholder="Name or slug"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={text}
            maxLength={100}
            onChange={(event) => setText(event.currentTarget.value)}
            w={260}
          />
        </Group>
        {items.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            {search ? 'No organization matches this search.' : 'No organizations yet.'}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table highlightOnHover verticalSpacing="sm" aria-label="Usage per organization" data-testid="usage-organizations-table">
              <Table.Thead>
                <Table.Tr>{COLUMNS.map(header)}</Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((o) => (
                  <Table.Tr key={o.orgId} data-organization={o.name}>
                    <Table.Td>
                      <Anchor component={Link} to={paths.superadmin.organization(o.orgId)} fw={600} fz="sm" style={{ overflowWrap: 'anywhere' }}>
                        {o.name}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {o.planName ?? 'No Plan'} · {o.status}
                      </Text>
                    </Table.Td>
                    {COLUMNS.slice(1).map((column) => (
                      <Table.Td key={column.key} ta="right" data-field={column.key} style={{ fontVariantNumeric: 'tabular-nums' }} title={column.key === 'bookingsCreated' ? sourcesOf(o) || undefined : undefined}>
                        {column.value(o)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {pages > 1 ? (
          <Group justify="flex-end">
            <Pagination total={pages} value={page} onChange={onPage} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
