import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { REPORT_TITLES, type ReportKind } from '../../../../domain/reports';
import { useReport, type ReportData } from '../api/get-report';
import type { ReportRequest } from '../api/paths';
import { Refreshing, ReportEmpty, ReportError, ReportSkeleton } from './report-parts';

type ReportPanelProps<K extends ReportKind> = {
  kind: K;
  orgId: string | null;
  /** Null while the figures cannot be asked for (options loading, or a custom range the schema refuses). */
  request: ReportRequest | null;
  /** Why the range cannot be asked for, if that is why `request` is null. */
  rangeError: string | null;
  description: string;
  children: (data: ReportData[K], request: ReportRequest) => ReactNode;
};

/** One report's tab: its title, then its figures, or why there are none yet. */
export function ReportPanel<K extends ReportKind>({ kind, orgId, request, rangeError, description, children }: ReportPanelProps<K>) {
  const report = useReport(orgId, kind, request);
  let body: ReactNode;
  if (rangeError) {
    body = <ReportEmpty title="Choose a valid date range" hint={rangeError} />;
  } else if (!request || report.isPending) {
    body = <ReportSkeleton label={`Loading ${REPORT_TITLES[kind].toLowerCase()}`} />;
  } else if (report.isError && !report.data) {
    body = <ReportError error={report.error} onRetry={() => void report.refetch()} isRetrying={report.isFetching} />;
  } else if (report.data) {
    body = (
      <Stack gap="md">
        {report.isError ? <ReportError error={report.error} onRetry={() => void report.refetch()} isRetrying={report.isFetching} /> : null}
        <Refreshing isRefreshing={report.isPlaceholderData}>{children(report.data, request)}</Refreshing>
      </Stack>
    );
  }
  return (
    <Stack gap="md" pt="md" data-testid={`report-${kind}`}>
      <div>
        <Title order={2} size="h3">
          {REPORT_TITLES[kind]}
        </Title>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      </div>
      {body}
    </Stack>
  );
}
