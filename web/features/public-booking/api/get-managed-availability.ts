import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { publicBookingKeys, publicBookingPaths } from './paths';
import type { Availability } from './types';

/** The day's grid for moving a booking: its own vehicle and duration, its own bay time ignored. */
export function getManagedAvailability(token: string, date: string, signal?: AbortSignal): Promise<Availability> {
  return api<Availability>(publicBookingPaths.managedAvailability(token), {
    method: 'POST',
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
