import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { publicBookingKeys } from './paths';
import type { CreatedBooking } from './types';

export type CreateBookingVariables = {
  /** The booking request as validated by domain/booking-request.ts. */
  data: unknown;
  documents: File[];
  idempotencyKey: string;
};

/** Multipart: the `data` JSON field first, then one `documents` part per file. */
export function createBooking({ data, documents, idempotencyKey }: CreateBookingVariables): Promise<CreatedBooking> {
  const form = new FormData();
  form.append('data', JSON.stringify(data));
  for (const file of documents) form.append('documents', file, file.name);
  return apiCall('POST /api/public/bookings', {
    body: form,
    anonymous: true,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function useCreateBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBooking,
    // Whatever happened, the grid the haulier sees is now out of date.
    onSettled: () => queryClient.invalidateQueries({ queryKey: publicBookingKeys.availability() }),
  });
}
