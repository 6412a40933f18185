import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecentActivity } from '../../../../domain/platform-admin';
import { apiCall } from '../../../lib/api-client';
import { platformKeys } from './paths';

/** GET /api/platform/recent-activity — the latest audit entries, newest first, with the organization's name. */
export function getRecentActivity(limit: number): Promise<RecentActivity> {
  return apiCall('GET /api/platform/recent-activity', { query: { limit } });
}

export function recentActivityQueryOptions(limit: number) {
  return queryOptions({ queryKey: platformKeys.recentActivity(limit), queryFn: () => getRecentActivity(limit) });
}

export function useRecentActivity(limit: number) {
  return useQuery(recentActivityQueryOptions(limit));
}
