import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OrganizationList, OrganizationListQuery } from '../../../../domain/platform-admin';
import { api } from '../../../lib/api-client';
import { platformKeys, platformPaths } from './paths';

/** GET /api/platform/organizations — newest first, with plan, active sites and bays (spec §7 "Organization list"). */
export function getOrganizations(query: OrganizationListQuery): Promise<OrganizationList> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return api<OrganizationList>(search ? `${platformPaths.organizations}?${search}` : platformPaths.organizations);
}

export function organizationsQueryOptions(query: OrganizationListQuery) {
  return queryOptions({ queryKey: platformKeys.organizationList(query), queryFn: () => getOrganizations(query) });
}

export function useOrganizations(query: OrganizationListQuery) {
  return useQuery({ ...organizationsQueryOptions(query), placeholderData: keepPreviousData });
}
