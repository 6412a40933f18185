import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlateReadDto } from '../../../../domain/plate-reads';
import { apiCall } from '../../../lib/api-client';
import { plateReadKeys } from './get-plate-reads';

// POST /api/sites/:siteId/plate-reads/:id/resolve {bookingId} and …/:id/ignore — the dock master's
// (or org admin's) decision on an unmatched or ambiguous read. Security staff get 403; a read
// decided meanwhile answers 409 with its status.

export type PlateReadDecision = { readId: string; kind: 'resolve'; bookingId: string } | { readId: string; kind: 'ignore' };

export function decidePlateRead(siteId: string, decision: PlateReadDecision): Promise<PlateReadDto> {
  const params = { siteId, id: decision.readId };
  return decision.kind === 'resolve'
    ? apiCall('POST /api/sites/:siteId/plate-reads/:id/resolve', { params, body: { bookingId: decision.bookingId } })
    : apiCall('POST /api/sites/:siteId/plate-reads/:id/ignore', { params });
}

export function useDecidePlateRead(orgId: string, siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: PlateReadDecision) => decidePlateRead(siteId, decision),
    // Decided or refused (someone else decided first), the list is read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: plateReadKeys.site(orgId, siteId) }),
  });
}
