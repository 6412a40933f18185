import { useContext } from 'react';
import { OrgSelectionContext, type OrgSelection } from './org-selection-context';

/** The organization and site chosen in the org layout's selectors. */
export function useOrgSelection(): OrgSelection {
  const value = useContext(OrgSelectionContext);
  if (!value) throw new Error('useOrgSelection must be used inside <OrgSelectionProvider>');
  return value;
}
