import { SimpleGrid, Text } from '@mantine/core';
import { IconApi, IconCalendarPlus, IconFiles, IconLogin, IconUsers, IconWebhook } from '@tabler/icons-react';
import { USAGE_SOURCE_LABELS, USAGE_SOURCES, type UsageFigures } from '../../../../domain/usage';
import { StatCard } from '../../../components/ui/stat-card';
import { formatCount } from '../../../lib/format';
import { formatBytes } from '../utils/usage-format';

/** The window's figures as cards: bookings created (with their sources), active users, sign-ins, documents, API and webhook calls. */
export function UsageTotals({ figures, days, isLoading }: { figures: UsageFigures | undefined; days: number; isLoading: boolean }) {
  const sources = figures
    ? USAGE_SOURCES.filter((s) => figures.bookingsBySource[s] > 0)
        .map((s) => `${formatCount(figures.bookingsBySource[s])} ${USAGE_SOURCE_LABELS[s].toLowerCase()}`)
        .join(' · ')
    : '';
  const cards = [
    {
      label: 'Bookings created',
      value: figures ? formatCount(figures.bookingsCreated) : '',
      hint: sources || 'None in this period',
      icon: <IconCalendarPlus size={18} />,
    },
    { label: 'Active users', value: figures ? formatCount(figures.activeUsers) : '', hint: 'Members who signed in or acted', icon: <IconUsers size={18} /> },
    { label: 'Sign-ins', value: figures ? formatCount(figures.signIns) : '', hint: 'Impersonations not counted', icon: <IconLogin size={18} /> },
    {
      label: 'Documents stored',
      value: figures ? `${formatCount(figures.documentsStored)} · ${formatBytes(figures.documentBytesStored)}` : '',
      hint: figures ? `${formatCount(figures.documentsAdded)} added (${formatBytes(figures.documentBytesAdded)}) in ${days} days` : '',
      icon: <IconFiles size={18} />,
    },
    { label: 'API calls', value: figures ? formatCount(figures.apiCalls) : '', hint: 'Requests to organization and gate routes', icon: <IconApi size={18} /> },
    { label: 'Webhook calls', value: figures ? formatCount(figures.webhookCalls) : '', hint: 'Accepted ANPR camera reads', icon: <IconWebhook size={18} /> },
  ];
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="sm" data-testid="usage-totals">
      {cards.map((card) => (
        <div key={card.label} data-stat={card.label} style={{ display: 'grid' }}>
          <StatCard
            label={card.label}
            isLoading={isLoading}
            icon={card.icon}
            value={
              <>
                {card.value}
                <Text component="span" display="block" size="xs" c="dimmed" fw={400} lh={1.4}>
                  {card.hint}
                </Text>
              </>
            }
          />
        </div>
      ))}
    </SimpleGrid>
  );
}
