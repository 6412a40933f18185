import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { publicBookingKeys } from './paths';
import type { ManagedBooking } from './types';

export type RescheduleManagedBookingVariables = { token: string; date: string; slot: string };

export function rescheduleManagedBooking({ token, date, slot }: RescheduleManagedBookingVariables): Promise<ManagedBooking> {
  return apiCall('POST /api/public/manage/:token/reschedule', {
    params: { token },
    body: { date, slot },
    anonymous: true,
  });
}

export function useRescheduleManagedBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rescheduleManagedBooking,
    onSuccess: (booking, { token }) => {
      queryClient.setQueryData(publicBookingKeys.managedBooking(token), booking);
    },
    onError: (_error, { token }) => queryClient.invalidateQueries({ queryKey: publicBookingKeys.managedBooking(token), exact: true }),
    onSettled: (_data, _error, { token }) =>
      queryClient.invalidateQueries({ queryKey: publicBookingKeys.managedAvailability(token) }),
  });
}
