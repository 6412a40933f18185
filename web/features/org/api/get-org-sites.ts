import { queryOptions } from '@tanstack/react-query';
import type { SiteDto } from '../../../../domain/site-schemas';
import { apiCall } from '../../../lib/api-client';
import { orgKeys } from './get-my-organizations';

export type OrgSite = SiteDto;

/** GET /api/orgs/{orgId}/sites — the organization's active sites, ordered by name. */
export async function getOrgSites(orgId: string): Promise<OrgSite[]> {
  const sites = await apiCall('GET /api/orgs/:orgId/sites', { params: { orgId } });
  return sites.filter((site) => site.active !== false).sort((a, b) => a.name.localeCompare(b.name));
}

export function orgSitesQueryOptions(orgId: string) {
  return queryOptions({ queryKey: orgKeys.sites(orgId), queryFn: () => getOrgSites(orgId) });
}
