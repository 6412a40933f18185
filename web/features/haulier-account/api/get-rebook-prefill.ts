import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiCall } from '../../../lib/api-client';
import { haulierAccountKeys } from './paths';

/** The request form's values from one of the signed-in haulier's bookings (all but date and slot). */
export function getRebookPrefill(bookingId: string) {
  return apiCall('GET /api/public/haulier/bookings/:id/rebook', { params: { id: bookingId }, anonymous: true });
}

export const rebookPrefillQueryOptions = (bookingId: string) =>
  queryOptions({
    queryKey: haulierAccountKeys.rebook(bookingId),
    queryFn: () => getRebookPrefill(bookingId),
    retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 1,
  });

/** Off (no request) without a booking id. */
export function useRebookPrefill(bookingId: string | null) {
  return useQuery({ ...rebookPrefillQueryOptions(bookingId ?? ''), enabled: !!bookingId });
}
