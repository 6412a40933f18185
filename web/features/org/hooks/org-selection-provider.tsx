import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { STORAGE_KEYS } from '../../../../domain/constants';
import { errorMessage } from '../../../lib/api-client';
import { readJson, removeKey, writeJson } from '../../../lib/storage';
import { useAuth } from '../../auth/hooks/use-auth';
import { myOrganizationsQueryOptions } from '../api/get-my-organizations';
import { orgSitesQueryOptions } from '../api/get-org-sites';
import { OrgSelectionContext, type OrgSelection } from './org-selection-context';

/** What is kept in localStorage for each selection. */
export type SavedSelection = { id: string; name: string };

/**
 * Spec §4 organization and site selection:
 * - a saved organization is restored if it is still listed; with exactly one it is auto-selected;
 * - choosing an organization clears the site;
 * - a saved site is restored if still present; with exactly one it is auto-selected.
 */
export function OrgSelectionProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const [chosenOrgId, setChosenOrgId] = useState<string | null>(
    () => readJson<SavedSelection>(STORAGE_KEYS.selectedOrg)?.id ?? null,
  );
  const [chosenSiteId, setChosenSiteId] = useState<string | null>(
    () => readJson<SavedSelection>(STORAGE_KEYS.selectedSite)?.id ?? null,
  );

  const orgsQuery = useQuery({ ...myOrganizationsQueryOptions(user?.id ?? 'anonymous'), enabled: !!user });
  const organizations = useMemo(() => orgsQuery.data ?? [], [orgsQuery.data]);
  const selectedOrg =
    organizations.find((org) => org.id === chosenOrgId) ?? (organizations.length === 1 ? organizations[0] : null);

  const sitesQuery = useQuery({ ...orgSitesQueryOptions(selectedOrg?.id ?? ''), enabled: !!selectedOrg });
  const sites = useMemo(() => (selectedOrg ? (sitesQuery.data ?? []) : []), [selectedOrg, sitesQuery.data]);
  const selectedSite = sites.find((site) => site.id === chosenSiteId) ?? (sites.length === 1 ? sites[0] : null);

  // Keep the effective choices in localStorage, including auto-selections.
  const selectedOrgId = selectedOrg?.id;
  const selectedOrgName = selectedOrg?.name;
  useEffect(() => {
    if (selectedOrgId && selectedOrgName) writeJson(STORAGE_KEYS.selectedOrg, { id: selectedOrgId, name: selectedOrgName });
  }, [selectedOrgId, selectedOrgName]);
  const selectedSiteId = selectedSite?.id;
  const selectedSiteName = selectedSite?.name;
  useEffect(() => {
    if (selectedSiteId && selectedSiteName) writeJson(STORAGE_KEYS.selectedSite, { id: selectedSiteId, name: selectedSiteName });
  }, [selectedSiteId, selectedSiteName]);

  const selectOrg = useCallback(
    (orgId: string | null) => {
      setChosenOrgId(orgId);
      setChosenSiteId(null);
      removeKey(STORAGE_KEYS.selectedSite);
      const org = organizations.find((o) => o.id === orgId);
      if (org) writeJson(STORAGE_KEYS.selectedOrg, { id: org.id, name: org.name });
      else removeKey(STORAGE_KEYS.selectedOrg);
    },
    [organizations],
  );

  const selectSite = useCallback(
    (siteId: string | null) => {
      setChosenSiteId(siteId);
      const site = sites.find((s) => s.id === siteId);
      if (site) writeJson(STORAGE_KEYS.selectedSite, { id: site.id, name: site.name });
      else removeKey(STORAGE_KEYS.selectedSite);
    },
    [sites],
  );

  const value = useMemo<OrgSelection>(
    () => ({
      organizations,
      isLoadingOrganizations: orgsQuery.isPending && !!user,
      organizationsError: orgsQuery.isError ? errorMessage(orgsQuery.error, 'Failed to load organizations') : null,
      selectedOrg,
      selectOrg,
      sites,
      isLoadingSites: !!selectedOrg && sitesQuery.isPending,
      sitesError: sitesQuery.isError ? errorMessage(sitesQuery.error, 'Failed to load sites') : null,
      selectedSite,
      selectSite,
    }),
    [organizations, orgsQuery.isPending, orgsQuery.isError, orgsQuery.error, user, selectedOrg, selectOrg, sites, sitesQuery.isPending, sitesQuery.isError, sitesQuery.error, selectedSite, selectSite],
  );

  return <OrgSelectionContext.Provider value={value}>{children}</OrgSelectionContext.Provider>;
}
