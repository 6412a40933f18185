import { queryOptions } from '@tanstack/react-query';
import type { MyOrganization } from '../../../../domain/contract/organizations.contract';
import { apiCall } from '../../../lib/api-client';

export type { MyOrganization };

/**
 * GET /api/me/organizations — spec §6/§7: active organizations in which the user holds an active
 * membership, ordered by name. Filtered and sorted again here so the selector never shows others.
 */
export async function getMyOrganizations(): Promise<MyOrganization[]> {
  const organizations = await apiCall('GET /api/me/organizations');
  return organizations
    .filter((org) => org.active !== false)
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const orgKeys = {
  myOrganizations: (userId: string) => ['me', userId, 'organizations'] as const,
  sites: (orgId: string) => ['orgs', orgId, 'sites'] as const,
};

export function myOrganizationsQueryOptions(userId: string) {
  return queryOptions({ queryKey: orgKeys.myOrganizations(userId), queryFn: getMyOrganizations });
}
