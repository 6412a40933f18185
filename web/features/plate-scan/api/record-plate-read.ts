import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlateReadBody, PlateReadResult } from '../../../../domain/plate-reads';
import { apiCall } from '../../../lib/api-client';
import { plateReadKeys } from './get-plate-reads';

// POST /api/sites/:siteId/plate-reads — a plate typed at the gate or read by the device camera:
// stored (a repeat within 60 s answers the first read), matched with the site's vehicles, and
// checked in automatically when the organization asks for it.

export function recordPlateRead(siteId: string, body: PlateReadBody): Promise<PlateReadResult> {
  return apiCall('POST /api/sites/:siteId/plate-reads', { params: { siteId }, body });
}

export function useRecordPlateRead(orgId: string, siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PlateReadBody) => recordPlateRead(siteId, body),
    onSuccess: (result) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: plateReadKeys.site(orgId, siteId) }),
        // An automatic check-in moved a booking: the gate's lists follow.
        result.autoCheckIn?.ok ? queryClient.invalidateQueries({ queryKey: ['org', orgId, 'dashboard'] }) : null,
      ]),
  });
}
