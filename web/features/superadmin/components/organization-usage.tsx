import { SimpleGrid } from '@mantine/core';
import { IconBuildingWarehouse, IconCalendarStats, IconFiles, IconLogin, IconTruckLoading, IconUsers } from '@tabler/icons-react';
import type { OrganizationDetail } from '../../../../domain/platform-admin';
import { StatCard } from '../../../components/ui/stat-card';
import { formatCount } from '../../../lib/format';
import { formatBytes } from './format';

/** '3 of 5' against the plan's limit; the count alone when there is no plan or no limit. */
function ofLimit(value: number, limit: number | null | undefined): string {
  return limit == null ? formatCount(value) : `${formatCount(value)} of ${formatCount(limit)}`;
}

/** What the organization uses now (against its plan's limits) and did in the last 30 days. */
export function OrganizationUsage({ organization }: { organization: OrganizationDetail }) {
  const { usage, plan } = organization;
  const sources = Object.entries(usage.bookingsBySource)
    .sort(([, a], [, b]) => b - a)
    .map(([source, n]) => `${n} ${source}`)
    .join(', ');
  const cards = [
    { label: 'Active sites', value: ofLimit(usage.activeSites, plan?.maxSites), icon: <IconBuildingWarehouse size={18} /> },
    { label: 'Active bays', value: ofLimit(usage.activeBays, plan?.maxBays), icon: <IconTruckLoading size={18} /> },
    { label: 'Active members', value: ofLimit(usage.activeMembers, plan?.maxUsers), icon: <IconUsers size={18} /> },
    {
      label: `Bookings (${usage.days} days)`,
      value: (
        <span title={sources || undefined}>
          {formatCount(usage.bookingsCreated)}
        </span>
      ),
      icon: <IconCalendarStats size={18} />,
    },
    { label: `Sign-ins (${usage.days} days)`, value: formatCount(usage.signIns), icon: <IconLogin size={18} /> },
    {
      label: 'Documents stored',
      value: usage.documents === 0 ? 'None' : `${formatCount(usage.documents)} file${usage.documents === 1 ? '' : 's'} · ${formatBytes(usage.documentBytes)}`,
      icon: <IconFiles size={18} />,
    },
  ];
  return (
    <section aria-labelledby="usage-heading">
      <h2 id="usage-heading" style={{ fontSize: 'var(--mantine-font-size-lg)', margin: '0 0 var(--mantine-spacing-sm)' }}>
        Usage
      </h2>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" data-testid="organization-usage">
        {cards.map((card) => (
          <div key={card.label} data-stat={card.label} style={{ display: 'grid' }}>
            <StatCard label={card.label} value={card.value} icon={card.icon} />
          </div>
        ))}
      </SimpleGrid>
    </section>
  );
}
