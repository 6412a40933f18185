import { Alert, Button, Container, Group, Loader, Pagination, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconUpload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { TENANT_PAGE_SIZE, TENANT_STATUSES, type TenantListItem, type TenantListQuery, type TenantStatus } from '../../../../domain/org-tenants';
import { errorMessage } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { useTenantList } from '../api/org-tenants-api';
import { BlockTenantModal } from '../components/block-tenant-modal';
import { ImportTenantsModal } from '../components/import-tenants-modal';
import { TenantFormModal } from '../components/tenant-form-modal';
import { TenantsTable } from '../components/tenants-table';
import { useListParams } from '../../../lib/use-list-params';
import { alertStyles } from '../utils/tenant-display';

// /org/tenants: the companies that book the organization's bays. Search, status and page live in
// the address (shareable, back button works); admins add, edit, block and import.

const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  { value: 'active', label: 'Active' },
  { value: 'blocked', label: 'Blocked' },
];

function readQuery(params: URLSearchParams): TenantListQuery & { page: number } {
  const status = params.get('status');
  return {
    q: params.get('q') || undefined,
    status: (TENANT_STATUSES as readonly string[]).includes(status ?? '') ? (status as TenantStatus) : undefined,
    page: Math.max(1, Number(params.get('page')) || 1),
  };
}

export default function OrgTenantsPage() {
  usePageTitle('Tenants');
  const { selectedOrg } = useOrgSelection();
  const { params, update } = useListParams();
  const query = readQuery(params);
  const list = useTenantList(selectedOrg?.id, query);
  const [search, setSearch] = useState(query.q ?? '');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [editing, setEditing] = useState<TenantListItem | null>(null);
  const [isFormOpen, setFormOpen] = useState(false);
  const [blocking, setBlocking] = useState<TenantListItem | null>(null);
  const [isImportOpen, setImportOpen] = useState(false);


  useEffect(() => {
    if ((debouncedSearch.trim() || null) !== (params.get('q') || null)) update({ q: debouncedSearch.trim() || null });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the debounced text drives this
  }, [debouncedSearch]);

  if (!selectedOrg) {
    return (
      <Container size="xl" py="md">
        <Title order={1} size="h2">
          Tenants
        </Title>
        <Text c="dimmed" mt="sm">
          Choose an organization to see its tenants.
        </Text>
      </Container>
    );
  }

  const canEdit = selectedOrg.role !== 'dockmaster';
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / TENANT_PAGE_SIZE));
  const isFiltered = !!query.q || !!query.status;

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={1} size="h2">
              Tenants
            </Title>
            <Text c="dimmed" size="sm">
              The companies that book your bays. Portal requests link to a tenant by e-mail domain, contact e-mail or company name.
            </Text>
          </div>
          {canEdit ? (
            <Group gap="sm">
              <Button variant="default" leftSection={<IconUpload size={16} aria-hidden />} onClick={() => setImportOpen(true)}>
                Import CSV
              </Button>
              <Button
                leftSection={<IconPlus size={16} aria-hidden />}
                onClick={() => {
                  setEditing(null);
                  setFormOpen(true);
                }}
              >
                Add tenant
              </Button>
            </Group>
          ) : null}
        </Group>

        <Paper withBorder p="md" radius="md">
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              label="Search"
              placeholder="Name, e-mail or domain"
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
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
              {list.data ? `${total} tenant${total === 1 ? '' : 's'}` : ''}
            </Text>
          </Group>
        </Paper>

        <Paper withBorder radius="md">
          {list.isLoading ? (
            <Group justify="center" py="xl">
              <Loader aria-label="Loading tenants" />
            </Group>
          ) : list.isError ? (
            <Alert styles={alertStyles} color="red" m="md" title="Could not load tenants">
              {errorMessage(list.error, 'Try again in a moment.')}
            </Alert>
          ) : total === 0 ? (
            <Text c="dimmed" p="xl" ta="center">
              {isFiltered ? 'No tenants match these filters.' : 'No tenants yet. Add one, or import a CSV file of your tenants.'}
            </Text>
          ) : (
            <TenantsTable
              items={list.data!.items}
              canEdit={canEdit}
              onEdit={(tenant) => {
                setEditing(tenant);
                setFormOpen(true);
              }}
              onToggleBlock={setBlocking}
            />
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

      <TenantFormModal orgId={selectedOrg.id} opened={isFormOpen} tenant={editing} onClose={() => setFormOpen(false)} />
      <BlockTenantModal orgId={selectedOrg.id} tenant={blocking} onClose={() => setBlocking(null)} />
      <ImportTenantsModal orgId={selectedOrg.id} opened={isImportOpen} onClose={() => setImportOpen(false)} />
    </Container>
  );
}
