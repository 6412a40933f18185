import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { publicBookingKeys, publicBookingPaths } from './paths';
import type { PublicOrganization } from './types';

/** Active organizations that accept bookings, ordered by name. */
export function getPublicOrganizations(): Promise<PublicOrganization[]> {
  return api<PublicOrganization[]>(publicBookingPaths.organizations(), { anonymous: true });
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
