import { Alert, Button, Container, Group, Loader, MultiSelect, Pagination, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { BOOKING_STATUS_LABELS, isBookingStatus } from '../../../../domain/booking-lifecycle';
import { BOOKING_STATUSES, type BookingStatus } from '../../../../domain/enums';
import { BOOKING_PAGE_SIZES, BOOKING_SORT_FIELDS, DEFAULT_BOOKING_PAGE_SIZE, type BookingListQuery } from '../../../../domain/org-bookings';
import { DateField } from '../../../components/ui/date-field';
import { ApiError } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { useBookingList } from '../api/org-bookings-api';
import { BookingDrawer } from '../components/booking-drawer';
import { BookingsTable, type SortField } from '../components/bookings-table';
import { NewBookingModal } from '../components/new-booking-modal';

// /org/bookings: every filter, the sort and the page live in the address, so a view can be
// shared and the back button works; `?booking=<id>` opens that booking's drawer.

const STATUS_OPTIONS = BOOKING_STATUSES.map((s) => ({ value: s, label: BOOKING_STATUS_LABELS[s] }));

type ListState = BookingListQuery & { status: BookingStatus[]; sort: SortField; order: 'asc' | 'desc'; page: number; pageSize: number };

function readQuery(params: URLSearchParams, siteId: string | undefined): ListState {
  const sort = params.get('sort');
  const pageSize = Number(params.get('pageSize'));
  return {
    status: params.getAll('status').filter(isBookingStatus),
    from: params.get('from') ?? undefined,
    to: params.get('to') ?? undefined,
    siteId,
    q: params.get('q') ?? undefined,
    sort: (BOOKING_SORT_FIELDS as readonly string[]).includes(sort ?? '') ? (sort as SortField) : 'startTime',
    // Newest first unless asked otherwise: today's and tomorrow's work, not last year's.
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    page: Math.max(1, Number(params.get('page')) || 1),
    pageSize: (BOOKING_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_BOOKING_PAGE_SIZE,
  };
}

export default function OrgBookingsPage() {
  usePageTitle('Bookings');
  const { selectedOrg, selectedSite, sites } = useOrgSelection();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  // /org/bookings/new is this page with the new-booking form open.
  const isNew = useLocation().pathname.endsWith('/bookings/new');
  const query = readQuery(params, selectedSite?.id);
  const list = useBookingList(selectedOrg?.id, query);
  const [search, setSearch] = useState(query.q ?? '');
  const [debouncedSearch] = useDebouncedValue(search, 300);

  /** Changes some parameters; any filter change goes back to the first page. */
  const update = (changes: Record<string, string | string[] | null>, keepPage = false) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          next.delete(key);
          if (Array.isArray(value)) value.forEach((v) => next.append(key, v));
          else if (value) next.set(key, value);
        }
        if (!keepPage) next.delete('page');
        return next;
      },
      { replace: !('booking' in changes) },
    );
  };

  useEffect(() => {
    if ((debouncedSearch || null) !== (params.get('q') || null)) update({ q: debouncedSearch.trim() || null });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the debounced text drives this
  }, [debouncedSearch]);

  const openBooking = params.get('booking');
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / query.pageSize));
  const filtered = query.status.length > 0 || !!query.from || !!query.to || !!query.q;

  if (!selectedOrg) {
    return (
      <Container size="xl" py="md">
        <Title order={1} size="h2">Bookings</Title>
        <Text c="dimmed" mt="sm">Choose an organization to see its bookings.</Text>
      </Container>
    );
  }

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={1} size="h2">
              Bookings
            </Title>
            <Text c="dimmed" size="sm">
              {selectedSite ? `${selectedSite.name} · ` : 'All sites · '}
              {list.data ? `${total} booking${total === 1 ? '' : 's'}` : ' '}
            </Text>
          </div>
          <Button component={Link} to="/org/bookings/new">
            New booking
          </Button>
        </Group>

        <Paper withBorder p="md" radius="md">
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              label="Search"
              placeholder="TSR number, company or registration"
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
              w={280}
            />
            <MultiSelect
              label="Status"
              placeholder={query.status.length ? undefined : 'Any status'}
              data={STATUS_OPTIONS}
              value={query.status}
              onChange={(values) => update({ status: values })}
              clearable
              w={260}
            />
            <DateField label="From" value={query.from ?? null} onChange={(d) => update({ from: d })} maxDate={query.to} w={170} />
            <DateField label="To" value={query.to ?? null} onChange={(d) => update({ to: d })} minDate={query.from} w={170} />
            {filtered ? (
              <Button variant="subtle" onClick={() => { setSearch(''); update({ status: [], from: null, to: null, q: null }); }}>
                Clear filters
              </Button>
            ) : null}
          </Group>
        </Paper>

        <Paper withBorder radius="md" pos="relative">
          {list.isLoading ? (
            <Group justify="center" py="xl">
              <Loader aria-label="Loading bookings" />
            </Group>
          ) : list.isError ? (
            <Alert color="red" m="md" title="Could not load bookings">
              {list.error instanceof ApiError ? list.error.message : 'Try again in a moment.'}
            </Alert>
          ) : total === 0 ? (
            <Text c="dimmed" p="xl" ta="center">
              {filtered ? 'No bookings match these filters.' : 'No bookings yet. Requests from the booking portal appear here.'}
            </Text>
          ) : (
            <BookingsTable
              items={list.data!.items}
              sort={{ sort: query.sort, order: query.order }}
              onSort={(sort) => update({ sort: sort.sort, order: sort.order })}
              onOpen={(id) => update({ booking: id }, true)}
            />
          )}
        </Paper>

        {total > 0 ? (
          <Group justify="space-between">
            <Select
              aria-label="Bookings per page"
              data={BOOKING_PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} per page` }))}
              value={String(query.pageSize)}
              onChange={(value) => update({ pageSize: value })}
              allowDeselect={false}
              w={150}
            />
            <Pagination total={pages} value={query.page} onChange={(page) => update({ page: String(page) }, true)} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
          </Group>
        ) : null}
      </Stack>
      <BookingDrawer orgId={selectedOrg.id} bookingId={openBooking} onClose={() => update({ booking: null }, true)} />
      <NewBookingModal
        orgId={selectedOrg.id}
        sites={sites}
        defaultSiteId={selectedSite?.id ?? null}
        opened={isNew}
        onClose={() => navigate('/org/bookings')}
        onCreated={(booking) => navigate(`/org/bookings?booking=${booking.id}`)}
      />
    </Container>
  );
}
