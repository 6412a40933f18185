import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuthSettings } from '../../../../domain/auth-schemas';
import { apiCall } from '../../../lib/api-client';

/** GET /api/auth/settings — whether anyone may create an account (the platform setting). */
export function getAuthSettings(): Promise<AuthSettings> {
  return apiCall('GET /api/auth/settings', { anonymous: true });
}

export function useAuthSettings() {
  return useQuery(queryOptions({ queryKey: ['auth', 'settings'], queryFn: getAuthSettings, staleTime: 60_000 }));
}
