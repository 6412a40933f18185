import { Alert, Anchor, Paper, Select, Text, Title } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { STORAGE_KEYS } from '../../../../domain/constants';
import { PageLoader } from '../../../components/ui/page-loader';
import { readJson } from '../../../lib/storage';
import { usePageTitle } from '../../../lib/use-page-title';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { NOTICE_STYLES } from '../components/notice-styles';
import { PlateScanner } from '../components/plate-scanner';

// /dockmaster/scan and /org/ops/scan (issue 10): one scanner, two areas. At the dock it scans at the
// site chosen at the dock sign-in; in the organization area at the site chosen in the selectors
// (or in the picker here, which sets the same selection: on a phone the header's is in the menu).

type Selected = { id: string; name: string };

export default function PlateScanPage() {
  usePageTitle('Plate Scanner');
  const isDock = useLocation().pathname.startsWith('/dockmaster');
  return isDock ? <DockPlateScan /> : <OrgPlateScan />;
}

function DockPlateScan() {
  const site = readJson<Selected>(STORAGE_KEYS.selectedSite);
  const org = readJson<Selected>(STORAGE_KEYS.selectedOrg);
  if (!site || !org) {
    return (
      <Alert styles={NOTICE_STYLES} color="orange" title="No site chosen" m="md">
        Sign in at{' '}
        <Anchor component={Link} to="/dockmaster">
          the dock master sign-in
        </Anchor>{' '}
        and choose your site.
      </Alert>
    );
  }
  return <PlateScanner key={site.id} orgId={org.id} siteId={site.id} siteName={site.name} dashboardPath="/dockmaster/dashboard" />;
}

function OrgPlateScan() {
  const { selectedOrg, sites, selectedSite, selectSite, isLoadingOrganizations, isLoadingSites } = useOrgSelection();
  if (isLoadingOrganizations || (selectedOrg && isLoadingSites)) return <PageLoader minHeight={200} />;

  const picker = (
    <Select
      label="Scan at site"
      placeholder={sites.length === 0 ? 'No active sites' : 'Choose the site whose gate you are at'}
      data={sites.map((site) => ({ value: site.id, label: site.name }))}
      value={selectedSite?.id ?? null}
      onChange={(value) => value && selectSite(value)}
      allowDeselect={false}
      disabled={sites.length === 0}
      leftSection={<IconMapPin size={18} aria-hidden />}
      size="lg"
      w={{ base: '100%', sm: 360 }}
      comboboxProps={{ withinPortal: true }}
    />
  );

  if (!selectedOrg || !selectedSite) {
    return (
      <Paper withBorder radius="md" p="md" maw={720}>
        <Title order={1} size="h2" mb="xs">
          Plate Scanner
        </Title>
        <Text size="sm" mb="md">
          {selectedOrg ? 'Choose the site whose gate you are at: plates are matched with its expected and on-site vehicles.' : 'Choose an organization in the header first.'}
        </Text>
        {selectedOrg ? picker : null}
      </Paper>
    );
  }
  return <PlateScanner key={selectedSite.id} orgId={selectedOrg.id} siteId={selectedSite.id} siteName={selectedSite.name} timeZone={selectedSite.timeZone} sitePicker={picker} />;
}
