import { BarChart } from '@mantine/charts';
import { Stack } from '@mantine/core';
import { useState } from 'react';
import {
  DWELL_COLUMNS,
  DWELL_DIMENSIONS,
  DWELL_MEASURE_LABELS,
  DWELL_MEASURES,
  DWELL_OVERSTAY_MIN,
  REPORT_DIMENSION_LABELS,
  type DwellMeasure,
  type DwellReport,
  type ReportDimension,
} from '../../../../domain/reports';
import type { ReportRequest } from '../api/paths';
import { seriesColour } from '../utils/report-colours';
import { formatMinutes } from '../utils/report-format';
import { barChartHeight, chartRows, columnsFor, GroupByControl, groupingOf } from './group-by-control';
import { ChartCard, ChartSwitch, ReportEmpty, ReportStats, TableCard } from './report-parts';
import { ReportTable } from './report-table';

const MEASURE_SHORT: Record<DwellMeasure, string> = { gateWait: 'Gate wait', atBay: 'At bay', onSite: 'On site' };
const round = (minutes: number | null) => (minutes === null ? null : Math.round(minutes * 10) / 10);

type Props = { data: DwellReport; orgId: string; request: ReportRequest; groupBy: ReportDimension | null; onGroupBy: (d: ReportDimension) => void };

/** Dwell and turn time: gate wait, time at bay and time on site (median, p90, max) per grouping, and overstays. */
export function DwellReportView({ data, orgId, request, groupBy, onGroupBy }: Props) {
  const [measure, setMeasure] = useState<DwellMeasure>('gateWait');
  const dimension = groupingOf(DWELL_DIMENSIONS, groupBy);
  const total = data.total;
  const stats = [
    { label: 'Visits', value: total.visits.toLocaleString('en-US') },
    { label: 'Median gate wait', value: formatMinutes(total.gateWait.medianMinutes) },
    { label: 'Median time at bay', value: formatMinutes(total.atBay.medianMinutes) },
    { label: 'Overstays', value: total.overstays.toLocaleString('en-US') },
  ];
  if (total.visits === 0) {
    return <ReportEmpty title="No visits in this range" hint="No booking was checked in at the gate on these days. Choose a longer range or another site." />;
  }
  const rows = data.rows.filter((r) => r.dimension === dimension);
  const chart = chartRows(rows);
  const dimensionLabel = REPORT_DIMENSION_LABELS[dimension].toLowerCase();
  const bars = chart.rows.map((r) => ({ label: r.label, median: round(r[measure].medianMinutes), p90: round(r[measure].p90Minutes), max: round(r[measure].maxMinutes) }));

  return (
    <Stack gap="md">
      <ReportStats stats={stats} testId="dwell-stats" />
      <ChartCard
        title={`${MEASURE_SHORT[measure]} by ${dimensionLabel}: median, 90th percentile and longest`}
        description={`${DWELL_MEASURE_LABELS[measure]}, in minutes. An overstay is a vehicle still at its bay ${DWELL_OVERSTAY_MIN} minutes after its booked end. ${chart.note ?? ''}`.trim()}
        controls={
          <>
            <ChartSwitch label="Measure" data={DWELL_MEASURES.map((m) => ({ value: m, label: MEASURE_SHORT[m] }))} value={measure} onChange={setMeasure} />
            <GroupByControl dimensions={DWELL_DIMENSIONS} value={dimension} onChange={onGroupBy} />
          </>
        }
        testId="dwell-chart"
      >
        <BarChart
          h={barChartHeight(bars.length * 1.6)}
          data={bars}
          dataKey="label"
          orientation="vertical"
          series={[
            { name: 'median', label: 'Median', color: seriesColour(0) },
            { name: 'p90', label: '90th percentile', color: seriesColour(4) },
            { name: 'max', label: 'Longest', color: seriesColour(1) },
          ]}
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          valueFormatter={(value) => `${value} min`}
          yAxisProps={{ width: 150 }}
          maxBarWidth={14}
          tooltipAnimationDuration={150}
        />
      </ChartCard>
      <TableCard title={`Per ${dimensionLabel}`} orgId={orgId} kind="dwell" request={request} groupBy={dimension}>
        <ReportTable caption={`Dwell and turn time per ${dimensionLabel} (minutes)`} columns={columnsFor(DWELL_COLUMNS, dimension)} rows={rows} rowKey={(r) => r.key} testId="dwell-table" />
      </TableCard>
    </Stack>
  );
}
