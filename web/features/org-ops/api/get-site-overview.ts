import { queryOptions, useQueries } from '@tanstack/react-query';
import type { GateOverview } from '../../../../domain/gate';
import { apiCall } from '../../../lib/api-client';

/** Live updates refresh these; the minute refresh catches a bay turning into an overstay. */
export const OPS_LIVE_REFRESH_MS = 60_000;

/** Keyed under ['org', orgId, 'dashboard'] so booking, bay, blackout and site events refresh it. */
export const opsLiveKeys = {
  site: (orgId: string, siteId: string) => ['org', orgId, 'dashboard', 'ops-live', siteId] as const,
};

/** GET /api/sites/{siteId}/gate/overview — one site's gate now (org admins and dockmasters). */
export function getSiteOverview(siteId: string): Promise<GateOverview> {
  return apiCall('GET /api/sites/:siteId/gate/overview', { params: { siteId } });
}

export function siteOverviewQueryOptions(orgId: string, siteId: string) {
  return queryOptions({
    queryKey: opsLiveKeys.site(orgId, siteId),
    queryFn: () => getSiteOverview(siteId),
    refetchInterval: OPS_LIVE_REFRESH_MS,
  });
}

/** The overview of each site, in the order given. */
export function useSiteOverviews(orgId: string | null, siteIds: string[]) {
  return useQueries({
    queries: siteIds.map((siteId) => ({ ...siteOverviewQueryOptions(orgId ?? '', siteId), enabled: !!orgId })),
  });
}
