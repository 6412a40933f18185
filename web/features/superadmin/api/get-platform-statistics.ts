import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PlatformStats, StatsPeriodDays } from '../../../../domain/platform-admin';
import { apiCall } from '../../../lib/api-client';
import { platformKeys } from './paths';

/** GET /api/platform/stats?days — spec §7 "Platform statistics" for the 7- or 30-day period. */
export function getPlatformStatistics(days: StatsPeriodDays): Promise<PlatformStats> {
  return apiCall('GET /api/platform/stats', { query: { days } });
}

export function platformStatisticsQueryOptions(days: StatsPeriodDays) {
  return queryOptions({ queryKey: platformKeys.stats(days), queryFn: () => getPlatformStatistics(days) });
}

/** The previous period's figures stay on screen while the other period loads. */
export function usePlatformStatistics(days: StatsPeriodDays) {
  return useQuery({ ...platformStatisticsQueryOptions(days), placeholderData: keepPreviousData });
}
