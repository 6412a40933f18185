import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** POST /api/rpc/get_current_user_role — the spec's role function: a role string or null. */
export function getCurrentUserRole(): Promise<string | null> {
  return apiCall('POST /api/rpc/get_current_user_role');
}

export const authKeys = {
  all: ['auth'] as const,
  role: (userId: string) => [...authKeys.all, 'role', userId] as const,
};

export function currentUserRoleQueryOptions(userId: string) {
  return queryOptions({
    queryKey: authKeys.role(userId),
    queryFn: async () => (await getCurrentUserRole()) ?? null,
    retry: false,
  });
}
