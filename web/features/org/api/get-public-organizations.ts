import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrganizationOption } from '../../../../domain/contract/public.contract';
import { apiCall } from '../../../lib/api-client';

export type PublicOrganization = OrganizationOption;

/** GET /api/public/organizations — active organizations (id, name) by name, for the login list. */
export function getPublicOrganizations(): Promise<PublicOrganization[]> {
  return apiCall('GET /api/public/organizations', { anonymous: true });
}

export const publicOrganizationsQueryOptions = queryOptions({
  queryKey: ['public', 'organizations'],
  queryFn: getPublicOrganizations,
});

export function usePublicOrganizations() {
  return useQuery(publicOrganizationsQueryOptions);
}
