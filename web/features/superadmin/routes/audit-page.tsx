import { Alert, Button, Group, Loader, Pagination, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import {
  AUDIT_CSV_MAX_ROWS,
  AUDIT_FETCH_FAILED,
  AUDIT_PAGE_SIZES,
  auditQueryFromParams,
  isAuditFiltered,
} from '../../../../domain/audit-log';
import { errorMessage } from '../../../lib/api-client';
import { formatCount } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { useListParams } from '../../../lib/use-list-params';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAuditFilterOptions, useAuditList, useDownloadAuditCsv, type AuditSource } from '../api/audit-api';
import { AuditFilters } from '../components/audit/audit-filters';
import { AuditTable } from '../../../components/audit/audit-table';

// /superadmin/audit (issue 12): every audit entry of the platform, newest first (spec §7), 20 a
// page by default (spec §9), with its organization's name. The filters and the page live in the
// address; Download CSV takes the same filters. Spec §8: 'Failed to fetch audit log'.

const PLATFORM: AuditSource = { kind: 'platform' };
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export default function AuditPage() {
  usePageTitle('Audit Log');
  const { params, update } = useListParams();
  const query = auditQueryFromParams(params, { withOrganization: true, timeZone: browserTimeZone() });
  const list = useAuditList(PLATFORM, query);
  const options = useAuditFilterOptions(PLATFORM);
  const csv = useDownloadAuditCsv(PLATFORM);

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / query.pageSize));
  const isFiltered = isAuditFiltered(query);

  const download = async () => {
    try {
      const result = await csv.download(query);
      if (result) toast.success('CSV downloaded', `${formatCount(result.rows)} ${result.rows === 1 ? 'entry' : 'entries'} saved.`);
    } catch (error) {
      toast.error('Download failed', errorMessage(error, 'The CSV could not be downloaded.'));
    }
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Audit Log
          </Title>
          <Text c="dimmed" size="sm">
            Who did what, when, in which organization — newest first.
            {list.data ? ` ${formatCount(total)} ${total === 1 ? 'entry' : 'entries'}${isFiltered ? (total === 1 ? ' matches' : ' match') : ''}.` : ''}
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

      <AuditFilters query={query} options={options.data} onChange={(changes) => update(changes)} />

      {total > AUDIT_CSV_MAX_ROWS ? (
        <Text size="sm" c="dimmed">
          The CSV holds the newest {formatCount(AUDIT_CSV_MAX_ROWS)} of these {formatCount(total)} entries: narrow the filters for older ones.
        </Text>
      ) : null}

      <Paper withBorder radius="md" pos="relative" aria-busy={list.isFetching}>
        {list.isLoading ? (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading the audit log" />
          </Group>
        ) : list.isError ? (
          <Alert color="red" m="md" title={AUDIT_FETCH_FAILED} role="alert">
            {errorMessage(list.error, 'Try again in a moment.')}
          </Alert>
        ) : total === 0 ? (
          <Text c="dimmed" p="xl" ta="center">
            {isFiltered ? 'No audit entries match these filters.' : 'No audit entries yet.'}
          </Text>
        ) : (
          <AuditTable items={list.data!.items} variant="platform" />
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
