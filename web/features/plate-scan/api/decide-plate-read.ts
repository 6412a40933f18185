import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlateReadDto } from '../../../../domain/plate-reads';
import { api } from '../../../lib/api-client';
import { plateReadKeys, sitePath } from './get-plate-reads';

// POST /api/sites/:siteId/plate-reads/:id/resolve {bookingId} and …/:id/ignore — the dock master's
// (or org admin's) decision on an unmatched or ambiguous read. Security staff get 403; a read
// decided meanwhile answers 409 with its status.

export type PlateReadDecision = { readId: string; kind: 'resolve'; bookingId: string } | { readId: string; kind: 'ignore' };

export function decidePlateRead(siteId: string, decision: PlateReadDecision): Promise<PlateReadDto> {
  const path = `${sitePath(siteId)}/${encodeURIComponent(decision.readId)}/${decision.kind}`;
  return decision.kind === 'resolve'
    ? api<PlateReadDto>(path, { method: 'POST', body: { bookingId: decision.bookingId } })
    : api<PlateReadDto>(path, { method: 'POST' });
}

export function useDecidePlateRead(orgId: string, siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: PlateReadDecision) => decidePlateRead(siteId, decision),
    // Decided or refused (someone else decided first), the list is read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: plateReadKeys.site(orgId, siteId) }),
  });
}
