import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BookingDetail, BookingRescheduleInput } from '../../../../domain/org-bookings';
import { apiCall } from '../../../lib/api-client';

// POST /api/orgs/:orgId/bookings/:id/reschedule — another time and/or bay under the portal's rules;
// the server answers the booking as it now is, or 409/400 with the reason (nothing changed then).

export type RescheduleVariables = BookingRescheduleInput & { bookingId: string };

export function rescheduleBooking(orgId: string, { bookingId, ...body }: RescheduleVariables): Promise<BookingDetail> {
  return apiCall('POST /api/orgs/:orgId/bookings/:bookingId/reschedule', { params: { orgId, bookingId }, body });
}

export function useRescheduleBooking(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: RescheduleVariables) => rescheduleBooking(orgId, variables),
    // Success or refusal, the schedule is read again: a refusal may mean someone else moved it.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['org', orgId, 'schedule'] }),
        queryClient.invalidateQueries({ queryKey: ['org', orgId, 'bookings'] }),
        queryClient.invalidateQueries({ queryKey: ['org', orgId, 'dashboard'] }),
      ]),
  });
}
