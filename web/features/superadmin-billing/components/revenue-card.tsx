import { BarChart } from '@mantine/charts';
import { Alert, Group, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { REVENUE_MONTHS, type Revenue } from '../../../../domain/billing';
import { StatCard } from '../../../components/ui/stat-card';
import { errorMessage } from '../../../lib/api-client';
import { useRevenue } from '../api/get-revenue';
import { alertStyles, formatUsd } from './billing-format';

const shortMonth = (month: string) => new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });
const compactUsd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 });

function RevenueTable({ revenue }: { revenue: Revenue }) {
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table verticalSpacing={4} aria-label="Revenue by month" data-testid="revenue-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Month</Table.Th>
            <Table.Th ta="right">Invoices paid</Table.Th>
            <Table.Th ta="right">Revenue</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {revenue.months.map((m) => (
            <Table.Tr key={m.month}>
              <Table.Td>{m.label}</Table.Td>
              <Table.Td ta="right">{m.invoicesPaid}</Table.Td>
              <Table.Td ta="right">{formatUsd(m.revenueUsd)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th>Total</Table.Th>
            <Table.Th ta="right">{revenue.months.reduce((sum, m) => sum + m.invoicesPaid, 0)}</Table.Th>
            <Table.Th ta="right">{formatUsd(revenue.totalUsd)}</Table.Th>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Revenue by calendar month of payment (UTC), the last 12 months, as a chart or a table; and what is outstanding. */
export function RevenueCard() {
  const revenue = useRevenue();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const data = revenue.data;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm" data-testid="billing-stats">
        {[
          { label: `Revenue (${REVENUE_MONTHS} months)`, value: data && formatUsd(data.totalUsd) },
          { label: 'Outstanding', value: data && formatUsd(data.outstandingUsd) },
          { label: 'Open invoices', value: data && String(data.openInvoices) },
        ].map((card) => (
          <div key={card.label} data-stat={card.label} style={{ display: 'grid' }}>
            <StatCard label={card.label} value={card.value ?? ''} isLoading={revenue.isPending} isError={revenue.isError} />
          </div>
        ))}
      </SimpleGrid>
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="revenue-heading">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm" mb="sm">
          <div>
            <Title order={2} size="h4" id="revenue-heading">
              Revenue by month
            </Title>
            <Text size="sm" c="dimmed">
              Paid invoices by the month (UTC) they were paid in — what the dashboard’s revenue card counts.
            </Text>
          </div>
          <SegmentedControl
            aria-label="Show revenue as"
            size="xs"
            value={view}
            onChange={(value) => setView(value as 'chart' | 'table')}
            data={[
              { value: 'chart', label: 'Chart' },
              { value: 'table', label: 'Table' },
            ]}
          />
        </Group>
        {revenue.isPending ? (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading revenue" />
          </Group>
        ) : revenue.isError || !data ? (
          <Alert styles={alertStyles} color="red" role="alert" title="Revenue not loaded">
            {errorMessage(revenue.error, 'Try again in a moment.')}
          </Alert>
        ) : view === 'table' ? (
          <RevenueTable revenue={data} />
        ) : (
          <div
            role="img"
            aria-label={`Bar chart of revenue by month, ${data.months[0]?.label} to ${data.months.at(-1)?.label}: ${formatUsd(data.totalUsd)} in all. Choose Table for the figures.`}
            data-testid="revenue-chart"
          >
            <BarChart
              h={260}
              data={data.months.map((m) => ({ month: shortMonth(m.month), revenue: m.revenueUsd }))}
              dataKey="month"
              series={[{ name: 'revenue', label: 'Revenue (USD)', color: 'indigo.7' }]}
              valueFormatter={(value) => formatUsd(value)}
              yAxisProps={{ width: 64, tickFormatter: (value: number) => compactUsd.format(value) }}
              maxBarWidth={36}
              tooltipAnimationDuration={150}
            />
          </div>
        )}
      </Paper>
    </Stack>
  );
}
