import { Alert, Stack } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useOrgSelection } from '../hooks/use-org-selection';

/** Load errors of the selectors, and the cases where there is nothing to choose. */
export function OrgSelectionBanner() {
  const { organizationsError, sitesError, organizations, isLoadingOrganizations, selectedOrg, sites, isLoadingSites } =
    useOrgSelection();
  const notices: { key: string; color: string; text: string; isError: boolean }[] = [];
  if (organizationsError) notices.push({ key: 'orgs-error', color: 'red', text: organizationsError, isError: true });
  else if (!isLoadingOrganizations && organizations.length === 0)
    notices.push({ key: 'no-orgs', color: 'gray', text: 'You are not a member of any active organization.', isError: false });
  if (sitesError) notices.push({ key: 'sites-error', color: 'red', text: sitesError, isError: true });
  else if (selectedOrg && !isLoadingSites && sites.length === 0)
    notices.push({ key: 'no-sites', color: 'gray', text: `${selectedOrg.name} has no active sites yet.`, isError: false });
  if (notices.length === 0) return null;
  return (
    <Stack gap="xs" mb="md">
      {notices.map((n) => (
        <Alert
          key={n.key}
          color={n.color}
          variant="light"
          role={n.isError ? 'alert' : 'status'}
          icon={n.isError ? <IconAlertTriangle size={18} aria-hidden /> : <IconInfoCircle size={18} aria-hidden />}
        >
          {n.text}
        </Alert>
      ))}
    </Stack>
  );
}
