import { useMutation } from '@tanstack/react-query';
import { reportCsvFileName, type ReportDimension, type ReportKind } from '../../../../domain/reports';
import { fetchApiFile, saveFile, serverFileName, type ApiFileRoute } from '../../../lib/api-client';
import { reportSearch, type ReportRequest } from './paths';

export type DownloadReportCsvVariables = { orgId: string; kind: ReportKind; request: ReportRequest; groupBy?: ReportDimension };

/** Each report's CSV operation. */
const CSV_ROUTES = {
  utilisation: 'GET /api/orgs/:orgId/reports/utilisation.csv',
  punctuality: 'GET /api/orgs/:orgId/reports/punctuality.csv',
  dwell: 'GET /api/orgs/:orgId/reports/dwell.csv',
  'no-shows': 'GET /api/orgs/:orgId/reports/no-shows.csv',
  volume: 'GET /api/orgs/:orgId/reports/volume.csv',
} as const satisfies Record<ReportKind, ApiFileRoute>;

/**
 * GET /api/orgs/{orgId}/reports/{kind}.csv — the table under the chart as a file. Fetched with the
 * session's token (a plain link could not carry it), then saved through a temporary link.
 */
export async function downloadReportCsv({ orgId, kind, request, groupBy }: DownloadReportCsvVariables): Promise<string> {
  const response = await fetchApiFile(CSV_ROUTES[kind], { params: { orgId }, query: reportSearch(request, groupBy), failure: 'Could not download the CSV' });
  return saveFile(response, serverFileName(response, reportCsvFileName(kind, request)));
}

export function useDownloadReportCsv() {
  return useMutation({ mutationFn: downloadReportCsv });
}
