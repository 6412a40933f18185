import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../lib/api-client';

// The public platform configuration (GET /api/public/platform): the maintenance banner on every
// screen, the platform's name and support contact. Small and cached on the server; every open tab
// asks again each minute, so a banner set now reaches screens already open.

export const publicPlatformKey = ['public', 'platform'] as const;
const REFRESH_MS = 60_000;

export function publicPlatformQueryOptions() {
  return queryOptions({
    queryKey: publicPlatformKey,
    queryFn: () => apiCall('GET /api/public/platform', { anonymous: true }),
    staleTime: REFRESH_MS,
    refetchInterval: REFRESH_MS,
  });
}

export function usePublicPlatformConfig() {
  return useQuery(publicPlatformQueryOptions());
}
