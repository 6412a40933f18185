import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiCall } from '../../../lib/api-client';
import { publicBookingKeys } from './paths';
import type { ManagedBooking } from './types';

/** The booking behind a private manage link. */
export function getManagedBooking(token: string): Promise<ManagedBooking> {
  return apiCall('GET /api/public/manage/:token', { params: { token }, anonymous: true });
}

export const managedBookingQueryOptions = (token: string) =>
  queryOptions({
    queryKey: publicBookingKeys.managedBooking(token),
    queryFn: () => getManagedBooking(token),
    // An unknown or expired link will not become valid by asking again.
    retry: (failureCount, error) => !(error instanceof ApiError && error.status === 404) && failureCount < 1,
  });

export function useManagedBooking(token: string) {
  return useQuery(managedBookingQueryOptions(token));
}
