import { Alert, Button, Container, Group, Loader, Pagination, Paper, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { IconMapPin, IconPlus } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { AffectedResolution } from '../../../../domain/affected-bookings';
import { BAY_PAGE_SIZES, DEFAULT_BAY_PAGE_SIZE, type BayItem, type BayListQuery, type BayWriteResult } from '../../../../domain/org-bays';
import { affectedBookingsOf, AffectedBookingsDialog } from '../../../components/bookings/affected-bookings-dialog';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { useBayList, useDeleteBay, useSetBayActive } from '../api/org-bays-api';
import { BayConfirmModal, type ConfirmAction } from '../components/bay-confirm-modal';
import { BayFormModal, type AffectedRequest } from '../components/bay-form-modal';
import { BaysTable, type BayAction } from '../components/bays-table';
import { useListParams } from '../../../lib/use-list-params';
import { hasUnresolved, summarizeOutcomes } from '../utils/bay-outcomes';

// /org/bays (issue 9): the bays of the selected site (or of every site), in natural order, with
// their upcoming bookings. Admins add, edit, close, reopen and delete bays; a change that affects
// upcoming bookings asks what to do with them first. The page, status filter and "all sites" live
// in the address; the site itself is the organization's selected site (the header's selector).

const ALL_SITES = 'all';
type StatusFilter = 'all' | 'active' | 'inactive';

type FormState = { bay: BayItem | null; key: number };
type ConfirmState = { bay: BayItem; action: ConfirmAction };
type AffectedState = AffectedRequest & { description: string; timeZone?: string; fromForm: boolean };

export default function OrgBaysPage() {
  usePageTitle('Bays');
  const { selectedOrg, sites, selectedSite, selectSite, isLoadingSites } = useOrgSelection();
  const { params, update } = useListParams();
  const orgId = selectedOrg?.id;
  const canWrite = selectedOrg?.role !== 'dockmaster';

  const allSites = params.get('site') === ALL_SITES;
  const siteId = allSites ? undefined : (selectedSite?.id ?? sites[0]?.id);
  const site = sites.find((s) => s.id === siteId) ?? null;
  const status = (['active', 'inactive'].includes(params.get('status') ?? '') ? params.get('status') : 'all') as StatusFilter;
  const pageSizeParam = Number(params.get('pageSize'));
  const pageSize = (BAY_PAGE_SIZES as readonly number[]).includes(pageSizeParam) ? pageSizeParam : DEFAULT_BAY_PAGE_SIZE;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const query: BayListQuery = {
    siteId,
    active: status === 'all' ? undefined : status === 'active' ? 'true' : 'false',
    page,
    pageSize,
  };
  const waitingForSite = !allSites && !siteId;
  const list = useBayList(waitingForSite ? undefined : orgId, query);


  // Choosing a site in the header shows that site's bays (leaves "All sites").
  const previousSite = useRef(selectedSite?.id);
  useEffect(() => {
    if (previousSite.current !== selectedSite?.id && previousSite.current !== undefined) update({ site: null });
    previousSite.current = selectedSite?.id;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the header's site drives this
  }, [selectedSite?.id]);

  const [form, setForm] = useState<FormState | null>(null);
  const [formHidden, setFormHidden] = useState(false);
  const [confirm, setConfirm] = useState<ConfirmState | null>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const [affected, setAffected] = useState<AffectedState | null>(null);
  const setActive = useSetBayActive(orgId ?? '');
  const remove = useDeleteBay(orgId ?? '');

  const timeZoneOf = (id: string | undefined) => sites.find((s) => s.id === id)?.timeZone;

  /** One toast per write, with what happened to the bookings it affected. */
  const announce = (title: string, result: BayWriteResult, line: string) => {
    const outcomes = summarizeOutcomes(result.outcomes);
    const message = outcomes ? `${line} ${outcomes}` : line;
    if (hasUnresolved(result.outcomes)) toast.info(title, message);
    else toast.success(title, message);
  };

  const openConfirm = (bay: BayItem, action: ConfirmAction) => {
    setConfirmError(null);
    setConfirm({ bay, action });
  };

  const onAction = (action: BayAction, bay: BayItem) => {
    if (action === 'edit') {
      setFormHidden(false);
      setForm({ bay, key: Date.now() });
    } else openConfirm(bay, action);
  };

  const runConfirm = async () => {
    if (!confirm) return;
    const { bay, action } = confirm;
    setConfirmError(null);
    try {
      if (action === 'delete') {
        await remove.mutateAsync(bay.id);
        toast.success('Bay deleted', `${bay.name} at ${bay.siteName} is gone.`);
      } else {
        const result = await setActive.mutateAsync({ bayId: bay.id, action });
        announce(
          action === 'deactivate' ? 'Bay deactivated' : 'Bay reactivated',
          result,
          action === 'deactivate' ? `${bay.name} takes no new bookings.` : `${bay.name} takes bookings again.`,
        );
      }
      setConfirm(null);
    } catch (error) {
      const list = affectedBookingsOf(error);
      if (list && action === 'deactivate') {
        setConfirm(null);
        setAffected({
          title: `Closing bay ${bay.name}`,
          description: `Bay ${bay.name} has ${list.length} upcoming booking${list.length === 1 ? '' : 's'}. Keep them on the closed bay, move them to another free bay that fits at the same time, or cancel them (the hauliers are e-mailed the reason). Nothing changes until you choose.`,
          affected: list,
          timeZone: timeZoneOf(bay.siteId),
          fromForm: false,
          resend: async (resolution: AffectedResolution) => {
            const result = await setActive.mutateAsync({ bayId: bay.id, action: 'deactivate', resolution });
            announce('Bay deactivated', result, `${bay.name} takes no new bookings.`);
            return result;
          },
        });
        return;
      }
      setConfirmError(errorMessage(error, 'The change could not be saved. Try again.'));
    }
  };

  const onSaved = (result: BayWriteResult, verb: 'added' | 'saved') => {
    setForm(null);
    setFormHidden(false);
    if (verb === 'added') {
      toast.success('Bay added', `${result.bay.name} at ${result.bay.siteName}: the booking portal offers it now.`);
      // Show the site the bay was added to.
      if (!allSites && result.bay.siteId !== siteId) selectSite(result.bay.siteId);
    } else announce('Bay saved', result, `${result.bay.name} is saved.`);
  };

  const onFormAffected = (request: AffectedRequest) => {
    setFormHidden(true);
    setAffected({
      ...request,
      description: `The changed bay no longer fits ${request.affected.length === 1 ? 'this upcoming booking' : `these ${request.affected.length} upcoming bookings`} (vehicle height, length or special access needs). Keep them on the bay, move them to another free bay that fits at the same time, or cancel them (the hauliers are e-mailed the reason). Nothing changes until you choose.`,
      timeZone: timeZoneOf(request.affected[0]?.siteId),
      fromForm: true,
      resend: async (resolution) => {
        const result = await request.resend(resolution);
        onSaved(result, 'saved');
        return result;
      },
    });
  };

  if (!selectedOrg) {
    return (
      <Container size="xl" py="md">
        <Title order={1} size="h2">
          Bays
        </Title>
        <Text c="dimmed" mt="sm">
          Choose an organization to see its bays.
        </Text>
      </Container>
    );
  }

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const siteOptions = sites.map((s) => ({ value: s.id, label: s.name }));

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={1} size="h2">
              Bays
            </Title>
            <Text c="dimmed" size="sm">
              {allSites ? 'All sites' : (site?.name ?? ' ')}
              {list.data ? ` · ${total} bay${total === 1 ? '' : 's'}` : ''}
            </Text>
          </div>
          {canWrite ? (
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => {
                setFormHidden(false);
                setForm({ bay: null, key: Date.now() });
              }}
              disabled={sites.length === 0}
            >
              Add bay
            </Button>
          ) : null}
        </Group>

        <Paper withBorder p="md" radius="md">
          <Group align="flex-end" gap="md" wrap="wrap">
            <Select
              label="Show bays at"
              data={[...siteOptions, { value: ALL_SITES, label: 'All sites' }]}
              value={allSites ? ALL_SITES : (siteId ?? null)}
              placeholder={isLoadingSites ? 'Loading sites…' : 'Choose a site'}
              onChange={(value) => {
                if (value === ALL_SITES) update({ site: ALL_SITES });
                else if (value) {
                  update({ site: null });
                  selectSite(value);
                }
              }}
              allowDeselect={false}
              leftSection={<IconMapPin size={16} aria-hidden />}
              w={240}
            />
            <div>
              <Text component="span" size="sm" fw={500} id="bay-status-filter" display="block" mb={4}>
                Status
              </Text>
              <SegmentedControl
                aria-labelledby="bay-status-filter"
                data={[
                  { value: 'all', label: 'All' },
                  { value: 'active', label: 'Active' },
                  { value: 'inactive', label: 'Inactive' },
                ]}
                value={status}
                onChange={(value) => update({ status: value === 'all' ? null : value })}
              />
            </div>
          </Group>
        </Paper>

        <Paper withBorder radius="md" pos="relative">
          {waitingForSite && (isLoadingSites || sites.length > 0) ? (
            <Group justify="center" py="xl">
              <Loader aria-label="Loading sites" />
            </Group>
          ) : waitingForSite ? (
            <Text c="dimmed" p="xl" ta="center">
              This organization has no active site yet. Add a site first, then its bays.
            </Text>
          ) : list.isLoading ? (
            <Group justify="center" py="xl">
              <Loader aria-label="Loading bays" />
            </Group>
          ) : list.isError ? (
            <Alert color="red" m="md" title="Could not load bays" role="alert">
              {errorMessage(list.error, 'Try again in a moment.')}
              <Button variant="light" color="red" size="xs" mt="sm" display="block" onClick={() => void list.refetch()}>
                Try again
              </Button>
            </Alert>
          ) : total === 0 ? (
            <Text c="dimmed" p="xl" ta="center">
              {status === 'inactive'
                ? 'No inactive bays.'
                : status === 'active'
                  ? 'No active bays.'
                  : canWrite
                    ? 'No bays yet. Add the first one: the booking portal offers it at once.'
                    : 'No bays yet.'}
            </Text>
          ) : (
            <BaysTable items={list.data!.items} showSite={allSites} canWrite={canWrite} onAction={onAction} />
          )}
        </Paper>

        {total > 0 ? (
          <Group justify="space-between">
            <Select
              aria-label="Bays per page"
              data={BAY_PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} per page` }))}
              value={String(pageSize)}
              onChange={(value) => update({ pageSize: value })}
              allowDeselect={false}
              w={150}
            />
            <Pagination
              total={pages}
              value={Math.min(page, pages)}
              onChange={(p) => update({ page: String(p) }, true)}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            />
          </Group>
        ) : null}
      </Stack>

      {form ? (
        <BayFormModal
          key={form.key}
          orgId={selectedOrg.id}
          opened={!formHidden}
          bay={form.bay}
          sites={siteOptions}
          defaultSiteId={siteId ?? selectedSite?.id ?? null}
          onClose={() => setForm(null)}
          onSaved={onSaved}
          onAffected={onFormAffected}
        />
      ) : null}
      {confirm ? (
        <BayConfirmModal
          bay={confirm.bay}
          action={confirm.action}
          opened
          pending={setActive.isPending || remove.isPending}
          error={confirmError}
          onConfirm={() => void runConfirm()}
          onDeactivateInstead={() => openConfirm(confirm.bay, 'deactivate')}
          onClose={() => setConfirm(null)}
        />
      ) : null}
      {affected ? (
        <AffectedBookingsDialog
          opened
          title={affected.title}
          description={affected.description}
          affected={affected.affected}
          timeZone={affected.timeZone}
          onResolve={async (resolution) => {
            await affected.resend(resolution);
            setAffected(null);
          }}
          onClose={() => {
            // Back to the form the edit came from, its answers intact.
            if (affected.fromForm) setFormHidden(false);
            setAffected(null);
          }}
        />
      ) : null}
    </Container>
  );
}
