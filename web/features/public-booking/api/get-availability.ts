import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AvailabilityQueryInput } from '../../../../domain/availability-query';
import { apiCall } from '../../../lib/api-client';
import { publicBookingKeys } from './paths';
import type { Availability } from './types';

/** The vehicle and the day ('YYYY-MM-DD' in the site's calendar) at an organization. */
export type AvailabilityRequest = AvailabilityQueryInput;

/** The day's slot grid for a vehicle at an organization. */
export function getAvailability(request: AvailabilityRequest, signal?: AbortSignal): Promise<Availability> {
  return apiCall('POST /api/public/availability', {
    body: request,
    anonymous: true,
    signal,
  });
}

export const availabilityQueryOptions = (request: AvailabilityRequest | null) =>
  queryOptions({
    queryKey: [...publicBookingKeys.availability(), request] as const,
    queryFn: ({ signal }) => getAvailability(request!, signal),
    enabled: request !== null,
    // Availability changes as others book: never serve it stale for long.
    staleTime: 15_000,
    placeholderData: keepPreviousData,
  });

export function useAvailability(request: AvailabilityRequest | null) {
  return useQuery(availabilityQueryOptions(request));
}
