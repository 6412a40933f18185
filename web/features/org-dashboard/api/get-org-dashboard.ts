import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrgDashboard } from '../../../../domain/org-dashboard';
import { apiCall } from '../../../lib/api-client';
import { orgDashboardKeys } from './paths';

/** The figures are refreshed every minute even without live updates. */
export const DASHBOARD_REFRESH_MS = 60_000;

/** GET /api/orgs/{orgId}/dashboard[?siteId] — the organization's (or one site's) figures now. */
export function getOrgDashboard(orgId: string, siteId: string | null): Promise<OrgDashboard> {
  return apiCall('GET /api/orgs/:orgId/dashboard', { params: { orgId }, query: { siteId: siteId ?? undefined } });
}

export function orgDashboardQueryOptions(orgId: string, siteId: string | null) {
  return queryOptions({
    queryKey: orgDashboardKeys.dashboard(orgId, siteId),
    queryFn: () => getOrgDashboard(orgId, siteId),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
}

export function useOrgDashboard(orgId: string | null, siteId: string | null) {
  return useQuery({ ...orgDashboardQueryOptions(orgId ?? '', siteId), enabled: !!orgId });
}
