import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StandingRequestInput } from '../../../../domain/haulier-accounts';
import { apiCall } from '../../../lib/api-client';
import { haulierAccountKeys } from './paths';

/** The signed-in haulier's standing requests and series on every organization, newest first. */
export const haulierStandingQueryOptions = () =>
  queryOptions({ queryKey: haulierAccountKeys.standing(), queryFn: () => apiCall('GET /api/public/haulier/standing-bookings', { anonymous: true }) });

export function useHaulierStandingBookings(isEnabled = true) {
  return useQuery({ ...haulierStandingQueryOptions(), enabled: isEnabled });
}

export function useRequestStandingBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StandingRequestInput) => apiCall('POST /api/public/haulier/standing-requests', { body, anonymous: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: haulierAccountKeys.standing() }),
  });
}

/** Where a standing booking can be asked for: the public organizations and their active sites. */
export function useStandingPlaces() {
  return useQuery({
    queryKey: haulierAccountKeys.places(),
    queryFn: async () => {
      const [organizations, sites] = await Promise.all([apiCall('GET /api/public/organizations', { anonymous: true }), apiCall('GET /api/public/sites', { anonymous: true })]);
      return { organizations, sites: sites.map((site) => ({ id: site.id, name: site.name, orgId: site.orgId })) };
    },
    staleTime: 5 * 60_000,
  });
}
