import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { publicBookingKeys } from './paths';
import type { BookingInfo } from './types';

/** Sites, operating hours and contacts of every organization that accepts bookings. */
export function getBookingInfo(): Promise<BookingInfo> {
  return apiCall('GET /api/public/booking-info', { anonymous: true });
}

export const bookingInfoQueryOptions = () =>
  queryOptions({
    queryKey: publicBookingKeys.bookingInfo(),
    queryFn: getBookingInfo,
    staleTime: 5 * 60_000,
  });

export function useBookingInfo() {
  return useQuery(bookingInfoQueryOptions());
}
