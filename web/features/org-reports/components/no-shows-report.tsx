import { BarChart, LineChart } from '@mantine/charts';
import { Stack } from '@mantine/core';
import { NO_SHOW_COLUMNS, NO_SHOW_DIMENSIONS, REPORT_DIMENSION_LABELS, type NoShowReport, type ReportDimension } from '../../../../domain/reports';
import type { ReportRequest } from '../api/paths';
import { seriesColour } from '../utils/report-colours';
import { formatAxisDay, formatPercentValue, formatShare, niceTicks, toPercent } from '../utils/report-format';
import { barChartHeight, chartRows, columnsFor, GroupByControl, groupingOf } from './group-by-control';
import { ChartCard, ReportEmpty, ReportStats, TableCard } from './report-parts';
import { ReportTable } from './report-table';

const SERIES = [
  { name: 'noShow', label: 'No-show rate', color: seriesColour(1) },
  { name: 'cancellation', label: 'Cancellation rate', color: seriesColour(0) },
];

type Props = { data: NoShowReport; orgId: string; request: ReportRequest; groupBy: ReportDimension | null; onGroupBy: (d: ReportDimension) => void };

/** No-shows and cancellations: their rates per tenant and site, and day by day. */
export function NoShowsReportView({ data, orgId, request, groupBy, onGroupBy }: Props) {
  const dimension = groupingOf(NO_SHOW_DIMENSIONS, groupBy);
  const total = data.total;
  const stats = [
    { label: 'Bookings', value: total.bookings.toLocaleString('en-US') },
    { label: 'No-shows', value: `${total.noShows.toLocaleString('en-US')} (${formatShare(total.noShowRate)})` },
    { label: 'Cancellations', value: `${total.cancellations.toLocaleString('en-US')} (${formatShare(total.cancellationRate)})` },
  ];
  if (total.bookings === 0) {
    return <ReportEmpty title="No bookings in this range" hint="No booking started on these days. Choose a longer range or another site." />;
  }
  const rows = data.rows.filter((r) => r.dimension === dimension);
  const chart = chartRows(rows);
  const dimensionLabel = REPORT_DIMENSION_LABELS[dimension].toLowerCase();
  const trend = data.trend.map((d) => ({ date: formatAxisDay(d.date), noShow: toPercent(d.noShowRate), cancellation: toPercent(d.cancellationRate) }));
  const trendTicks = niceTicks(Math.max(0, ...trend.flatMap((d) => [d.noShow ?? 0, d.cancellation ?? 0])));
  const rates = chart.rows.map((r) => ({ label: r.label, noShow: toPercent(r.noShowRate), cancellation: toPercent(r.cancellationRate) }));

  return (
    <Stack gap="md">
      <ReportStats stats={stats} testId="no-shows-stats" />
      <ChartCard title="No-show and cancellation rates, day by day" description="Shares of each day's bookings (declined requests left out)." testId="no-shows-trend">
        <LineChart
          h={260}
          data={trend}
          dataKey="date"
          series={SERIES}
          curveType="linear"
          connectNulls
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          valueFormatter={formatPercentValue}
          yAxisProps={{ width: 48, domain: [0, trendTicks[trendTicks.length - 1]!], ticks: trendTicks }}
          withDots={trend.length <= 31}
          tooltipAnimationDuration={150}
        />
      </ChartCard>
      <ChartCard
        title={`No-show and cancellation rates by ${dimensionLabel}`}
        description={chart.note ?? undefined}
        controls={<GroupByControl dimensions={NO_SHOW_DIMENSIONS} value={dimension} onChange={onGroupBy} />}
        testId="no-shows-chart"
      >
        <BarChart
          h={barChartHeight(rates.length * 1.3)}
          data={rates}
          dataKey="label"
          orientation="vertical"
          series={SERIES}
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          valueFormatter={formatPercentValue}
          yAxisProps={{ width: 150 }}
          maxBarWidth={16}
          tooltipAnimationDuration={150}
        />
      </ChartCard>
      <TableCard title={`Per ${dimensionLabel}`} orgId={orgId} kind="no-shows" request={request} groupBy={dimension}>
        <ReportTable caption={`No-shows and cancellations per ${dimensionLabel}`} columns={columnsFor(NO_SHOW_COLUMNS, dimension)} rows={rows} rowKey={(r) => r.key} testId="no-shows-table" />
      </TableCard>
    </Stack>
  );
}
