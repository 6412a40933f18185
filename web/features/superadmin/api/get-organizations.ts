import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OrganizationList, OrganizationListQuery } from '../../../../domain/platform-admin';
import { apiCall } from '../../../lib/api-client';
import { platformKeys } from './paths';

/** GET /api/platform/organizations — newest first, with plan, active sites and bays (spec §7 "Organization list"). */
export function getOrganizations(query: OrganizationListQuery): Promise<OrganizationList> {
  return apiCall('GET /api/platform/organizations', { query });
}

export function organizationsQueryOptions(query: OrganizationListQuery) {
  return queryOptions({ queryKey: platformKeys.organizationList(query), queryFn: () => getOrganizations(query) });
}

export function useOrganizations(query: OrganizationListQuery) {
  return useQuery({ ...organizationsQueryOptions(query), placeholderData: keepPreviousData });
}
