import { Alert, Badge, Button, Group, Loader, Pagination, Paper, Select, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBuildingSkyscraper, IconInbox, IconPlus, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import {
  canManageOrganizations,
  NO_ORGANIZATIONS_TEXT,
  ORGANIZATION_SEARCH_MAX,
  ORGANIZATIONS_FAILED_TEXT,
  ORGANIZATIONS_PAGE_SIZE,
  QUOTE_STATUSES,
  type OrganizationListQuery,
  type QuoteStatus,
} from '../../../../domain/platform-admin';
import { errorMessage } from '../../../lib/api-client';
import { useListParams } from '../../../lib/use-list-params';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAuth } from '../../auth/hooks/use-auth';
import { useOrganizations } from '../api/get-organizations';
import { useNewQuoteCount } from '../api/quote-requests';
import { CreateOrganizationModal } from '../components/create-organization-modal';
import { OrganizationsTable } from '../components/organizations-table';
import { QuoteRequestsInbox } from '../components/quote-requests-inbox';

// /superadmin/organizations: every organization, newest first, and the quote-request inbox
// (?tab=quotes). Search, status, page and tab live in the address (shareable, the back button
// works); ?new=1 opens the create form, ?convert=<quote id> the form for that quote request.

const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  { value: 'active', label: 'Active' },
  { value: 'suspended', label: 'Suspended' },
];

function readQuery(params: URLSearchParams): OrganizationListQuery & { page: number } {
  const status = params.get('status');
  return {
    q: params.get('q') || undefined,
    status: status === 'active' || status === 'suspended' ? status : undefined,
    page: Math.max(1, Math.floor(Number(params.get('page'))) || 1),
    pageSize: ORGANIZATIONS_PAGE_SIZE,
  };
}

const alertStyles = { title: { color: 'var(--mantine-color-text)' } };

function readQuoteStatus(value: string | null): QuoteStatus | undefined {
  return (QUOTE_STATUSES as readonly string[]).includes(value ?? '') ? (value as QuoteStatus) : undefined;
}

export default function OrganizationsPage() {
  usePageTitle('Organizations');
  const { params, update } = useListParams();
  const { role } = useAuth();
  const canManage = canManageOrganizations(role);
  const tab = params.get('tab') === 'quotes' ? 'quotes' : 'organizations';
  const newQuotes = useNewQuoteCount();
  const convertId = params.get('convert');
  const isCreating = canManage && (params.get('new') === '1' || !!convertId);
  const query = readQuery(params);
  const list = useOrganizations(query);
  const [search, setSearch] = useState(query.q ?? '');
  const [debouncedSearch] = useDebouncedValue(search, 300);

  useEffect(() => {
    if ((debouncedSearch.trim() || null) !== (params.get('q') || null)) update({ q: debouncedSearch.trim() || null });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the debounced text drives this
  }, [debouncedSearch]);

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ORGANIZATIONS_PAGE_SIZE));
  const isFiltered = !!query.q || !!query.status;

  const organizationsTab = (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label="Search"
            placeholder="Name, slug or contact e-mail"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            maxLength={ORGANIZATION_SEARCH_MAX}
            onChange={(event) => setSearch(event.currentTarget.value)}
            w={300}
          />
          <Select
            label="Status"
            data={STATUS_OPTIONS}
            value={query.status ?? ''}
            onChange={(value) => update({ status: value || null })}
            allowDeselect={false}
            w={180}
          />
          {isFiltered ? (
            <Button
              variant="subtle"
              onClick={() => {
                setSearch('');
                update({ q: null, status: null });
              }}
            >
              Clear filters
            </Button>
          ) : null}
          <Text size="sm" c="dimmed" ml="auto" aria-live="polite">
            {list.data ? `${total} organization${total === 1 ? '' : 's'}` : ''}
          </Text>
        </Group>
      </Paper>

      <Paper withBorder radius="md">
        {list.isPending ? (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading organizations" />
          </Group>
        ) : list.isError && !list.data ? (
          <Alert styles={alertStyles} color="red" m="md" role="alert" title={ORGANIZATIONS_FAILED_TEXT}>
            Error loading organizations: {errorMessage(list.error, 'Try again in a moment.')}
          </Alert>
        ) : !list.data || list.data.items.length === 0 ? (
          <Stack gap={4} p="xl" align="center">
            <Text c="dimmed">{NO_ORGANIZATIONS_TEXT}</Text>
            {isFiltered ? (
              <Text size="sm" c="dimmed">
                Try another search or status.
              </Text>
            ) : null}
          </Stack>
        ) : (
          <OrganizationsTable items={list.data.items} />
        )}
      </Paper>

      {pages > 1 ? (
        <Group justify="flex-end">
          <Pagination
            total={pages}
            value={query.page}
            onChange={(page) => update({ page: String(page) }, true)}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
        </Group>
      ) : null}
    </Stack>
  );

  const quotePage = Math.max(1, Math.floor(Number(params.get('qpage'))) || 1);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Title order={1} size="h2">
            Organizations
          </Title>
          <Text c="dimmed" size="sm">
            Every organization on the platform, newest first: its status, plan, active sites and bays; and the quote requests from the landing page.
          </Text>
        </div>
        {canManage ? (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => update({ new: '1', convert: null }, true)}>
            New organization
          </Button>
        ) : null}
      </Group>

      <Tabs value={tab} onChange={(value) => update({ tab: value === 'quotes' ? 'quotes' : null }, true)} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="organizations" leftSection={<IconBuildingSkyscraper size={16} aria-hidden />}>
            Organizations
          </Tabs.Tab>
          <Tabs.Tab
            value="quotes"
            leftSection={<IconInbox size={16} aria-hidden />}
            rightSection={
              newQuotes ? (
                <Badge size="sm" circle={newQuotes < 10} variant="filled" color="blue.8" aria-label={`${newQuotes} new`} data-testid="new-quotes-badge">
                  {newQuotes}
                </Badge>
              ) : null
            }
          >
            Quote requests
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="organizations">{organizationsTab}</Tabs.Panel>
        <Tabs.Panel value="quotes">
          <QuoteRequestsInbox
            status={readQuoteStatus(params.get('qstatus'))}
            page={quotePage}
            canManage={canManage}
            onStatusChange={(status) => update({ qstatus: status ?? null, qpage: null }, true)}
            onPageChange={(page) => update({ qpage: String(page) }, true)}
            onConvert={(quoteId) => update({ convert: quoteId, new: null }, true)}
          />
        </Tabs.Panel>
      </Tabs>

      <CreateOrganizationModal opened={isCreating} quoteId={convertId} onClose={() => update({ new: null, convert: null }, true)} />
    </Stack>
  );
}
