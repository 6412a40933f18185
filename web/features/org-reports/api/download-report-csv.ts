import { useMutation } from '@tanstack/react-query';
import { reportCsvFileName, type ReportDimension, type ReportKind } from '../../../../domain/reports';
import { ApiError, currentAccessToken } from '../../../lib/api-client';
import { orgReportPaths, type ReportRequest } from './paths';

export type DownloadReportCsvVariables = { orgId: string; kind: ReportKind; request: ReportRequest; groupBy?: ReportDimension };

/** The file name the server gives in Content-Disposition, else the contract's name for it. */
function fileNameOf(response: Response, fallback: string): string {
  const match = /filename="?([^";]+)"?/i.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? fallback;
}

/**
 * GET /api/orgs/{orgId}/reports/{kind}.csv — the table under the chart as a file. Fetched with the
 * session's token (a plain link could not carry it), then saved through a temporary link.
 */
export async function downloadReportCsv({ orgId, kind, request, groupBy }: DownloadReportCsvVariables): Promise<string> {
  const token = currentAccessToken();
  let response: Response;
  try {
    response = await fetch(orgReportPaths.csv(orgId, kind, request, groupBy), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    throw new ApiError(response.status, body?.error?.code ?? 'download_failed', body?.error?.message ?? `Could not download the CSV (${response.status})`);
  }
  const fileName = fileNameOf(response, reportCsvFileName(kind, request));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
}

export function useDownloadReportCsv() {
  return useMutation({ mutationFn: downloadReportCsv });
}
