import { SimpleGrid } from '@mantine/core';
import { IconAlertTriangle, IconBuildingSkyscraper, IconReportMoney, IconUsers } from '@tabler/icons-react';
import type { PlatformStats } from '../../../../domain/platform-admin';
import { StatCard } from '../../../components/ui/stat-card';
import { formatCount } from '../../../lib/format';
import { formatUsd } from './format';

type Props = { stats: PlatformStats | undefined; days: number; isLoading: boolean; isError: boolean };

/** Spec §7 "Platform statistics": four cards; each shows 'Error loading data' when the figures failed. */
export function PlatformStatsCards({ stats, days, isLoading, isError }: Props) {
  const cards = [
    { label: 'Active Organizations', value: stats && formatCount(stats.activeOrganizations), icon: <IconBuildingSkyscraper size={18} /> },
    { label: 'Active Memberships', value: stats && formatCount(stats.activeMemberships), icon: <IconUsers size={18} /> },
    { label: `Revenue (${days} days)`, value: stats && formatUsd(stats.revenueUsd), icon: <IconReportMoney size={18} /> },
    { label: 'Alerts (24 hours)', value: stats && formatCount(stats.alerts), icon: <IconAlertTriangle size={18} /> },
  ];
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="sm" data-testid="platform-stats">
      {cards.map((card) => (
        <div key={card.label} data-stat={card.label} style={{ display: 'grid' }}>
          <StatCard label={card.label} value={card.value ?? ''} icon={card.icon} isLoading={isLoading} isError={isError} />
        </div>
      ))}
    </SimpleGrid>
  );
}
