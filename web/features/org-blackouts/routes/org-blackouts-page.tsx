import { Alert, Button, Container, Group, Loader, Pagination, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { BLACKOUT_PAGE_SIZES, DEFAULT_BLACKOUT_PAGE_SIZE, type BlackoutItem, type BlackoutListQuery, type BlackoutSeries } from '../../../../domain/org-blackouts';
import { DateField } from '../../../components/ui/date-field';
import { ApiError } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { useBlackoutList, useBlackoutOptions, useBlackoutSeries } from '../api/blackouts-api';
import { BlackoutFormModal, type BlackoutEditTarget } from '../components/blackout-form-modal';
import { BlackoutsTable, SeriesTable } from '../components/blackouts-table';
import { useListParams } from '../../../lib/use-list-params';
import { DeleteBlackoutModal, type DeleteTarget } from '../components/delete-blackout-modal';

// /org/blackouts: when bays or whole sites take no bookings. Filters (site, bay, days) and the page
// live in the address; without days the list shows what is not over yet. One-offs and recurring
// blackouts are created and changed in one modal; holidays come from the site's hours (read-only).

type ListState = BlackoutListQuery & { page: number; pageSize: number };

function readQuery(params: URLSearchParams): ListState {
  const pageSize = Number(params.get('pageSize'));
  return {
    siteId: params.get('site') ?? undefined,
    bayId: params.get('bay') ?? undefined,
    from: params.get('from') ?? undefined,
    to: params.get('to') ?? undefined,
    page: Math.max(1, Number(params.get('page')) || 1),
    pageSize: (BLACKOUT_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_BLACKOUT_PAGE_SIZE,
  };
}

type FormState = { opened: boolean; target: BlackoutEditTarget; key: number };

export default function OrgBlackoutsPage() {
  usePageTitle('Blackouts');
  const { selectedOrg, selectedSite } = useOrgSelection();
  const { params, update } = useListParams();
  const query = readQuery(params);
  const orgId = selectedOrg?.id;
  const list = useBlackoutList(orgId, query);
  const series = useBlackoutSeries(orgId, query.siteId);
  const options = useBlackoutOptions(orgId);
  const [formState, setFormState] = useState<FormState>({ opened: false, target: null, key: 0 });
  const [deleteTarget, setDeleteTarget] = useState<DeleteTarget>(null);
  const canEdit = selectedOrg?.role !== 'dockmaster';


  const openForm = (target: BlackoutEditTarget) => setFormState((s) => ({ opened: true, target, key: s.key + 1 }));
  const editSeries = (seriesId: string) => {
    const found = series.data?.items.find((s) => s.id === seriesId);
    if (found) openForm({ type: 'series', series: found });
  };

  if (!selectedOrg) {
    return (
      <Container size="xl" py="md">
        <Title order={1} size="h2">
          Blackouts
        </Title>
        <Text c="dimmed" mt="sm">
          Choose an organization to see its blackouts.
        </Text>
      </Container>
    );
  }

  const sites = options.data?.sites ?? [];
  const filterSite = sites.find((s) => s.id === query.siteId);
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / query.pageSize));
  const isFiltered = !!query.siteId || !!query.bayId || !!query.from || !!query.to;
  const isUpcomingOnly = !query.from && !query.to;
  const seriesItems: BlackoutSeries[] = series.data?.items ?? [];

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={1} size="h2">
              Blackouts
            </Title>
            <Text c="dimmed" size="sm">
              Times a bay, or a whole site, takes no bookings. The booking portal and the schedule follow them at once.
            </Text>
          </div>
          {canEdit ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => openForm(null)} disabled={!options.data}>
              New blackout
            </Button>
          ) : null}
        </Group>

        <Paper withBorder p="md" radius="md">
          <Group align="flex-end" gap="sm" wrap="wrap">
            <Select
              label="Site"
              placeholder="All sites"
              data={sites.map((s) => ({ value: s.id, label: s.name }))}
              value={query.siteId ?? null}
              onChange={(value) => update({ site: value, bay: null })}
              clearable
              w={220}
            />
            <Select
              label="Bay"
              placeholder={filterSite ? 'Every bay' : 'Choose a site first'}
              data={(filterSite?.bays ?? []).map((b) => ({ value: b.id, label: b.name }))}
              value={query.bayId ?? null}
              onChange={(value) => update({ bay: value })}
              disabled={!filterSite}
              clearable
              searchable
              w={180}
            />
            <DateField label="From" value={query.from ?? null} onChange={(d) => update({ from: d })} maxDate={query.to} w={170} />
            <DateField label="To" value={query.to ?? null} onChange={(d) => update({ to: d })} minDate={query.from} w={170} />
            {isFiltered ? (
              <Button variant="subtle" onClick={() => update({ site: null, bay: null, from: null, to: null })}>
                Clear filters
              </Button>
            ) : null}
          </Group>
        </Paper>

        {options.isError ? (
          <Alert color="red" title="Could not load the sites and bays">
            {options.error instanceof ApiError ? options.error.message : 'Try again in a moment.'} New blackouts can be added once they load.
          </Alert>
        ) : null}

        {seriesItems.length > 0 ? (
          <Paper withBorder radius="md">
            <Title order={2} size="h4" px="md" pt="md">
              Recurring blackouts
            </Title>
            <SeriesTable
              items={seriesItems}
              canEdit={canEdit}
              onEdit={(s) => openForm({ type: 'series', series: s })}
              onDelete={(s) => setDeleteTarget({ type: 'series', series: s })}
            />
          </Paper>
        ) : null}

        <Paper withBorder radius="md" pos="relative">
          <Group justify="space-between" px="md" pt="md">
            <Title order={2} size="h4">
              {isUpcomingOnly ? 'Current and upcoming' : 'In the chosen days'}
            </Title>
            <Text size="sm" c="dimmed">
              {list.data ? `${total} blackout${total === 1 ? '' : 's'}` : ' '}
            </Text>
          </Group>
          {list.isLoading ? (
            <Group justify="center" py="xl">
              <Loader aria-label="Loading blackouts" />
            </Group>
          ) : list.isError ? (
            <Alert color="red" m="md" title="Could not load blackouts">
              {list.error instanceof ApiError ? list.error.message : 'Try again in a moment.'}
            </Alert>
          ) : total === 0 ? (
            <Text c="dimmed" p="xl" ta="center">
              {isFiltered ? 'No blackouts match these filters.' : 'No blackouts coming up. Every bay takes bookings in its site’s opening hours.'}
            </Text>
          ) : (
            <BlackoutsTable
              items={list.data!.items}
              canEdit={canEdit}
              onEdit={(item: BlackoutItem) => openForm({ type: 'one-off', item })}
              onEditSeries={editSeries}
              onDelete={(item) => setDeleteTarget({ type: 'item', item })}
            />
          )}
        </Paper>

        {total > 0 ? (
          <Group justify="space-between">
            <Select
              aria-label="Blackouts per page"
              data={BLACKOUT_PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} per page` }))}
              value={String(query.pageSize)}
              onChange={(value) => update({ pageSize: value })}
              allowDeselect={false}
              w={150}
            />
            <Pagination total={pages} value={query.page} onChange={(page) => update({ page: String(page) }, true)} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
          </Group>
        ) : null}
      </Stack>

      {options.data ? (
        <BlackoutFormModal
          key={formState.key}
          orgId={selectedOrg.id}
          opened={formState.opened}
          target={formState.target}
          options={options.data}
          defaultSiteId={query.siteId ?? selectedSite?.id ?? null}
          onClose={() => setFormState((s) => ({ ...s, opened: false }))}
        />
      ) : null}
      <DeleteBlackoutModal orgId={selectedOrg.id} target={deleteTarget} onClose={() => setDeleteTarget(null)} />
    </Container>
  );
}
