import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { HaulierBookingScope } from '../../../../domain/haulier-accounts';
import { apiCall } from '../../../lib/api-client';
import { haulierAccountKeys } from './paths';

export function getHaulierBookings(scope: HaulierBookingScope, page: number) {
  return apiCall('GET /api/public/haulier/bookings', { query: { scope, page }, anonymous: true });
}

export const haulierBookingsQueryOptions = (scope: HaulierBookingScope, page: number) =>
  queryOptions({ queryKey: haulierAccountKeys.bookings(scope, page), queryFn: () => getHaulierBookings(scope, page), placeholderData: keepPreviousData });

export function useHaulierBookings(scope: HaulierBookingScope, page: number) {
  return useQuery(haulierBookingsQueryOptions(scope, page));
}
