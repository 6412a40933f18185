import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { UsageQuery, UsageReport } from '../../../../domain/usage';
import { apiCall } from '../../../lib/api-client';
import { usageKeys } from './paths';

/** GET /api/platform/usage — totals, per day, a page of organizations and the nearest plan limits (or one organization's). */
export function getUsage(query: UsageQuery): Promise<UsageReport> {
  return apiCall('GET /api/platform/usage', { query });
}

export function usageQueryOptions(query: UsageQuery) {
  return queryOptions({ queryKey: usageKeys.report(query), queryFn: () => getUsage(query) });
}

/** The usage report; the previous figures stay on screen while another period or page loads. */
export function useUsage(query: UsageQuery, options: { enabled?: boolean } = {}) {
  return useQuery({ ...usageQueryOptions(query), placeholderData: keepPreviousData, enabled: options.enabled ?? true });
}
