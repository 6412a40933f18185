import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { publicBookingKeys } from './paths';
import type { ManagedBooking } from './types';

export type CancelManagedBookingVariables = { token: string; reason?: string };

export function cancelManagedBooking({ token, reason }: CancelManagedBookingVariables): Promise<ManagedBooking> {
  return apiCall('POST /api/public/manage/:token/cancel', {
    params: { token },
    body: reason ? { reason } : {},
    anonymous: true,
  });
}

export function useCancelManagedBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelManagedBooking,
    onSuccess: (booking, { token }) => {
      queryClient.setQueryData(publicBookingKeys.managedBooking(token), booking);
    },
    // Refused (e.g. the booking started or was declined meanwhile): show its current state.
    onError: (_error, { token }) => queryClient.invalidateQueries({ queryKey: publicBookingKeys.managedBooking(token), exact: true }),
  });
}
