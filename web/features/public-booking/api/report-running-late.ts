import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LateReportResult } from '../../../../domain/late-report';
import { apiCall } from '../../../lib/api-client';
import { publicBookingKeys } from './paths';
import type { ManagedBooking } from './types';

// Running late through the manage link (decision 043): report the ETA; accept an offered slot.

export type ReportRunningLateVariables = { token: string; eta: string };

export function reportRunningLate({ token, eta }: ReportRunningLateVariables): Promise<LateReportResult> {
  return apiCall('POST /api/public/manage/:token/late', { params: { token }, body: { eta }, anonymous: true });
}

export function useReportRunningLate() {
  return useMutation({ mutationFn: reportRunningLate });
}

export type AcceptLateOfferVariables = { token: string; startTime: string };

export function acceptLateOffer({ token, startTime }: AcceptLateOfferVariables): Promise<ManagedBooking> {
  return apiCall('POST /api/public/manage/:token/late/accept', { params: { token }, body: { startTime }, anonymous: true });
}

export function useAcceptLateOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptLateOffer,
    onSuccess: (booking, { token }) => {
      queryClient.setQueryData(publicBookingKeys.managedBooking(token), booking);
    },
    onSettled: (_data, _error, { token }) => queryClient.invalidateQueries({ queryKey: publicBookingKeys.managedBooking(token) }),
  });
}
