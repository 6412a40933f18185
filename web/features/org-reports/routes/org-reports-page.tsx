import { Alert, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { REPORT_KINDS, REPORT_TITLES, reportRangeDays, type ReportKind } from '../../../../domain/reports';
import { errorMessage } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useOrgSelection } from '../../org/hooks/use-org-selection';
import { useReportOptions } from '../api/get-report-options';
import { DwellReportView } from '../components/dwell-report';
import { NoShowsReportView } from '../components/no-shows-report';
import { PunctualityReportView } from '../components/punctuality-report';
import { ReportFilters } from '../components/report-filters';
import { ReportPanel } from '../components/report-panel';
import { UtilisationReportView } from '../components/utilisation-report';
import { VolumeReportView } from '../components/volume-report';
import { useReportFilters } from '../hooks/use-report-filters';
import { formatRange } from '../utils/report-format';

// /org/reports (issue 11): a date range and a site, then one report at a time in tabs — each a chart
// (or two) with a legend and hover values, the table beneath it and that table as CSV. Filters and
// the open report live in the address; only the report on screen is fetched.

const DESCRIPTIONS: Record<ReportKind, string> = {
  utilisation:
    'Booked and actually occupied hours over open hours (the site’s hours minus blackouts and closures). Cancelled, declined and no-show bookings are left out.',
  punctuality: 'When vehicles checked in at the gate against their booked start: early, on time or late.',
  dwell: 'How long vehicles waited at the gate, stood at the bay and stayed on site, and how many overstayed.',
  'no-shows': 'How many bookings ended as no-shows or were cancelled, by tenant and site, and how that changed day by day.',
  volume: 'How many bookings started each day and hour, by booking type and by where they came from.',
};

export default function OrgReportsPage() {
  usePageTitle('Reports');
  const { selectedOrg, isLoadingOrganizations } = useOrgSelection();
  const orgId = selectedOrg?.id ?? null;
  const options = useReportOptions(orgId);
  const filters = useReportFilters(options.data);
  const siteName = filters.siteId === undefined ? null : filters.siteId === null ? 'All sites' : (options.data?.sites.find((s) => s.id === filters.siteId)?.name ?? 'Unknown site');
  const rangeError = filters.rangeError?.message ?? null;

  const panel = <K extends ReportKind>(kind: K) => ({ kind, orgId, request: filters.request, rangeError, description: DESCRIPTIONS[kind] });

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Reports
        </Title>
        <Text c="dimmed" size="sm">
          {selectedOrg
            ? [selectedOrg.name, siteName, filters.range ? formatRange({ ...filters.range, days: reportRangeDays(filters.range) }) : null].filter(Boolean).join(' · ')
            : isLoadingOrganizations
              ? 'Loading your organization…'
              : 'Choose an organization to see its reports.'}
        </Text>
      </div>

      {options.isError ? (
        <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} title="Could not load the reports">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{errorMessage(options.error, 'Failed to load the reports')}</Text>
            <Button size="xs" variant="white" color="red.9" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => void options.refetch()} loading={options.isFetching}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : null}

      {orgId && !options.isError ? (
        <>
          <ReportFilters filters={filters} options={options.data} />
          <Tabs value={filters.report} onChange={(value) => value && filters.setReport(value as ReportKind)} keepMounted={false}>
            <Tabs.List aria-label="Reports">
              {REPORT_KINDS.map((kind) => (
                <Tabs.Tab key={kind} value={kind}>
                  {REPORT_TITLES[kind]}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            <Tabs.Panel value="utilisation">
              <ReportPanel {...panel('utilisation')}>{(data, request) => <UtilisationReportView data={data} orgId={orgId} request={request} />}</ReportPanel>
            </Tabs.Panel>
            <Tabs.Panel value="punctuality">
              <ReportPanel {...panel('punctuality')}>
                {(data, request) => <PunctualityReportView data={data} orgId={orgId} request={request} groupBy={filters.groupBy} onGroupBy={filters.setGroupBy} />}
              </ReportPanel>
            </Tabs.Panel>
            <Tabs.Panel value="dwell">
              <ReportPanel {...panel('dwell')}>
                {(data, request) => <DwellReportView data={data} orgId={orgId} request={request} groupBy={filters.groupBy} onGroupBy={filters.setGroupBy} />}
              </ReportPanel>
            </Tabs.Panel>
            <Tabs.Panel value="no-shows">
              <ReportPanel {...panel('no-shows')}>
                {(data, request) => <NoShowsReportView data={data} orgId={orgId} request={request} groupBy={filters.groupBy} onGroupBy={filters.setGroupBy} />}
              </ReportPanel>
            </Tabs.Panel>
            <Tabs.Panel value="volume">
              <ReportPanel {...panel('volume')}>{(data, request) => <VolumeReportView data={data} orgId={orgId} request={request} />}</ReportPanel>
            </Tabs.Panel>
          </Tabs>
        </>
      ) : null}
    </Stack>
  );
}
