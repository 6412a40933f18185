import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '../../../../domain/contract/auth.contract';
import { apiCall } from '../../../lib/api-client';
import { useAuth } from '../hooks/use-auth';
import { authKeys } from './get-current-user-role';

export type { CurrentUser };

/** GET /api/auth/user — the signed-in user, role, memberships, impersonation and two-factor state. */
export function getCurrentUser(): Promise<CurrentUser> {
  return apiCall('GET /api/auth/user');
}

export function currentUserQueryOptions(userId: string) {
  return queryOptions({ queryKey: [...authKeys.all, 'user', userId] as const, queryFn: getCurrentUser, retry: false });
}

export function useCurrentUser() {
  const { user } = useAuth();
  return useQuery({ ...currentUserQueryOptions(user?.id ?? 'anonymous'), enabled: !!user });
}
