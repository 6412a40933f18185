import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { publicBookingKeys, publicBookingPaths } from './paths';
import type { Availability } from './types';

export type AvailabilityRequest = {
  orgId: string;
  /** 'YYYY-MM-DD' in the site's calendar. */
  date: string;
  durationMin: number;
  vehicleHeightM?: number;
  vehicleLengthM?: number;
  vehicleType?: string;
  specialAccessNeeds?: string[];
};

/** The day's slot grid for a vehicle at an organization. */
export function getAvailability(request: AvailabilityRequest, signal?: AbortSignal): Promise<Availability> {
  return api<Availability>(publicBookingPaths.availability(), {
    method: 'POST',
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
