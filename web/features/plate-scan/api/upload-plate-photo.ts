import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlateReadResult } from '../../../../domain/plate-reads';
import { apiCall } from '../../../lib/api-client';
import { plateReadKeys } from './get-plate-reads';

// POST /api/sites/:siteId/plate-reads/photo — a photo of a plate, read by the server's OCR (one
// PNG, JPEG or WebP ≤ 10 MB in the field "photo"). Not an image: 400; no plate in it: 422; the
// reader busy: 503 — each with a message to show as it is. Nothing is stored then.

export function uploadPlatePhoto(siteId: string, photo: Blob, fileName: string): Promise<PlateReadResult> {
  const form = new FormData();
  form.append('photo', photo, fileName);
  return apiCall('POST /api/sites/:siteId/plate-reads/photo', { params: { siteId }, body: form });
}

export function useUploadPlatePhoto(orgId: string, siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ photo, fileName }: { photo: Blob; fileName: string }) => uploadPlatePhoto(siteId, photo, fileName),
    onSuccess: (result) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: plateReadKeys.site(orgId, siteId) }),
        result.autoCheckIn?.ok ? queryClient.invalidateQueries({ queryKey: ['org', orgId, 'dashboard'] }) : null,
      ]),
  });
}
