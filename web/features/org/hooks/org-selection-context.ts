import { createContext } from 'react';
import type { MyOrganization } from '../api/get-my-organizations';
import type { OrgSite } from '../api/get-org-sites';

export type OrgSelection = {
  organizations: MyOrganization[];
  isLoadingOrganizations: boolean;
  /** The API's message, or 'Failed to load organizations'. */
  organizationsError: string | null;
  selectedOrg: MyOrganization | null;
  /** Choosing an organization clears the selected site (spec §4). */
  selectOrg: (orgId: string | null) => void;
  sites: OrgSite[];
  isLoadingSites: boolean;
  /** The API's message, or 'Failed to load sites'. */
  sitesError: string | null;
  selectedSite: OrgSite | null;
  selectSite: (siteId: string | null) => void;
};

export const OrgSelectionContext = createContext<OrgSelection | null>(null);
