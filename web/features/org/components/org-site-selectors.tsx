import { Select } from '@mantine/core';
import { IconBuilding, IconMapPin } from '@tabler/icons-react';
import { useOrgSelection } from '../hooks/use-org-selection';

/** The org layout's organization and site pickers (spec §4). */
export function OrgSiteSelectors() {
  const {
    organizations,
    isLoadingOrganizations,
    selectedOrg,
    selectOrg,
    sites,
    isLoadingSites,
    selectedSite,
    selectSite,
  } = useOrgSelection();

  return (
    <>
      <Select
        aria-label="Organization"
        placeholder={isLoadingOrganizations ? 'Loading organizations…' : 'Select organization'}
        data={organizations.map((org) => ({ value: org.id, label: org.name }))}
        value={selectedOrg?.id ?? null}
        onChange={(value) => selectOrg(value)}
        allowDeselect={false}
        disabled={isLoadingOrganizations || organizations.length === 0}
        leftSection={<IconBuilding size={16} aria-hidden />}
        w={{ base: '100%', md: 210 }}
        comboboxProps={{ withinPortal: true }}
      />
      <Select
        aria-label="Site"
        placeholder={!selectedOrg ? 'Select an organization first' : isLoadingSites ? 'Loading sites…' : 'Select site'}
        data={sites.map((site) => ({ value: site.id, label: site.name }))}
        value={selectedSite?.id ?? null}
        onChange={(value) => selectSite(value)}
        allowDeselect={false}
        disabled={!selectedOrg || isLoadingSites || sites.length === 0}
        leftSection={<IconMapPin size={16} aria-hidden />}
        w={{ base: '100%', md: 190 }}
        comboboxProps={{ withinPortal: true }}
      />
    </>
  );
}
