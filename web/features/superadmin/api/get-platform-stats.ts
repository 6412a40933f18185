import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type PlatformStats = {
  organizations: number;
  users: number;
  /** Minutes up over the last 30 days, measured; null until there is history. */
  uptimePercent: number | null;
};

/** GET /api/public/platform-stats — real platform figures for the super-admin login page. */
export function getPlatformStats(): Promise<PlatformStats> {
  return api<PlatformStats>('/api/public/platform-stats', { anonymous: true });
}

export function usePlatformStats() {
  return useQuery({ queryKey: ['public', 'platform-stats'], queryFn: getPlatformStats });
}
