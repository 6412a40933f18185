import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { orgKeys } from './get-my-organizations';

export type OrgSite = {
  id: string;
  name: string;
  orgId: string;
  active: boolean;
  timeZone: string;
  address?: string | null;
};

/** GET /api/orgs/{orgId}/sites — the organization's active sites, ordered by name. */
export async function getOrgSites(orgId: string): Promise<OrgSite[]> {
  const sites = await api<OrgSite[]>(`/api/orgs/${encodeURIComponent(orgId)}/sites`);
  return sites.filter((site) => site.active !== false).sort((a, b) => a.name.localeCompare(b.name));
}

export function orgSitesQueryOptions(orgId: string) {
  return queryOptions({ queryKey: orgKeys.sites(orgId), queryFn: () => getOrgSites(orgId) });
}
