import { Alert, Button, Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconDownload, IconRefresh } from '@tabler/icons-react';
import { Navigate } from 'react-router';
import {
  DEFAULT_USAGE_PERIOD_DAYS,
  USAGE_PAGE_SIZE,
  USAGE_PERIODS_DAYS,
  USAGE_SORT_KEYS,
  type UsagePeriodDays,
  type UsageQuery,
  type UsageSortKey,
} from '../../../../domain/usage';
import { paths } from '../../../app/paths';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useListParams } from '../../../lib/use-list-params';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDownloadUsageCsv } from '../api/download-usage-csv';
import { useUsage } from '../api/get-usage';
import { NearestLimits } from '../components/nearest-limits';
import { UsageDaily } from '../components/usage-daily';
import { UsageOrganizationsTable } from '../components/usage-organizations-table';
import { UsageTotals } from '../components/usage-totals';

// /superadmin/usage (issue 12): usage per organization and in total over the last 7, 30 or 90 UTC
// days — bookings created by source, active users, sign-ins, documents, API and webhook calls —
// as cards, charts (each with a table), a sortable table of organizations, the organizations
// nearest their plan limits, and the CSV. Period, sort, search and page live in the address.

const PERIOD_OPTIONS = USAGE_PERIODS_DAYS.map((days) => ({ value: String(days), label: `${days} days` }));

function readQuery(params: URLSearchParams): UsageQuery & { days: UsagePeriodDays; sort: UsageSortKey; order: 'asc' | 'desc'; page: number } {
  const days = Number(params.get('days'));
  const sort = params.get('sort');
  return {
    days: (USAGE_PERIODS_DAYS as readonly number[]).includes(days) ? (days as UsagePeriodDays) : DEFAULT_USAGE_PERIOD_DAYS,
    q: params.get('q') || undefined,
    sort: (USAGE_SORT_KEYS as readonly string[]).includes(sort ?? '') ? (sort as UsageSortKey) : 'bookingsCreated',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    page: Math.max(1, Math.floor(Number(params.get('page'))) || 1),
    pageSize: USAGE_PAGE_SIZE,
  };
}

const alertStyles = { title: { color: 'var(--mantine-color-text)' } };
const isRefused = (error: unknown) => error instanceof ApiError && (error.status === 401 || error.status === 403);

export default function UsagePage() {
  usePageTitle('Usage Analytics');
  const { params, update } = useListParams();
  const query = readQuery(params);
  const usage = useUsage(query);
  const download = useDownloadUsageCsv();

  if (isRefused(usage.error)) return <Navigate to={paths.superadmin.login} replace />;

  const report = usage.data;
  const isFirstLoad = usage.isPending;
  const hasNoOrganizations = !!report && report.organizations.total === 0 && !query.q;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Title order={1} size="h2">
            Usage Analytics
          </Title>
          <Text c="dimmed" size="sm">
            Every organization&apos;s use of Baywise over the last {query.days} days (UTC days, today included).
          </Text>
        </div>
        <Group gap="sm" wrap="wrap">
          <SegmentedControl
            aria-label="Usage period"
            data={PERIOD_OPTIONS}
            value={String(query.days)}
            onChange={(value) => update({ days: value === String(DEFAULT_USAGE_PERIOD_DAYS) ? null : value })}
          />
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={download.isPending}
            disabled={!report}
            onClick={() =>
              download.mutate(
                { days: query.days },
                {
                  onSuccess: (fileName) => toast.success('CSV downloaded', fileName),
                  onError: (error) => toast.error('Could not download the CSV', errorMessage(error, 'Try again in a moment.')),
                },
              )
            }
          >
            Download CSV
          </Button>
        </Group>
      </Group>

      {usage.isError ? (
        <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} styles={alertStyles} title="Failed to fetch usage">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{errorMessage(usage.error, 'The usage figures could not be loaded.')}</Text>
            <Button size="xs" variant="white" color="red.9" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => void usage.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : null}

      {isFirstLoad ? (
        <Stack gap="md" aria-busy="true" aria-label="Loading usage">
          <UsageTotals figures={undefined} days={query.days} isLoading />
          <Skeleton height={320} radius="md" />
          <Skeleton height={280} radius="md" />
        </Stack>
      ) : !report ? null : hasNoOrganizations ? (
        <Alert color="gray" variant="light" styles={alertStyles} title="No organizations yet">
          Usage appears here once organizations are on the platform.
        </Alert>
      ) : (
        <Stack gap="lg" style={{ opacity: usage.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }} aria-busy={usage.isFetching}>
          <section aria-labelledby="usage-totals-heading">
            <Title order={2} size="h4" id="usage-totals-heading" mb="sm">
              All organizations
            </Title>
            <UsageTotals figures={report.totals} days={report.days} isLoading={false} />
          </section>
          <UsageDaily days={report.daily} />
          <SimpleGrid cols={{ base: 1 }} spacing="lg">
            <UsageOrganizationsTable
              items={report.organizations.items}
              total={report.organizations.total}
              sort={query.sort}
              order={query.order}
              page={query.page}
              search={query.q ?? ''}
              onSort={(sort, order) => update({ sort, order })}
              onPage={(page) => update({ page: String(page) }, true)}
              onSearch={(q) => update({ q: q || null })}
            />
            <NearestLimits standings={report.nearestLimits} />
          </SimpleGrid>
        </Stack>
      )}
    </Stack>
  );
}
