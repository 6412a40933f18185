import { useMutation } from '@tanstack/react-query';
import { usageCsvFileName, type UsagePeriodDays } from '../../../../domain/usage';
import { ApiError, currentAccessToken } from '../../../lib/api-client';
import { usagePaths } from './paths';

/** The file name the server gives in Content-Disposition, else the contract's name for it. */
function fileNameOf(response: Response, fallback: string): string {
  const match = /filename="?([^";]+)"?/i.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? fallback;
}

/**
 * GET /api/platform/usage.csv — every organization's figures and the total as a file. Fetched with
 * the session's token (a plain link could not carry it), then saved through a temporary link.
 */
export async function downloadUsageCsv({ days, orgId }: { days: UsagePeriodDays; orgId?: string }): Promise<string> {
  const token = currentAccessToken();
  let response: Response;
  try {
    response = await fetch(usagePaths.csv(days, orgId), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    throw new ApiError(response.status, body?.error?.code ?? 'download_failed', body?.error?.message ?? `Could not download the CSV (${response.status})`);
  }
  const fileName = fileNameOf(response, usageCsvFileName(days, new Date()));
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

export function useDownloadUsageCsv() {
  return useMutation({ mutationFn: downloadUsageCsv });
}
