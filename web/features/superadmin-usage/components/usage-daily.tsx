import { BarChart } from '@mantine/charts';
import { Group, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useId } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { USAGE_SOURCE_LABELS, USAGE_SOURCES, type UsageDay } from '../../../../domain/usage';
import { formatCount } from '../../../lib/format';
import { formatAxisDay, formatLongDay, measureColour, sourceColour } from '../utils/usage-format';

// Per UTC day: bookings created by source (stacked), and one activity measure at a time (sign-ins,
// API calls, webhook calls: their scales differ too much to share an axis). Each chart has a table
// of the same figures behind its Chart / Table switch.

type Measure = 'signIns' | 'apiCalls' | 'webhookCalls';
const MEASURES: Array<{ value: Measure; label: string }> = [
  { value: 'signIns', label: 'Sign-ins' },
  { value: 'apiCalls', label: 'API calls' },
  { value: 'webhookCalls', label: 'Webhook calls' },
];
const SOURCE_SERIES = USAGE_SOURCES.map((source) => ({ name: source, label: USAGE_SOURCE_LABELS[source], color: sourceColour(source) }));

function ViewSwitch({ value, onChange, label }: { value: 'chart' | 'table'; onChange: (value: 'chart' | 'table') => void; label: string }) {
  return (
    <SegmentedControl
      size="xs"
      aria-label={label}
      data={[
        { value: 'chart', label: 'Chart' },
        { value: 'table', label: 'Table' },
      ]}
      value={value}
      onChange={(next) => onChange(next as 'chart' | 'table')}
    />
  );
}

function ChartPanel({ title, description, controls, children, testId }: { title: string; description: string; controls: ReactNode; children: ReactNode; testId: string }) {
  const titleId = useId();
  return (
    <Paper withBorder radius="md" p="md" component="figure" m={0} aria-labelledby={titleId} data-testid={testId}>
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <div>
          <Title order={3} size="h5" id={titleId}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </div>
        <Group gap="sm" wrap="wrap">
          {controls}
        </Group>
      </Group>
      <Stack mt="md">{children}</Stack>
    </Paper>
  );
}

const numberCell = { textAlign: 'right' as const, fontVariantNumeric: 'tabular-nums' };

export function UsageDaily({ days }: { days: UsageDay[] }) {
  const [bookingsView, setBookingsView] = useState<'chart' | 'table'>('chart');
  const [activityView, setActivityView] = useState<'chart' | 'table'>('chart');
  const [measure, setMeasure] = useState<Measure>('signIns');
  const measureLabel = MEASURES.find((m) => m.value === measure)!.label;
  const bookingsData = days.map((d) => ({ date: formatAxisDay(d.date), ...d.bookingsBySource }));
  const activityData = days.map((d) => ({ date: formatAxisDay(d.date), [measure]: d[measure] }));
  const maxBarWidth = days.length > 40 ? 8 : 28;

  return (
    <Stack gap="md">
      <ChartPanel
        title="Bookings created per day, by source"
        description="Bookings by the day they were made (UTC): the booking portal, admin screens, gate walk-ins, carrier systems, other."
        controls={<ViewSwitch label="Show bookings per day as" value={bookingsView} onChange={setBookingsView} />}
        testId="usage-bookings-per-day"
      >
        {bookingsView === 'chart' ? (
          <BarChart
            h={280}
            data={bookingsData}
            dataKey="date"
            type="stacked"
            series={SOURCE_SERIES}
            withLegend
            legendProps={{ verticalAlign: 'bottom' }}
            yAxisProps={{ allowDecimals: false, width: 40 }}
            maxBarWidth={maxBarWidth}
            tooltipAnimationDuration={150}
          />
        ) : (
          <Table.ScrollContainer minWidth={640} mah={420}>
            <Table striped stickyHeader aria-label="Bookings created per day, by source" data-testid="usage-bookings-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Day</Table.Th>
                  <Table.Th style={numberCell}>Bookings</Table.Th>
                  {USAGE_SOURCES.map((s) => (
                    <Table.Th key={s} style={numberCell}>
                      {USAGE_SOURCE_LABELS[s]}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {days.map((d) => (
                  <Table.Tr key={d.date}>
                    <Table.Td>{formatLongDay(d.date)}</Table.Td>
                    <Table.Td style={numberCell}>{formatCount(d.bookingsCreated)}</Table.Td>
                    {USAGE_SOURCES.map((s) => (
                      <Table.Td key={s} style={numberCell}>
                        {formatCount(d.bookingsBySource[s])}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </ChartPanel>

      <ChartPanel
        title={`${measureLabel} per day`}
        description="Sign-ins (impersonations left out), API calls to organization and gate routes, accepted camera reads; per UTC day."
        controls={
          <>
            <SegmentedControl size="xs" aria-label="Activity measure" data={MEASURES} value={measure} onChange={(value) => setMeasure(value as Measure)} />
            <ViewSwitch label="Show activity per day as" value={activityView} onChange={setActivityView} />
          </>
        }
        testId="usage-activity-per-day"
      >
        {activityView === 'chart' ? (
          <BarChart
            h={240}
            data={activityData}
            dataKey="date"
            series={[{ name: measure, label: measureLabel, color: measureColour(MEASURES.findIndex((m) => m.value === measure)) }]}
            withLegend
            legendProps={{ verticalAlign: 'bottom' }}
            yAxisProps={{ allowDecimals: false, width: 48 }}
            maxBarWidth={maxBarWidth}
            tooltipAnimationDuration={150}
          />
        ) : (
          <Table.ScrollContainer minWidth={480} mah={420}>
            <Table striped stickyHeader aria-label="Activity per day" data-testid="usage-activity-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Day</Table.Th>
                  {MEASURES.map((m) => (
                    <Table.Th key={m.value} style={numberCell}>
                      {m.label}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {days.map((d) => (
                  <Table.Tr key={d.date}>
                    <Table.Td>{formatLongDay(d.date)}</Table.Td>
                    {MEASURES.map((m) => (
                      <Table.Td key={m.value} style={numberCell}>
                        {formatCount(d[m.value])}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </ChartPanel>
    </Stack>
  );
}
