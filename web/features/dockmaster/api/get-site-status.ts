import { useQuery } from '@tanstack/react-query';
import type { SiteStatus } from '../../../../domain/contract/public.contract';
import { apiCall } from '../../../lib/api-client';

export type { SiteStatus };

/** GET /api/public/sites/{siteId}/status — whether the site is open now and its hours today. */
export function getSiteStatus(siteId: string): Promise<SiteStatus> {
  return apiCall('GET /api/public/sites/:siteId/status', { params: { siteId }, anonymous: true });
}

export function useSiteStatus(siteId: string | null) {
  return useQuery({
    queryKey: ['public', 'sites', siteId, 'status'],
    queryFn: () => getSiteStatus(siteId!),
    enabled: !!siteId,
  });
}
