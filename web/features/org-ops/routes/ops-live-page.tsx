import { Alert, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { usePageTitle } from '../../../lib/use-page-title';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { useSiteOverviews } from '../api/get-site-overview';
import { SiteOpsSection } from '../components/site-ops-section';

// /org/ops/live (issue 10): the live picture across the organization's sites. Read-only: each
// booking links to /org/bookings?booking=<id>, where staff act on it. Live booking, bay and site
// events refresh the queries (keys under ['org', orgId, 'dashboard'], see web/lib/realtime.ts).

export default function OpsLivePage() {
  usePageTitle('Live Operations');
  const { selectedOrg, selectedSite, sites, isLoadingOrganizations, isLoadingSites, sitesError } = useOrgSelection();
  const orgId = selectedOrg?.id ?? null;
  const shown = selectedSite ? [selectedSite] : sites.filter((s) => s.active !== false);
  const overviews = useSiteOverviews(orgId, shown.map((s) => s.id));

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Title order={1} size="h2">
            Live Operations
          </Title>
          <Text c="dimmed" size="sm">
            {selectedOrg
              ? `${selectedOrg.name} · ${selectedSite ? selectedSite.name : 'All sites'} · updates as it happens`
              : isLoadingOrganizations
                ? 'Loading your organization…'
                : 'Choose an organization to see its live operations.'}
          </Text>
        </div>
      </Group>

      {sitesError ? (
        <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} title="Error loading data">
          {sitesError}
        </Alert>
      ) : null}

      {orgId && !isLoadingSites && !sitesError && shown.length === 0 ? (
        <Text c="dimmed">This organization has no active sites yet.</Text>
      ) : null}

      {isLoadingOrganizations || (orgId && isLoadingSites) ? <Text c="dimmed">Loading sites…</Text> : null}

      {orgId
        ? shown.map((site, i) => <SiteOpsSection key={site.id} site={site} query={overviews[i]!} />)
        : null}
    </Stack>
  );
}
