import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconRefresh } from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { useOrgDashboard } from '../api/get-org-dashboard';
import { DashboardStats } from '../components/dashboard-stats';
import { EmergencyStops } from '../components/emergency-stops';
import { LiveOperations } from '../components/live-operations';
import { RecentRequests } from '../components/recent-requests';
import { SitesOverview } from '../components/sites-overview';
import { ToolCards } from '../components/tool-cards';

/** Spec §2 "Organization admin dashboard" (/org/dashboard, /orgadmin/dashboard), with real figures. */
export default function OrgDashboardPage() {
  usePageTitle('Dashboard');
  const { selectedOrg, selectedSite, isLoadingOrganizations } = useOrgSelection();
  const orgId = selectedOrg?.id ?? null;
  const siteId = selectedSite?.id ?? null;
  const dashboard = useOrgDashboard(orgId, siteId);

  // Without an organization there is nothing to load: the layout's banner says why.
  const isLoading = isLoadingOrganizations || (!!orgId && dashboard.isPending);
  const isError = dashboard.isError && !dashboard.data;
  const data = dashboard.data;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Title order={1} size="h2">
            Dashboard
          </Title>
          <Text c="dimmed" size="sm">
            {selectedOrg
              ? `${selectedOrg.name} · ${selectedSite ? selectedSite.name : 'All sites'} · today at each site`
              : isLoadingOrganizations
                ? 'Loading your organization…'
                : 'Choose an organization to see its dashboard.'}
          </Text>
        </div>
        <Button component={Link} to="/" variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          Back to Home
        </Button>
      </Group>

      {isError ? (
        <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} title="Error loading data">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{errorMessage(dashboard.error, 'Failed to load the dashboard')}</Text>
            <Button size="xs" variant="white" color="red.9" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => void dashboard.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : null}

      {orgId || isLoadingOrganizations ? (
        <>
          <EmergencyStops stops={data?.emergencyStops} />
          <DashboardStats stats={data?.stats} isLoading={isLoading} isError={isError} />
          <RecentRequests orgId={orgId ?? ''} bookings={data?.recentRequests} isLoading={isLoading} isError={isError} />
          <LiveOperations live={data?.liveOperations} isLoading={isLoading} isError={isError} showSite={!siteId} />
          <SitesOverview sites={data?.sites} isLoading={isLoading} isError={isError} />
        </>
      ) : null}

      <ToolCards />
    </Stack>
  );
}
