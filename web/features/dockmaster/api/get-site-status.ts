import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type SiteStatus = {
  expectedToday: number;
  checkedIn: number;
  bays: number;
  baysAvailable: number;
};

/** GET /api/public/sites/{siteId}/status — the site's figures right now. */
export function getSiteStatus(siteId: string): Promise<SiteStatus> {
  return api<SiteStatus>(`/api/public/sites/${encodeURIComponent(siteId)}/status`, { anonymous: true });
}

export function useSiteStatus(siteId: string | null) {
  return useQuery({
    queryKey: ['public', 'sites', siteId, 'status'],
    queryFn: () => getSiteStatus(siteId!),
    enabled: !!siteId,
  });
}
