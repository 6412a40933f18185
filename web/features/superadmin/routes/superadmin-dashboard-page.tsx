import { Alert, Button, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { Navigate } from 'react-router';
import {
  AUDIT_FAILED_TEXT,
  DASHBOARD_AUDIT_ENTRIES,
  DASHBOARD_ORGANIZATIONS,
  DATA_REFRESHED_TEXT,
  DEFAULT_STATS_PERIOD_DAYS,
  ORGANIZATIONS_FAILED_TEXT,
  STATS_FAILED_TEXT,
  STATS_PERIODS_DAYS,
  type StatsPeriodDays,
} from '../../../../domain/platform-admin';
import { paths } from '../../../app/paths';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useListParams } from '../../../lib/use-list-params';
import { usePageTitle } from '../../../lib/use-page-title';
import { useOrganizations } from '../api/get-organizations';
import { useNewQuoteCount } from '../api/quote-requests';
import { usePlatformStatistics } from '../api/get-platform-statistics';
import { useRecentActivity } from '../api/get-recent-activity';
import { DashboardOrganizations } from '../components/dashboard-organizations';
import { PlatformStatsCards } from '../components/platform-stats-cards';
import { RecentActivity } from '../components/recent-activity';
import { ShortcutCards } from '../components/shortcut-cards';

// Spec §2 "Super admin dashboard" (/superadmin/dashboard), on real data: four statistics for a
// 7- or 30-day period (in the address, default 30), Refresh, the first 3 organizations, the 5
// latest audit entries and the shortcut cards.

const PERIOD_OPTIONS = STATS_PERIODS_DAYS.map((days) => ({ value: String(days), label: `${days} days` }));

function readPeriod(value: string | null): StatsPeriodDays {
  const days = Number(value);
  return (STATS_PERIODS_DAYS as readonly number[]).includes(days) ? (days as StatsPeriodDays) : DEFAULT_STATS_PERIOD_DAYS;
}

const isRefused = (error: unknown) => error instanceof ApiError && (error.status === 401 || error.status === 403);

export default function SuperAdminDashboardPage() {
  usePageTitle('Platform Dashboard');
  const { params, update } = useListParams();
  const days = readPeriod(params.get('days'));
  const stats = usePlatformStatistics(days);
  const organizations = useOrganizations({ page: 1, pageSize: DASHBOARD_ORGANIZATIONS });
  const activity = useRecentActivity(DASHBOARD_AUDIT_ENTRIES);
  const newQuotes = useNewQuoteCount();
  const [isRefreshing, setRefreshing] = useState(false);
  // Ages are measured at each render: every refresh or period change brings them up to date.
  const now = new Date();

  // The server refuses anyone without a platform role: they belong at the super-admin sign-in (spec §2).
  if (isRefused(stats.error) || isRefused(organizations.error) || isRefused(activity.error)) {
    return <Navigate to={paths.superadmin.login} replace />;
  }

  const refresh = async () => {
    setRefreshing(true);
    const [statsResult, organizationsResult, activityResult] = await Promise.all([stats.refetch(), organizations.refetch(), activity.refetch()]);
    setRefreshing(false);
    const failures: [boolean, unknown, string][] = [
      [statsResult.isError, statsResult.error, STATS_FAILED_TEXT],
      [organizationsResult.isError, organizationsResult.error, ORGANIZATIONS_FAILED_TEXT],
      [activityResult.isError, activityResult.error, AUDIT_FAILED_TEXT],
    ];
    const failed = failures.find(([isError]) => isError);
    if (failed) toast.error(failed[2], errorMessage(failed[1], 'Try again in a moment.'));
    else toast.success(DATA_REFRESHED_TEXT, 'Statistics, organizations and recent activity are up to date.');
  };

  const isStatsError = stats.isError && !stats.data;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Title order={1} size="h2">
            Platform Dashboard
          </Title>
          <Text c="dimmed" size="sm">
            Every organization on Baywise: figures for the last {days} days, alerts of the last 24 hours.
          </Text>
        </div>
        <Group gap="sm" wrap="wrap">
          <SegmentedControl
            aria-label="Statistics period"
            data={PERIOD_OPTIONS}
            value={String(days)}
            onChange={(value) => update({ days: value === String(DEFAULT_STATS_PERIOD_DAYS) ? null : value })}
          />
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden />}
            loading={isRefreshing}
            onClick={() => void refresh()}
          >
            Refresh
          </Button>
        </Group>
      </Group>

      {stats.isError ? (
        <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} styles={{ title: { color: 'var(--mantine-color-text)' } }} title={STATS_FAILED_TEXT}>
          <Group justify="space-between" gap="sm">
            <Text size="sm">{errorMessage(stats.error, 'The statistics could not be loaded.')}</Text>
            <Button size="xs" variant="white" color="red.9" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => void stats.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : null}

      <PlatformStatsCards stats={stats.data} days={days} isLoading={stats.isPending} isError={isStatsError} />

      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <DashboardOrganizations
          organizations={organizations.data?.items}
          total={organizations.data?.total}
          isLoading={organizations.isPending}
          error={organizations.isError && !organizations.data ? organizations.error : null}
          newQuotes={newQuotes}
        />
        <RecentActivity
          entries={activity.data?.items}
          isLoading={activity.isPending}
          error={activity.isError && !activity.data ? activity.error : null}
          now={now}
        />
      </SimpleGrid>

      <ShortcutCards />
    </Stack>
  );
}
