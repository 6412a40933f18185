import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AuditFilterOptions, AuditList, AuditQuery } from '../../../../domain/audit-log';
import { apiCall, fetchApiFile, saveFile, serverFileName } from '../../../lib/api-client';

// The audit log (server: /api/platform/audit… for platform administrators, /api/orgs/:orgId/audit…
// for an organization's admins). One data layer for both screens: the platform's Audit Log and
// the organization's Settings › Activity.

/** Whose entries: every organization's (platform), or one organization's. */
export type AuditSource = { kind: 'platform' } | { kind: 'org'; orgId: string };

const sourceKey = (source: AuditSource) => (source.kind === 'platform' ? ['platform', 'audit'] : ['org', source.orgId, 'audit']);

export const auditKeys = {
  all: (source: AuditSource) => sourceKey(source),
  list: (source: AuditSource, query: AuditQuery) => [...sourceKey(source), 'list', query] as const,
  options: (source: AuditSource) => [...sourceKey(source), 'filter-options'] as const,
};

/** One page of entries, the platform's or one organization's. */
export function getAuditList(source: AuditSource, query: AuditQuery): Promise<AuditList> {
  return source.kind === 'platform'
    ? apiCall('GET /api/platform/audit', { query })
    : apiCall('GET /api/orgs/:orgId/audit', { params: { orgId: source.orgId }, query });
}

export function getAuditFilterOptions(source: AuditSource): Promise<AuditFilterOptions> {
  return source.kind === 'platform'
    ? apiCall('GET /api/platform/audit/filters')
    : apiCall('GET /api/orgs/:orgId/audit/filters', { params: { orgId: source.orgId } });
}

export function auditListQueryOptions(source: AuditSource, query: AuditQuery) {
  return queryOptions({
    queryKey: auditKeys.list(source, query),
    queryFn: () => getAuditList(source, query),
    placeholderData: keepPreviousData,
  });
}

/** One page of entries; nothing is asked while `source` is unknown (no organization chosen yet). */
export function useAuditList(source: AuditSource | null, query: AuditQuery) {
  return useQuery({ ...auditListQueryOptions(source ?? { kind: 'platform' }, query), enabled: !!source });
}

/** The filters' choices: organizations (platform only), actions and resource types recorded. */
export function useAuditFilterOptions(source: AuditSource | null) {
  return useQuery({
    queryKey: auditKeys.options(source ?? { kind: 'platform' }),
    queryFn: () => getAuditFilterOptions(source!),
    enabled: !!source,
    staleTime: 60_000,
  });
}

/** Downloads the filtered entries as CSV with the session's token (a plain link could not carry it). */
export async function downloadAuditCsv(source: AuditSource, query: AuditQuery): Promise<{ rows: number; total: number }> {
  const { page: _page, pageSize: _pageSize, ...filters } = query;
  const failure = 'The CSV could not be downloaded';
  const response =
    source.kind === 'platform'
      ? await fetchApiFile('GET /api/platform/audit/csv', { query: filters, failure })
      : await fetchApiFile('GET /api/orgs/:orgId/audit/csv', { params: { orgId: source.orgId }, query: filters, failure });
  await saveFile(response, serverFileName(response, 'audit-log.csv'));
  return { rows: Number(response.headers.get('x-row-count') ?? 0), total: Number(response.headers.get('x-total-count') ?? 0) };
}

/** The CSV download as a small state machine: whether it runs, and a run that refreshes the list afterwards (the export is itself audited). */
export function useDownloadAuditCsv(source: AuditSource | null) {
  const queryClient = useQueryClient();
  const [isDownloading, setDownloading] = useState(false);
  const download = async (query: AuditQuery) => {
    if (!source) return null;
    setDownloading(true);
    try {
      return await downloadAuditCsv(source, query);
    } finally {
      setDownloading(false);
      void queryClient.invalidateQueries({ queryKey: auditKeys.all(source) });
    }
  };
  return { download, isDownloading };
}
