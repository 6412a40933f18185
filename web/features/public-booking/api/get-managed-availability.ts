import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { publicBookingKeys } from './paths';
import type { Availability } from './types';

/** The day's grid for moving a booking: its own vehicle and duration, its own bay time ignored. */
export function getManagedAvailability(token: string, date: string, signal?: AbortSignal): Promise<Availability> {
  return apiCall('POST /api/public/manage/:token/availability', {
    params: { token },
    body: { date },
    anonymous: true,
    signal,
  });
}

export const managedAvailabilityQueryOptions = (token: string, date: string | null) =>
  queryOptions({
    queryKey: [...publicBookingKeys.managedAvailability(token), date] as const,
    queryFn: ({ signal }) => getManagedAvailability(token, date!, signal),
    enabled: date !== null,
    staleTime: 15_000,
    placeholderData: keepPreviousData,
  });

export function useManagedAvailability(token: string, date: string | null) {
  return useQuery(managedAvailabilityQueryOptions(token, date));
}
