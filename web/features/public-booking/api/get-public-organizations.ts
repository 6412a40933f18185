import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { publicBookingKeys } from './paths';
import type { PublicOrganization } from './types';

/** Active organizations that accept bookings, ordered by name. */
export function getPublicOrganizations(): Promise<PublicOrganization[]> {
  return apiCall('GET /api/public/organizations', { anonymous: true });
}

export const publicOrganizationsQueryOptions = () =>
  queryOptions({
    queryKey: publicBookingKeys.organizations(),
    queryFn: getPublicOrganizations,
    staleTime: 5 * 60_000,
  });

export function usePublicOrganizations() {
  return useQuery(publicOrganizationsQueryOptions());
}
