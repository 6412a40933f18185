import { Alert, Box, Button, Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useId } from '@mantine/hooks';
import { IconAlertTriangle, IconChartBarOff, IconDownload, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { ReportDimension, ReportKind } from '../../../../domain/reports';
import { StatCard } from '../../../components/ui/stat-card';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useDownloadReportCsv } from '../api/download-report-csv';
import type { ReportRequest } from '../api/paths';

// The building blocks every report is made of: its figures up top, each chart in a card with a
// title and a legend, the table in a card with its Download CSV, and the loading, empty and error
// states in one place.

export type Stat = { label: string; value: string; hint?: string };

/** The headline figures of a report. */
export function ReportStats({ stats, testId }: { stats: Stat[]; testId?: string }) {
  return (
    <SimpleGrid cols={{ base: 2, md: Math.min(4, stats.length) }} spacing="sm" data-testid={testId}>
      {stats.map((stat) => (
        <div key={stat.label} data-stat={stat.label} style={{ display: 'grid' }}>
          <StatCard label={stat.label} value={stat.value} />
        </div>
      ))}
    </SimpleGrid>
  );
}

type ChartCardProps = {
  title: string;
  description?: string;
  /** Switches beside the title (which measure, which grouping). */
  controls?: ReactNode;
  children: ReactNode;
  testId?: string;
};

/** One chart: a figure named by its title, its switches beneath, described for readers who cannot see it. */
export function ChartCard({ title, description, controls, children, testId }: ChartCardProps) {
  const titleId = useId();
  return (
    <Paper withBorder radius="md" p="md" component="figure" m={0} aria-labelledby={titleId} data-testid={testId}>
      <Title order={3} size="h5" id={titleId}>
        {title}
      </Title>
      {description ? (
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      ) : null}
      {controls ? (
        <Group gap="lg" mt="sm" wrap="wrap" align="flex-end">
          {controls}
        </Group>
      ) : null}
      <Box mt="md">{children}</Box>
    </Paper>
  );
}

/** A chart's switch (which measure, which grouping) with its name shown above it, which is also its accessible name. */
export function ChartSwitch<V extends string>({ label, data, value, onChange }: { label: string; data: Array<{ value: V; label: string }>; value: V; onChange: (value: V) => void }) {
  const labelId = useId();
  return (
    <Stack gap={4} align="flex-start">
      <Text size="xs" fw={600} c="dimmed" id={labelId}>
        {label}
      </Text>
      <SegmentedControl size="xs" aria-labelledby={labelId} data={data} value={value} onChange={(next) => onChange(next as V)} />
    </Stack>
  );
}

type TableCardProps = {
  title: string;
  orgId: string;
  kind: ReportKind;
  request: ReportRequest;
  groupBy?: ReportDimension;
  children: ReactNode;
};

/** A report's table with the button that downloads exactly it (the server writes the same columns). */
export function TableCard({ title, orgId, kind, request, groupBy, children }: TableCardProps) {
  const download = useDownloadReportCsv();
  const titleId = useId();
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" align="center" gap="sm" mb="sm">
        <Title order={3} size="h5" id={titleId}>
          {title}
        </Title>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          loading={download.isPending}
          onClick={() =>
            download.mutate(
              { orgId, kind, request, groupBy },
              { onError: (error) => toast.error('Could not download the CSV', errorMessage(error, 'Try again in a moment.')) },
            )
          }
        >
          Download CSV
        </Button>
      </Group>
      {children}
    </Paper>
  );
}

/** While a report loads: the shape of what is coming. */
export function ReportSkeleton({ label }: { label: string }) {
  return (
    <Stack gap="md" aria-busy="true" aria-label={label}>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} height={86} radius="md" />
        ))}
      </SimpleGrid>
      <Skeleton height={300} radius="md" />
      <Stack gap={6}>
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} height={28} radius="sm" />
        ))}
      </Stack>
    </Stack>
  );
}

/** The report could not be computed: the server's message and a way to ask again. */
export function ReportError({ error, onRetry, isRetrying }: { error: unknown; onRetry: () => void; isRetrying: boolean }) {
  return (
    <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} title="Could not load this report">
      <Group justify="space-between" gap="sm">
        <Text size="sm">{errorMessage(error, 'Failed to load the report')}</Text>
        <Button size="xs" variant="white" color="red.9" leftSection={<IconRefresh size={14} aria-hidden />} onClick={onRetry} loading={isRetrying}>
          Try again
        </Button>
      </Group>
    </Alert>
  );
}

/** Nothing to chart in this range (or at this site). */
export function ReportEmpty({ title, hint }: { title: string; hint: string }) {
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap={6} ta="center">
        <IconChartBarOff size={32} aria-hidden color="var(--mantine-color-gray-6)" />
        <Text fw={600}>{title}</Text>
        <Text size="sm" c="dimmed" maw={460}>
          {hint}
        </Text>
      </Stack>
    </Paper>
  );
}

/** Figures being replaced by the new range's or site's: dimmed, and announced as busy. */
export function Refreshing({ isRefreshing, children }: { isRefreshing: boolean; children: ReactNode }) {
  return (
    <Box aria-busy={isRefreshing} style={{ opacity: isRefreshing ? 0.55 : 1, transition: 'opacity 150ms' }}>
      {children}
    </Box>
  );
}
