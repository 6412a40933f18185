import { SimpleGrid } from '@mantine/core';
import { IconAlarm, IconCalendarStats, IconChartDonut, IconClock, IconTruck } from '@tabler/icons-react';
import type { OrgDashboard } from '../../../../domain/org-dashboard';
import { StatCard } from '../../../components/ui/stat-card';
import { formatCount } from '../../../lib/format';

type DashboardStatsProps = { stats: OrgDashboard['stats'] | undefined; isLoading: boolean; isError: boolean };

/** The day's figures, each computed by the server for the organization or the chosen site. */
export function DashboardStats({ stats, isLoading, isError }: DashboardStatsProps) {
  const cards = [
    { label: 'Pending Requests', value: stats && formatCount(stats.pendingRequests), icon: <IconClock size={18} /> },
    { label: "Today's Bookings", value: stats && formatCount(stats.todaysBookings), icon: <IconCalendarStats size={18} /> },
    { label: 'On Site Now', value: stats && formatCount(stats.onSiteNow), icon: <IconTruck size={18} /> },
    { label: 'Late Arrivals', value: stats && formatCount(stats.lateArrivals), icon: <IconAlarm size={18} /> },
    { label: 'Utilization Today', value: stats && `${stats.utilisationPercent}%`, icon: <IconChartDonut size={18} /> },
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" data-testid="dashboard-stats">
      {cards.map((card) => (
        <div key={card.label} data-stat={card.label} style={{ display: 'grid' }}>
          <StatCard label={card.label} value={card.value ?? ''} icon={card.icon} isLoading={isLoading} isError={isError} />
        </div>
      ))}
    </SimpleGrid>
  );
}
