import { BarChart } from '@mantine/charts';
import { Stack, Text } from '@mantine/core';
import { REPORT_DIMENSION_LABELS, LATE_MINUTE_BUCKETS, PUNCTUALITY_COLUMNS, PUNCTUALITY_DIMENSIONS, PUNCTUALITY_WINDOW_MIN, type PunctualityReport, type ReportDimension } from '../../../../domain/reports';
import type { ReportRequest } from '../api/paths';
import { PUNCTUALITY_COLOURS, seriesColour } from '../utils/report-colours';
import { formatMinutes, formatPercentValue, formatShare, toPercent } from '../utils/report-format';
import { barChartHeight, chartRows, columnsFor, GroupByControl, groupingOf } from './group-by-control';
import { ChartCard, ReportEmpty, ReportStats, TableCard } from './report-parts';
import { ReportTable } from './report-table';

type Props = { data: PunctualityReport; orgId: string; request: ReportRequest; groupBy: ReportDimension | null; onGroupBy: (d: ReportDimension) => void };

/** Punctuality: early, on time and late arrivals per tenant, site and vehicle type, and how late the late ones were. */
export function PunctualityReportView({ data, orgId, request, groupBy, onGroupBy }: Props) {
  const dimension = groupingOf(PUNCTUALITY_DIMENSIONS, groupBy);
  const total = data.total;
  const stats = [
    { label: 'Arrivals', value: total.arrivals.toLocaleString('en-US') },
    { label: 'On time', value: formatShare(total.onTimeRate) },
    { label: 'Late', value: formatShare(total.lateRate) },
    { label: 'Median lateness', value: formatMinutes(total.medianLateMinutes) },
  ];
  if (total.arrivals === 0) {
    return <ReportEmpty title="No arrivals in this range" hint="No booking was checked in at the gate on these days. Choose a longer range or another site." />;
  }
  const rows = data.rows.filter((r) => r.dimension === dimension);
  const chart = chartRows(rows);
  const dimensionLabel = REPORT_DIMENSION_LABELS[dimension].toLowerCase();
  const shares = chart.rows.map((r) => ({ label: r.label, early: toPercent(r.earlyRate), onTime: toPercent(r.onTimeRate), late: toPercent(r.lateRate) }));
  const buckets = LATE_MINUTE_BUCKETS.map((bucket, i) => ({ bucket: bucket.label, late: total.lateByBucket[i] ?? 0 }));
  const groupSwitch = <GroupByControl dimensions={PUNCTUALITY_DIMENSIONS} value={dimension} onChange={onGroupBy} />;

  return (
    <Stack gap="md">
      <ReportStats stats={stats} testId="punctuality-stats" />
      <ChartCard
        title={`Early, on time and late by ${dimensionLabel}`}
        description={`On time: checked in within ${PUNCTUALITY_WINDOW_MIN} minutes of the booked start, either side. ${chart.note ?? ''}`.trim()}
        controls={groupSwitch}
        testId="punctuality-chart"
      >
        <BarChart
          h={barChartHeight(shares.length)}
          data={shares}
          dataKey="label"
          orientation="vertical"
          type="stacked"
          series={[
            { name: 'early', label: 'Early', color: PUNCTUALITY_COLOURS.early },
            { name: 'onTime', label: 'On time', color: PUNCTUALITY_COLOURS.onTime },
            { name: 'late', label: 'Late', color: PUNCTUALITY_COLOURS.late },
          ]}
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          valueFormatter={formatPercentValue}
          xAxisProps={{ domain: [0, 100] }}
          yAxisProps={{ width: 150 }}
          maxBarWidth={24}
          tooltipAnimationDuration={150}
        />
      </ChartCard>
      <ChartCard
        title="How late the late arrivals were"
        description={`Late arrivals by minutes after the booked start (${total.late} in all; median ${formatMinutes(total.medianLateMinutes)}, 90th percentile ${formatMinutes(total.p90LateMinutes)}).`}
        testId="punctuality-late-chart"
      >
        {total.late === 0 ? (
          <Text size="sm" c="dimmed">
            No arrival was more than {PUNCTUALITY_WINDOW_MIN} minutes late in this range.
          </Text>
        ) : (
          <BarChart
            h={220}
            data={buckets}
            dataKey="bucket"
            series={[{ name: 'late', label: 'Late arrivals', color: seriesColour(1) }]}
            withLegend
            legendProps={{ verticalAlign: 'bottom' }}
            yAxisProps={{ allowDecimals: false, width: 40 }}
            maxBarWidth={48}
            tooltipAnimationDuration={150}
          />
        )}
      </ChartCard>
      <TableCard title={`Per ${dimensionLabel}`} orgId={orgId} kind="punctuality" request={request} groupBy={dimension}>
        <ReportTable caption={`Punctuality per ${dimensionLabel}`} columns={columnsFor(PUNCTUALITY_COLUMNS, dimension)} rows={rows} rowKey={(r) => r.key} testId="punctuality-table" />
      </TableCard>
    </Stack>
  );
}
