import { Alert, Button, Group, Loader, Pagination, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { AUDIT_FETCH_FAILED, AUDIT_PAGE_SIZES, auditQueryFromParams, isAuditFiltered } from '../../../../../domain/audit-log';
import { DateField } from '../../../../components/ui/date-field';
import { errorMessage } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { useListParams } from '../../../../lib/use-list-params';
import { useOrgSelection } from '../../../org/hooks/use-org-selection';
import { useAuditFilterOptions, useAuditList, useDownloadAuditCsv, type AuditSource } from '../../../superadmin/api/audit-api';
import { AuditTable } from '../../../../components/audit/audit-table';

// Settings › Activity (issue 12): the organization's own audit trail, newest first — who changed
// what and when, from sign-ins to bookings and settings. Organization admins only (the server
// refuses anyone else). The filters and the page live in the address beside ?tab=activity.

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export function ActivitySection() {
  const { selectedOrg } = useOrgSelection();
  const { params, update } = useListParams();
  const source: AuditSource | null = selectedOrg ? { kind: 'org', orgId: selectedOrg.id } : null;
  const query = auditQueryFromParams(params, { withOrganization: false, timeZone: browserTimeZone() });
  const list = useAuditList(source, query);
  const options = useAuditFilterOptions(source);
  const csv = useDownloadAuditCsv(source);
  const [actor, setActor] = useState(query.actor ?? '');
  const [debouncedActor] = useDebouncedValue(actor, 300);

  useEffect(() => {
    if ((debouncedActor.trim() || undefined) !== query.actor) update({ actor: debouncedActor.trim() || null });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the debounced text drives this
  }, [debouncedActor]);

  if (!selectedOrg) return <Text c="dimmed">Choose an organization to see its activity.</Text>;

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / query.pageSize));
  const isFiltered = isAuditFiltered(query);
  const withCurrent = (values: string[], current: string | undefined) => (current && !values.includes(current) ? [current, ...values] : values);

  const download = async () => {
    try {
      const result = await csv.download(query);
      if (result) toast.success('CSV downloaded', `${result.rows} ${result.rows === 1 ? 'entry' : 'entries'} saved.`);
    } catch (error) {
      toast.error('Download failed', errorMessage(error, 'The CSV could not be downloaded.'));
    }
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            Activity
          </Title>
          <Text c="dimmed" size="sm">
            Everything done in {selectedOrg.name}, newest first: sign-ins, bookings, sites, bays, team and settings.
            {list.data ? ` ${total} ${total === 1 ? 'entry' : 'entries'}${isFiltered ? (total === 1 ? ' matches' : ' match') : ''}.` : ''}
          </Text>
        </div>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() => void download()}
          loading={csv.isDownloading}
          disabled={!list.data || total === 0}
        >
          Download CSV
        </Button>
      </Group>

      <Paper withBorder p="md" radius="md">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label="Who"
            placeholder="E-mail or user id"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={actor}
            onChange={(event) => setActor(event.currentTarget.value)}
            w={230}
          />
          <Select
            label="Action"
            placeholder="Any action"
            data={withCurrent(options.data?.actions ?? [], query.action)}
            value={query.action ?? null}
            onChange={(value) => update({ action: value })}
            searchable
            clearable
            nothingFoundMessage="No such action recorded"
            w={230}
          />
          <Select
            label="Resource type"
            placeholder="Any type"
            data={withCurrent(options.data?.resourceTypes ?? [], query.resourceType)}
            value={query.resourceType ?? null}
            onChange={(value) => update({ resourceType: value })}
            searchable
            clearable
            w={180}
          />
          <DateField label="From" value={query.from ?? null} onChange={(d) => update({ from: d })} maxDate={query.to} w={160} />
          <DateField label="To" value={query.to ?? null} onChange={(d) => update({ to: d })} minDate={query.from} w={160} />
          {isFiltered ? (
            <Button
              variant="subtle"
              onClick={() => {
                setActor('');
                update({ actor: null, action: null, resourceType: null, from: null, to: null });
              }}
            >
              Clear filters
            </Button>
          ) : null}
        </Group>
      </Paper>

      <Paper withBorder radius="md" aria-busy={list.isFetching}>
        {list.isLoading ? (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading the activity" />
          </Group>
        ) : list.isError ? (
          <Alert color="red" m="md" title={AUDIT_FETCH_FAILED} role="alert">
            {errorMessage(list.error, 'Try again in a moment.')}
          </Alert>
        ) : total === 0 ? (
          <Text c="dimmed" p="xl" ta="center">
            {isFiltered ? 'No activity matches these filters.' : 'No activity yet.'}
          </Text>
        ) : (
          <AuditTable items={list.data!.items} variant="organization" />
        )}
      </Paper>

      {total > 0 ? (
        <Group justify="space-between">
          <Select
            aria-label="Entries per page"
            data={AUDIT_PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} per page` }))}
            value={String(query.pageSize)}
            onChange={(value) => update({ pageSize: value })}
            allowDeselect={false}
            w={150}
          />
          <Pagination
            total={pages}
            value={Math.min(query.page, pages)}
            onChange={(page) => update({ page: String(page) }, true)}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
        </Group>
      ) : null}
    </Stack>
  );
}
