import { LineChart } from '@mantine/charts';
import { Stack } from '@mantine/core';
import { useState } from 'react';
import { formatDay } from '../../../../domain/day-notice';
import { datesInRange } from '../../../../domain/org-schedule';
import { UTILISATION_COLUMNS, type UtilisationFigures, type UtilisationReport } from '../../../../domain/reports';
import type { ReportRequest } from '../api/paths';
import { seriesColour } from '../utils/report-colours';
import { formatAxisDay, formatHours, formatPercentValue, formatShare, niceTicks, toPercent } from '../utils/report-format';
import { HeatGrid, type HeatAxisItem } from './heat-grid';
import { ChartCard, ChartSwitch, ReportEmpty, ReportStats, TableCard } from './report-parts';
import { ReportTable } from './report-table';

type Measure = 'booked' | 'occupied';
const MEASURES: Array<{ value: Measure; label: string }> = [
  { value: 'booked', label: 'Booked' },
  { value: 'occupied', label: 'Occupied' },
];

const SCALE_TOPS = [0.1, 0.2, 0.25, 0.5, 0.75, 1];
const rateOf = (figures: UtilisationFigures, measure: Measure) => (measure === 'booked' ? figures.bookedRate : figures.occupiedRate);

function describe(figures: UtilisationFigures): string {
  if (figures.openMinutes === 0) return 'closed';
  return `booked ${formatShare(figures.bookedRate)} (${formatHours(figures.bookedMinutes)}), occupied ${formatShare(figures.occupiedRate)} (${formatHours(figures.occupiedMinutes)}) of ${formatHours(figures.openMinutes)} open`;
}

/** Labels every day of a month-long range; longer ranges every few days, so the header stays legible. */
function dayColumns(from: string, to: string): HeatAxisItem[] {
  const dates = datesInRange(from, to);
  const every = Math.max(1, Math.ceil(dates.length / 31));
  return dates.map((date, i) => ({ key: date, label: i % every === 0 ? String(Number(date.slice(8))) : '', full: formatDay(date, true) }));
}

type Props = { data: UtilisationReport; orgId: string; request: ReportRequest };

/** Bay utilisation: booked and occupied hours over open hours, per bay and day (heat map) and per site over time (lines). */
export function UtilisationReportView({ data, orgId, request }: Props) {
  const [measure, setMeasure] = useState<Measure>('booked');
  const measureLabel = measure === 'booked' ? 'Booked' : 'Occupied';
  const total = data.total;
  const stats = [
    { label: 'Open hours', value: formatHours(total.openMinutes) },
    { label: 'Booked', value: formatShare(total.bookedRate) },
    { label: 'Occupied', value: formatShare(total.occupiedRate) },
    { label: 'Bays', value: String(data.bays.length) },
  ];

  if (total.bookedMinutes === 0 && total.occupiedMinutes === 0) {
    return (
      <Stack gap="md">
        <ReportStats stats={stats} testId="utilisation-stats" />
        <ReportEmpty
          title="No bookings in this range"
          hint={total.openMinutes === 0 ? 'The bays were not open on these days.' : 'No bay was booked on these days. Choose a longer range or another site.'}
        />
      </Stack>
    );
  }

  // The scale tops out at the busiest cell (rounded up), so a quiet month still shows its pattern.
  const busiest = Math.max(0, ...data.cells.map((c) => rateOf(c, measure) ?? 0));
  const scaleTop = SCALE_TOPS.find((top) => busiest <= top) ?? 1;
  const cells = new Map(data.cells.map((c) => [`${c.bayId}|${c.date}`, c]));
  const columns = dayColumns(data.range.from, data.range.to);
  const manySites = data.sites.length > 1;
  // A bay deactivated since keeps its history, marked as such.
  const bayLabel = (bay: UtilisationReport['bays'][number]) => (bay.isActive ? bay.bayName : `${bay.bayName} (inactive)`);
  const rows: HeatAxisItem[] = data.bays.map((bay) => ({ key: bay.bayId, label: bayLabel(bay), full: manySites ? `${bay.siteName}, ${bayLabel(bay)}` : bayLabel(bay) }));
  const bayNames = new Map(rows.map((r) => [r.key, r.full]));

  const siteKeys = data.sites.map((site, i) => ({ site, key: `site${i}` }));
  const siteDays = new Map(data.siteDays.map((d) => [`${d.siteId}|${d.date}`, d]));
  const lineData = datesInRange(data.range.from, data.range.to).map((date) => {
    const point: Record<string, string | number | null> = { date: formatAxisDay(date) };
    for (const { site, key } of siteKeys) {
      const figures = siteDays.get(`${site.id}|${date}`);
      point[key] = figures ? toPercent(rateOf(figures, measure)) : null;
    }
    return point;
  });

  const lineTicks = niceTicks(Math.max(0, ...lineData.flatMap((point) => siteKeys.map(({ key }) => Number(point[key] ?? 0)))));
  const measureSwitch = (
    <ChartSwitch label="Measure" data={MEASURES} value={measure} onChange={setMeasure} />
  );

  return (
    <Stack gap="md">
      <ReportStats stats={stats} testId="utilisation-stats" />
      {/* One switch for both charts: the heat map and the lines always show the same measure. */}
      {measureSwitch}
      <ChartCard
        title={`${measureLabel} share of open hours, per bay and day`}
        description={`Darker is busier (the scale runs to ${Math.round(scaleTop * 100)}%). Hover a day for its hours; hatched days were closed.`}
        testId="utilisation-heatmap"
      >
        <HeatGrid
          caption={`${measureLabel} share of open hours per bay and day`}
          rowHeader="Bay"
          rows={rows}
          columns={columns}
          max={scaleTop}
          minCellWidth={columns.length > 62 ? 8 : 16}
          cellHeight={20}
          formatBound={(v) => `${Math.round(v * 100)}%`}
          withClosedInLegend
          cell={(bayId, date) => {
            const figures = cells.get(`${bayId}|${date}`);
            const where = `${bayNames.get(bayId)}, ${formatDay(date, true)}`;
            if (!figures) return { value: 0, description: `${where}: no figures` };
            return { value: rateOf(figures, measure) ?? 0, isClosed: figures.openMinutes === 0, description: `${where}: ${describe(figures)}` };
          }}
        />
      </ChartCard>
      <ChartCard
        title={`${measureLabel} share of open hours, per site over time`}
        description="Each site's bays together, day by day (site-local days)."
        testId="utilisation-line"
      >
        <LineChart
          h={280}
          data={lineData}
          dataKey="date"
          series={siteKeys.map(({ site, key }, i) => ({ name: key, label: site.name, color: seriesColour(i) }))}
          curveType="linear"
          connectNulls
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          valueFormatter={formatPercentValue}
          yAxisProps={{ domain: [0, lineTicks[lineTicks.length - 1]!], ticks: lineTicks, width: 48 }}
          withDots={lineData.length <= 31}
          tooltipAnimationDuration={150}
        />
      </ChartCard>
      <TableCard title="Per bay over the range" orgId={orgId} kind="utilisation" request={request}>
        <ReportTable caption="Bay utilisation per bay" columns={UTILISATION_COLUMNS} rows={data.bays} rowKey={(bay) => bay.bayId} testId="utilisation-table" />
      </TableCard>
    </Stack>
  );
}
