import { useMutation } from '@tanstack/react-query';
import { usageCsvFileName, type UsagePeriodDays } from '../../../../domain/usage';
import { fetchApiFile, saveFile, serverFileName } from '../../../lib/api-client';

/**
 * GET /api/platform/usage.csv — every organization's figures and the total as a file. Fetched with
 * the session's token (a plain link could not carry it), then saved through a temporary link.
 */
export async function downloadUsageCsv({ days, orgId }: { days: UsagePeriodDays; orgId?: string }): Promise<string> {
  const response = await fetchApiFile('GET /api/platform/usage.csv', { query: { days, orgId }, failure: 'Could not download the CSV' });
  return saveFile(response, serverFileName(response, usageCsvFileName(days, new Date())));
}

export function useDownloadUsageCsv() {
  return useMutation({ mutationFn: downloadUsageCsv });
}
