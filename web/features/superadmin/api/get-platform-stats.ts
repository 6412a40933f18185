import { useQuery } from '@tanstack/react-query';
import type { PublicPlatformStats } from '../../../../domain/contract/public.contract';
import { apiCall } from '../../../lib/api-client';

export type PlatformStats = PublicPlatformStats;

/** GET /api/public/platform-stats — real platform figures for the super-admin login page. */
export function getPlatformStats(): Promise<PlatformStats> {
  return apiCall('GET /api/public/platform-stats', { anonymous: true });
}

export function usePlatformStats() {
  return useQuery({ queryKey: ['public', 'platform-stats'], queryFn: getPlatformStats });
}
