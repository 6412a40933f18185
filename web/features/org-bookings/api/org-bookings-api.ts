import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  adminBookingPreviewSchema,
  adminBookingSitesSchema,
  AdminBookingInput,
  AdminBookingPreview,
  AdminBookingSites,
  BookingDetail,
  BookingListQuery,
  BookingRescheduleInput,
  BookingTransitionInput,
  RescheduleRefusalInput,
} from '../../../../domain/org-bookings';
import { ApiError, apiCall, fetchApiFile, saveFile } from '../../../lib/api-client';

// The organization's bookings (server: /api/orgs/:orgId/bookings…). Query keys start with
// ['org', orgId, 'bookings'] so a live update or any move refreshes every view of them.

export const orgBookingKeys = {
  all: (orgId: string) => ['org', orgId, 'bookings'] as const,
  list: (orgId: string, query: BookingListQuery) => ['org', orgId, 'bookings', 'list', query] as const,
  detail: (orgId: string, id: string) => ['org', orgId, 'bookings', 'detail', id] as const,
};

export function bookingListQueryOptions(orgId: string, query: BookingListQuery) {
  return queryOptions({
    queryKey: orgBookingKeys.list(orgId, query),
    queryFn: () => apiCall('GET /api/orgs/:orgId/bookings', { params: { orgId }, query }),
    placeholderData: keepPreviousData,
  });
}

export function useBookingList(orgId: string | undefined, query: BookingListQuery) {
  return useQuery({ ...bookingListQueryOptions(orgId ?? '', query), enabled: !!orgId });
}

export function useBookingDetail(orgId: string | undefined, bookingId: string | null) {
  return useQuery({
    queryKey: orgBookingKeys.detail(orgId ?? '', bookingId ?? ''),
    queryFn: () => apiCall('GET /api/orgs/:orgId/bookings/:bookingId', { params: { orgId: orgId!, bookingId: bookingId! } }),
    enabled: !!orgId && !!bookingId,
  });
}

/** POST /api/orgs/:orgId/bookings — staff book a slot for a tenant, under the portal's rules. */
/** The bay an admin booking would get now (nothing is written). */
export function previewAdminBooking(orgId: string, target: z.input<typeof adminBookingPreviewSchema>): Promise<AdminBookingPreview> {
  return apiCall('POST /api/orgs/:orgId/bookings/preview', { params: { orgId }, body: target });
}

/** The same booking at every site, when the organization lets hauliers choose the site (nothing is written). */
export function previewAdminBookingSites(orgId: string, target: z.input<typeof adminBookingSitesSchema>): Promise<AdminBookingSites> {
  return apiCall('POST /api/orgs/:orgId/bookings/preview-sites', { params: { orgId }, body: target });
}

export function createAdminBooking(orgId: string, input: AdminBookingInput): Promise<BookingDetail> {
  return apiCall('POST /api/orgs/:orgId/bookings', { params: { orgId }, body: input });
}

/** A move (approve, decline, cancel, check in, …) or a reschedule: the answer is the booking as it now is. */
export function useBookingMutation<I>(orgId: string, bookingId: string, send: (params: { orgId: string; bookingId: string }, input: I) => Promise<BookingDetail>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => send({ orgId, bookingId }, input),
    onSuccess: (detail) => {
      queryClient.setQueryData(orgBookingKeys.detail(orgId, bookingId), detail);
      void queryClient.invalidateQueries({ queryKey: ['org', orgId] });
    },
    onError: (error) => {
      // Someone else changed it: show what it is now.
      if (error instanceof ApiError && error.status === 409) void queryClient.invalidateQueries({ queryKey: orgBookingKeys.all(orgId) });
    },
  });
}

export const useTransitionBooking = (orgId: string, bookingId: string) =>
  useBookingMutation(orgId, bookingId, (params, body: BookingTransitionInput) => apiCall('POST /api/orgs/:orgId/bookings/:bookingId/transitions', { params, body }));
export const useRescheduleBooking = (orgId: string, bookingId: string) =>
  useBookingMutation(orgId, bookingId, (params, body: BookingRescheduleInput) => apiCall('POST /api/orgs/:orgId/bookings/:bookingId/reschedule', { params, body }));
/** A carrier's reschedule request awaiting the site (SSC API): accepted (the booking moves) or refused (it stays). */
export const useAcceptRescheduleRequest = (orgId: string, bookingId: string) =>
  useBookingMutation(orgId, bookingId, (params, _input: void) => apiCall('POST /api/orgs/:orgId/bookings/:bookingId/reschedule-request/accept', { params }));
export const useRefuseRescheduleRequest = (orgId: string, bookingId: string) =>
  useBookingMutation(orgId, bookingId, (params, body: RescheduleRefusalInput) => apiCall('POST /api/orgs/:orgId/bookings/:bookingId/reschedule-request/refuse', { params, body }));

/** Downloads a document with the session's token (a plain link could not carry it). */
export async function downloadDocument(orgId: string, bookingId: string, documentId: string, fileName: string): Promise<void> {
  const response = await fetchApiFile('GET /api/orgs/:orgId/bookings/:bookingId/documents/:documentId', {
    params: { orgId, bookingId, documentId },
    failure: `Could not download ${fileName}`,
  });
  await saveFile(response, fileName);
}
