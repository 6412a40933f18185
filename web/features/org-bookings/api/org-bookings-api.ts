import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BookingDetail,
  BookingList,
  BookingListQuery,
  BookingRescheduleInput,
  BookingTransitionInput,
} from '../../../../domain/org-bookings';
import { api, currentAccessToken, ApiError } from '../../../lib/api-client';

// The organization's bookings (server: /api/orgs/:orgId/bookings…). Query keys start with
// ['org', orgId, 'bookings'] so a live update or any move refreshes every view of them.

export const orgBookingKeys = {
  all: (orgId: string) => ['org', orgId, 'bookings'] as const,
  list: (orgId: string, query: BookingListQuery) => ['org', orgId, 'bookings', 'list', query] as const,
  detail: (orgId: string, id: string) => ['org', orgId, 'bookings', 'detail', id] as const,
};

const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}/bookings`;

function toSearch(query: BookingListQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, String(v)));
    else params.set(key, String(value));
  }
  return params.toString();
}

export function bookingListQueryOptions(orgId: string, query: BookingListQuery) {
  return queryOptions({
    queryKey: orgBookingKeys.list(orgId, query),
    queryFn: () => api<BookingList>(`${base(orgId)}?${toSearch(query)}`),
    placeholderData: keepPreviousData,
  });
}

export function useBookingList(orgId: string | undefined, query: BookingListQuery) {
  return useQuery({ ...bookingListQueryOptions(orgId ?? '', query), enabled: !!orgId });
}

export function useBookingDetail(orgId: string | undefined, bookingId: string | null) {
  return useQuery({
    queryKey: orgBookingKeys.detail(orgId ?? '', bookingId ?? ''),
    queryFn: () => api<BookingDetail>(`${base(orgId!)}/${encodeURIComponent(bookingId!)}`),
    enabled: !!orgId && !!bookingId,
  });
}

/** A move (approve, decline, cancel, check in, …) or a reschedule: the answer is the booking as it now is. */
export function useBookingMutation<I>(orgId: string, bookingId: string, path: 'transitions' | 'reschedule' | 'extend') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => api<BookingDetail>(`${base(orgId)}/${encodeURIComponent(bookingId)}/${path}`, { method: 'POST', body: input }),
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

export const useTransitionBooking = (orgId: string, bookingId: string) => useBookingMutation<BookingTransitionInput>(orgId, bookingId, 'transitions');
export const useRescheduleBooking = (orgId: string, bookingId: string) => useBookingMutation<BookingRescheduleInput>(orgId, bookingId, 'reschedule');

/** Downloads a document with the session's token (a plain link could not carry it). */
export async function downloadDocument(orgId: string, bookingId: string, documentId: string, fileName: string): Promise<void> {
  const token = currentAccessToken();
  const response = await fetch(`${base(orgId)}/${encodeURIComponent(bookingId)}/documents/${encodeURIComponent(documentId)}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw new ApiError(response.status, 'download_failed', `Could not download ${fileName} (${response.status})`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
