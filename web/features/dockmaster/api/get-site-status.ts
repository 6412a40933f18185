import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type SiteStatus = {
  siteName: string;
  timeZone: string;
  /** The site's local time now, HH:mm. */
  localTime: string;
  hoursToday: { open: string; close: string }[];
  isOpenNow: boolean;
};

/** GET /api/public/sites/{siteId}/status — whether the site is open now and its hours today. */
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
