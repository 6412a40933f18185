import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Impersonation } from '../../../../domain/auth-schemas';
import { api } from '../../../lib/api-client';
import { useAuth } from '../hooks/use-auth';
import { authKeys } from './get-current-user-role';

export type CurrentUser = {
  user: { id: string; email: string; fullName: string | null; platformRole: string | null; phone: string | null; emailConfirmedAt: string | null };
  role: string | null;
  orgId: string | null;
  siteId: string | null;
  /** Set while a platform user acts as this user. */
  impersonation: Impersonation | null;
  mfa: { enrolled: boolean; required: boolean; enrolmentRequired: boolean };
  memberships: { orgId: string; orgName: string; role: string; active: boolean; employeeId: string | null }[];
};

/** GET /api/auth/user — the signed-in user, role, memberships, impersonation and two-factor state. */
export function getCurrentUser(): Promise<CurrentUser> {
  return api<CurrentUser>('/api/auth/user');
}

export function currentUserQueryOptions(userId: string) {
  return queryOptions({ queryKey: [...authKeys.all, 'user', userId] as const, queryFn: getCurrentUser, retry: false });
}

export function useCurrentUser() {
  const { user } = useAuth();
  return useQuery({ ...currentUserQueryOptions(user?.id ?? 'anonymous'), enabled: !!user });
}
