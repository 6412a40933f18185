import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BookingDetail, BookingTransitionInput } from '../../../../domain/org-bookings';
import { ApiError, apiCall } from '../../../lib/api-client';
import { orgBookingsKey, orgDashboardKeys } from './paths';

export type TransitionBookingVariables = { orgId: string; bookingId: string } & BookingTransitionInput;

/** POST /api/orgs/{orgId}/bookings/{id}/transitions — approve, decline (with a reason)… with the version shown. */
export function transitionBooking({ orgId, bookingId, ...body }: TransitionBookingVariables): Promise<BookingDetail> {
  return apiCall('POST /api/orgs/:orgId/bookings/:bookingId/transitions', { params: { orgId, bookingId }, body });
}

/** Someone else moved the booking first (409 stale_version / illegal_transition): show what it is now. */
export function isStaleBooking(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}

export function useTransitionBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: transitionBooking,
    // Success or refusal, the figures and lists are refetched: they show the booking as it is now.
    onSettled: (_data, _error, { orgId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: orgDashboardKeys.all(orgId) }),
        queryClient.invalidateQueries({ queryKey: orgBookingsKey(orgId) }),
      ]),
  });
}
