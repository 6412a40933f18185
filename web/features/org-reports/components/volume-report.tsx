import { BarChart } from '@mantine/charts';
import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { formatDay } from '../../../../domain/day-notice';
import { BOOKING_TYPE_LABELS, BOOKING_TYPES, WEEKDAYS, type Weekday } from '../../../../domain/enums';
import { VOLUME_COLUMNS, VOLUME_SOURCE_LABELS, VOLUME_SOURCES, type VolumeReport } from '../../../../domain/reports';
import type { ReportRequest } from '../api/paths';
import { seriesColour } from '../utils/report-colours';
import { formatAxisDay } from '../utils/report-format';
import { HeatGrid } from './heat-grid';
import { ChartCard, ChartSwitch, ReportEmpty, ReportStats, TableCard } from './report-parts';
import { ReportTable } from './report-table';

type Split = 'type' | 'source';
const WEEKDAY_NAMES: Record<Weekday, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };
const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

const TYPE_SERIES = BOOKING_TYPES.map((type, i) => ({ name: type, label: BOOKING_TYPE_LABELS[type] === 'Both' ? 'Delivery and pickup' : BOOKING_TYPE_LABELS[type], color: seriesColour(i) }));
const SOURCE_SERIES = VOLUME_SOURCES.map((source, i) => ({ name: source, label: VOLUME_SOURCE_LABELS[source], color: seriesColour(i) }));

type Props = { data: VolumeReport; orgId: string; request: ReportRequest };

/** Volume: bookings per day by booking type or source, and per weekday and hour of their start (to staff the dock). */
export function VolumeReportView({ data, orgId, request }: Props) {
  const [split, setSplit] = useState<Split>('type');
  const total = data.total;
  if (total.bookings === 0) {
    return <ReportEmpty title="No bookings in this range" hint="No booking started on these days. Choose a longer range or another site." />;
  }
  const busiestDay = data.days.reduce((best, d) => (d.bookings > best.bookings ? d : best), data.days[0]!);
  const busiestHour = data.weekdayHours.reduce((best, c) => (c.bookings > best.bookings ? c : best), data.weekdayHours[0]!);
  const stats = [
    { label: 'Bookings', value: total.bookings.toLocaleString('en-US') },
    { label: 'Per day', value: (total.bookings / Math.max(1, data.range.days)).toFixed(1) },
    { label: 'Busiest day', value: `${formatDay(busiestDay.date).slice(4)} (${busiestDay.bookings})` },
    { label: 'Busiest hour', value: `${WEEKDAY_NAMES[busiestHour.weekday].slice(0, 3)} ${hourLabel(busiestHour.hour)}` },
  ];

  const perDay = data.days.map((d) => ({ date: formatAxisDay(d.date), ...(split === 'type' ? d.byType : d.bySource) }));
  const cells = new Map(data.weekdayHours.map((c) => [`${c.weekday}|${c.hour}`, c.bookings]));
  const maxCell = Math.max(1, ...data.weekdayHours.map((c) => c.bookings));
  const byType = TYPE_SERIES.map((s) => ({ name: s.label, bookings: total.byType[s.name] }));
  const bySource = SOURCE_SERIES.map((s) => ({ name: s.label, bookings: total.bySource[s.name] }));

  return (
    <Stack gap="md">
      <ReportStats stats={stats} testId="volume-stats" />
      <ChartCard
        title={`Bookings per day, by ${split === 'type' ? 'booking type' : 'source'}`}
        description="Bookings starting each site-local day (declined and cancelled ones left out)."
        controls={
          <ChartSwitch
            label="Split by"
            data={[
              { value: 'type' as const, label: 'Booking type' },
              { value: 'source' as const, label: 'Source' },
            ]}
            value={split}
            onChange={setSplit}
          />
        }
        testId="volume-per-day"
      >
        <BarChart
          h={280}
          data={perDay}
          dataKey="date"
          type="stacked"
          series={split === 'type' ? TYPE_SERIES : SOURCE_SERIES}
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          yAxisProps={{ allowDecimals: false, width: 40 }}
          maxBarWidth={28}
          tooltipAnimationDuration={150}
        />
      </ChartCard>
      <ChartCard
        title="Bookings by weekday and hour"
        description="When bookings start, by the site's local weekday and hour: where the dock needs its people."
        testId="volume-heatmap"
      >
        <HeatGrid
          caption="Bookings by weekday and hour of their start"
          rowHeader="Weekday"
          rows={WEEKDAYS.map((day) => ({ key: day, label: WEEKDAY_NAMES[day].slice(0, 3), full: WEEKDAY_NAMES[day] }))}
          columns={Array.from({ length: 24 }, (_, hour) => ({ key: String(hour), label: String(hour).padStart(2, '0'), full: `${hourLabel(hour)}–${hourLabel((hour + 1) % 24)}` }))}
          max={maxCell}
          minCellWidth={24}
          cellHeight={26}
          formatBound={(v) => String(Math.round(v))}
          cell={(day, hour) => {
            const count = cells.get(`${day}|${hour}`) ?? 0;
            return { value: count, text: count ? String(count) : '', description: `${WEEKDAY_NAMES[day as Weekday]} ${hourLabel(Number(hour))}: ${plural(count, 'booking')}` };
          }}
        />
      </ChartCard>
      <ChartCard title="Totals by booking type and by source" description="Where bookings come from: the booking portal, the admin screens, the gate (walk-ins) or a carrier's system." testId="volume-totals">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {[
            { title: 'By booking type', data: byType, color: seriesColour(0) },
            { title: 'By source', data: bySource, color: seriesColour(2) },
          ].map((part) => (
            <div key={part.title}>
              <Text size="sm" fw={600} mb={4}>
                {part.title}
              </Text>
              <BarChart
                h={barHeight(part.data.length)}
                data={part.data}
                dataKey="name"
                orientation="vertical"
                series={[{ name: 'bookings', label: 'Bookings', color: part.color }]}
                withLegend
                legendProps={{ verticalAlign: 'bottom' }}
                yAxisProps={{ width: 130 }}
                xAxisProps={{ allowDecimals: false }}
                maxBarWidth={20}
                tooltipAnimationDuration={150}
              />
            </div>
          ))}
        </SimpleGrid>
      </ChartCard>
      <TableCard title="Per day" orgId={orgId} kind="volume" request={request}>
        <ReportTable caption="Bookings per day" columns={VOLUME_COLUMNS} rows={data.days} rowKey={(d) => d.date} testId="volume-table" />
      </TableCard>
    </Stack>
  );
}

const barHeight = (n: number) => 60 + n * 32;
