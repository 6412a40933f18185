import { Alert, Anchor, Badge, Button, Group, Loader, Pagination, Paper, SegmentedControl, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconPhoneCheck, IconTransform } from '@tabler/icons-react';
import { Link } from 'react-router';
import { QUOTE_STATUS_LABELS, QUOTE_STATUSES, QUOTES_PAGE_SIZE, type QuoteRequestItem, type QuoteStatus } from '../../../../domain/platform-admin';
import { paths } from '../../../app/paths';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useMarkQuoteContacted, useQuoteRequests } from '../api/quote-requests';
import { formatDay, formatDayTime } from './format';

// The landing page's quote requests, newest first: new ones to follow up, contacted ones, and
// those converted into an organization. Marking and converting are offered to those who may.

const STATUS_COLORS: Record<QuoteStatus, string> = { new: 'blue', contacted: 'yellow', converted: 'green' };
const badgeStyles = { root: { color: 'var(--mantine-color-dark-7)', minWidth: 'max-content' } };
const alertStyles = { title: { color: 'var(--mantine-color-text)' } };

function QuoteStatusBadge({ status }: { status: string }) {
  const known = (QUOTE_STATUSES as readonly string[]).includes(status) ? (status as QuoteStatus) : null;
  return (
    <Badge variant="light" color={known ? STATUS_COLORS[known] : 'gray'} styles={badgeStyles} data-testid="quote-status">
      {known ? QUOTE_STATUS_LABELS[known] : status}
    </Badge>
  );
}

type Props = {
  status: QuoteStatus | undefined;
  page: number;
  canManage: boolean;
  onStatusChange: (status: QuoteStatus | undefined) => void;
  onPageChange: (page: number) => void;
  onConvert: (quoteId: string) => void;
};

export function QuoteRequestsInbox({ status, page, canManage, onStatusChange, onPageChange, onConvert }: Props) {
  const list = useQuoteRequests({ status, page, pageSize: QUOTES_PAGE_SIZE });
  const contacted = useMarkQuoteContacted();
  const counts = list.data?.counts;
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / QUOTES_PAGE_SIZE));
  const filterData = [
    { value: 'all', label: counts ? `All (${counts.new + counts.contacted + counts.converted})` : 'All' },
    ...QUOTE_STATUSES.map((s) => ({ value: s, label: counts ? `${QUOTE_STATUS_LABELS[s]} (${counts[s]})` : QUOTE_STATUS_LABELS[s] })),
  ];

  const markContacted = (quote: QuoteRequestItem) =>
    contacted.mutate(quote.id, {
      onSuccess: () => toast.success('Marked as contacted', `${quote.company}'s request is marked as contacted.`),
      onError: (error) => toast.error('Not marked', errorMessage(error, 'Try again in a moment.')),
    });

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <SegmentedControl
          aria-label="Quote request status"
          data={filterData}
          value={status ?? 'all'}
          onChange={(value) => onStatusChange(value === 'all' ? undefined : (value as QuoteStatus))}
        />
        <Text size="sm" c="dimmed" aria-live="polite">
          {list.data ? `${total} quote request${total === 1 ? '' : 's'}` : ''}
        </Text>
      </Group>
      <Paper withBorder radius="md">
        {list.isPending ? (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading quote requests" />
          </Group>
        ) : list.isError && !list.data ? (
          <Alert styles={alertStyles} color="red" m="md" role="alert" title="Failed to fetch quote requests">
            {errorMessage(list.error, 'Try again in a moment.')}
          </Alert>
        ) : !list.data || list.data.items.length === 0 ? (
          <Stack gap={4} p="xl" align="center">
            <Text c="dimmed">{status ? `No ${QUOTE_STATUS_LABELS[status].toLowerCase()} quote requests` : 'No quote requests yet'}</Text>
            <Text size="sm" c="dimmed">
              Requests sent with the landing page's 'Request a Quote' form arrive here.
            </Text>
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table verticalSpacing="sm" aria-label="Quote requests" data-testid="quote-requests-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Received</Table.Th>
                  <Table.Th miw={200}>Company and contact</Table.Th>
                  <Table.Th ta="right">Sites</Table.Th>
                  <Table.Th miw={220}>Message</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.items.map((quote) => (
                  <Table.Tr key={quote.id} data-quote={quote.company}>
                    <Table.Td>
                      <Text size="sm" title={formatDayTime(quote.createdAt)} style={{ whiteSpace: 'nowrap' }}>
                        {formatDay(quote.createdAt)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {quote.company}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {quote.name} · <Anchor href={`mailto:${quote.email}`} size="xs">{quote.email}</Anchor>
                        {quote.phone ? ` · ${quote.phone}` : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">{quote.sites ?? '—'}</Table.Td>
                    <Table.Td>
                      <Text size="sm" lineClamp={3} title={quote.message ?? undefined} style={{ overflowWrap: 'anywhere' }}>
                        {quote.message ?? '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <QuoteStatusBadge status={quote.status} />
                      {quote.status === 'contacted' && quote.contactedAt ? (
                        <Text size="xs" c="dimmed" mt={2}>
                          {formatDay(quote.contactedAt)}
                          {quote.handledByEmail ? ` by ${quote.handledByEmail}` : ''}
                        </Text>
                      ) : null}
                      {quote.convertedOrg ? (
                        <Anchor component={Link} to={paths.superadmin.organization(quote.convertedOrg.id)} size="xs" display="block" mt={2}>
                          {quote.convertedOrg.name}
                        </Anchor>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      {canManage && quote.status !== 'converted' ? (
                        <Group gap="xs" wrap="nowrap" justify="flex-end">
                          {quote.status === 'new' ? (
                            <Button
                              size="xs"
                              variant="default"
                              leftSection={<IconPhoneCheck size={14} aria-hidden />}
                              loading={contacted.isPending && contacted.variables === quote.id}
                              onClick={() => markContacted(quote)}
                              aria-label={`Mark ${quote.company} as contacted`}
                            >
                              Mark contacted
                            </Button>
                          ) : null}
                          <Button size="xs" leftSection={<IconTransform size={14} aria-hidden />} onClick={() => onConvert(quote.id)} aria-label={`Convert ${quote.company} into an organization`}>
                            Convert
                          </Button>
                        </Group>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      {pages > 1 ? (
        <Group justify="flex-end">
          <Pagination total={pages} value={page} onChange={onPageChange} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
        </Group>
      ) : null}
    </Stack>
  );
}
