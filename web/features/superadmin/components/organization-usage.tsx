import { Alert, Anchor, Group, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconApi, IconBuildingWarehouse, IconCalendarPlus, IconCalendarStats, IconFiles, IconLogin, IconTruckLoading, IconUsers, IconWebhook } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { OrganizationDetail } from '../../../../domain/platform-admin';
import { DEFAULT_USAGE_PERIOD_DAYS, USAGE_PERIODS_DAYS, USAGE_SOURCE_LABELS, USAGE_SOURCES, type UsagePeriodDays } from '../../../../domain/usage';
import { paths } from '../../../app/paths';
import { StatCard } from '../../../components/ui/stat-card';
import { errorMessage } from '../../../lib/api-client';
import { formatCount } from '../../../lib/format';
import { useUsage } from '../../superadmin-usage/api/get-usage';
import { formatBytes } from './format';

/** '3 of 5' against the plan's limit; the count alone when there is no plan or no limit. */
function ofLimit(value: number, limit: number | null | undefined): string {
  return limit == null ? formatCount(value) : `${formatCount(value)} of ${formatCount(limit)}`;
}

function Card({ label, value, hint, icon, isLoading, isError }: { label: string; value: ReactNode; hint?: string; icon: ReactNode; isLoading?: boolean; isError?: boolean }) {
  return (
    <div data-stat={label} style={{ display: 'grid' }}>
      <StatCard
        label={label}
        icon={icon}
        isLoading={isLoading}
        isError={isError}
        value={
          <>
            {value}
            {hint ? (
              <Text component="span" display="block" size="xs" c="dimmed" fw={400} lh={1.4}>
                {hint}
              </Text>
            ) : null}
          </>
        }
      />
    </div>
  );
}

const PERIOD_OPTIONS = USAGE_PERIODS_DAYS.map((days) => ({ value: String(days), label: `${days} days` }));

/**
 * What the organization uses now against its plan's limits, and what it did over the last 7, 30 or
 * 90 days — the same figures, from the same endpoint, as its row on the usage screen.
 */
export function OrganizationUsage({ organization }: { organization: OrganizationDetail }) {
  const { usage, plan } = organization;
  const [days, setDays] = useState<UsagePeriodDays>(DEFAULT_USAGE_PERIOD_DAYS);
  const report = useUsage({ days, orgId: organization.id });
  const figures = report.data?.totals;
  const isLoading = report.isPending;
  const isError = report.isError && !report.data;
  const sources = figures
    ? USAGE_SOURCES.filter((s) => figures.bookingsBySource[s] > 0)
        .map((s) => `${formatCount(figures.bookingsBySource[s])} ${USAGE_SOURCE_LABELS[s].toLowerCase()}`)
        .join(' · ')
    : '';

  return (
    <section aria-labelledby="usage-heading">
      <h2 id="usage-heading" style={{ fontSize: 'var(--mantine-font-size-lg)', margin: '0 0 var(--mantine-spacing-sm)' }}>
        Usage
      </h2>
      <Stack gap="md">
        <div>
          <Text size="sm" fw={600} mb={6}>
            Now, against the plan
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" data-testid="organization-usage">
            <Card label="Active sites" value={ofLimit(usage.activeSites, plan?.maxSites)} icon={<IconBuildingWarehouse size={18} />} />
            <Card label="Active bays" value={ofLimit(usage.activeBays, plan?.maxBays)} icon={<IconTruckLoading size={18} />} />
            <Card label="Active members" value={ofLimit(usage.activeMembers, plan?.maxUsers)} icon={<IconUsers size={18} />} />
            <Card label="Bookings this month" value={ofLimit(usage.bookingsThisMonth, plan?.maxBookingsPerMonth)} hint="Created this calendar month (UTC)" icon={<IconCalendarStats size={18} />} />
          </SimpleGrid>
        </div>
        <div>
          <Group justify="space-between" align="center" wrap="wrap" gap="sm" mb={6}>
            <Text size="sm" fw={600}>
              Over the last {days} days
            </Text>
            <Group gap="sm">
              <SegmentedControl size="xs" aria-label="Usage period" data={PERIOD_OPTIONS} value={String(days)} onChange={(value) => setDays(Number(value) as UsagePeriodDays)} />
              <Anchor component={Link} to={`${paths.superadmin.usage}?q=${encodeURIComponent(organization.slug)}${days === DEFAULT_USAGE_PERIOD_DAYS ? '' : `&days=${days}`}`} size="sm">
                Compare on the usage screen
              </Anchor>
            </Group>
          </Group>
          {isError ? (
            <Alert color="red" variant="light" role="alert" title="Failed to fetch usage" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
              {errorMessage(report.error, 'Try again in a moment.')}
            </Alert>
          ) : (
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" data-testid="organization-usage-window" aria-busy={report.isFetching}>
              <Card label="Bookings created" value={figures ? formatCount(figures.bookingsCreated) : ''} hint={sources || 'None in this period'} icon={<IconCalendarPlus size={18} />} isLoading={isLoading} />
              <Card label="Active users" value={figures ? formatCount(figures.activeUsers) : ''} hint="Members who signed in or acted" icon={<IconUsers size={18} />} isLoading={isLoading} />
              <Card label="Sign-ins" value={figures ? formatCount(figures.signIns) : ''} hint="Impersonations not counted" icon={<IconLogin size={18} />} isLoading={isLoading} />
              <Card
                label="Documents stored"
                value={figures ? (figures.documentsStored === 0 ? 'None' : `${formatCount(figures.documentsStored)} · ${formatBytes(figures.documentBytesStored)}`) : ''}
                hint={figures ? `${formatCount(figures.documentsAdded)} added (${formatBytes(figures.documentBytesAdded)}) in ${days} days` : undefined}
                icon={<IconFiles size={18} />}
                isLoading={isLoading}
              />
              <Card label="API calls" value={figures ? formatCount(figures.apiCalls) : ''} hint="Requests to its organization and gate routes" icon={<IconApi size={18} />} isLoading={isLoading} />
              <Card label="Webhook calls" value={figures ? formatCount(figures.webhookCalls) : ''} hint="Accepted ANPR camera reads" icon={<IconWebhook size={18} />} isLoading={isLoading} />
            </SimpleGrid>
          )}
        </div>
      </Stack>
    </section>
  );
}
