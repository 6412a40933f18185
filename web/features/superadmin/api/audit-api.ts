import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AuditFilterOptions, AuditList, AuditQuery } from '../../../../domain/audit-log';
import { ApiError, api, currentAccessToken } from '../../../lib/api-client';

// The audit log (server: /api/platform/audit… for platform administrators, /api/orgs/:orgId/audit…
// for an organization's admins). One data layer for both screens: the platform's Audit Log and
// the organization's Settings › Activity.

/** Whose entries: every organization's (platform), or one organization's. */
export type AuditSource = { kind: 'platform' } | { kind: 'org'; orgId: string };


const base = (source: AuditSource) =>
  source.kind === 'platform' ? '/api/platform/audit' : `/api/orgs/${encodeURIComponent(source.orgId)}/audit`;

const sourceKey = (source: AuditSource) => (source.kind === 'platform' ? ['platform', 'audit'] : ['org', source.orgId, 'audit']);

export const auditKeys = {
  all: (source: AuditSource) => sourceKey(source),
  list: (source: AuditSource, query: AuditQuery) => [...sourceKey(source), 'list', query] as const,
  options: (source: AuditSource) => [...sourceKey(source), 'filter-options'] as const,
};

function toSearch(query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue;
    params.set(key, String(value));
  }
  return params.toString();
}

export function auditListQueryOptions(source: AuditSource, query: AuditQuery) {
  return queryOptions({
    queryKey: auditKeys.list(source, query),
    queryFn: () => api<AuditList>(`${base(source)}?${toSearch(query)}`),
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
    queryFn: () => api<AuditFilterOptions>(`${base(source!)}/filters`),
    enabled: !!source,
    staleTime: 60_000,
  });
}

/** The file name the server gave in Content-Disposition, or a fallback. */
function fileNameOf(response: Response, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? fallback;
}

/** Downloads the filtered entries as CSV with the session's token (a plain link could not carry it). */
export async function downloadAuditCsv(source: AuditSource, query: AuditQuery): Promise<{ rows: number; total: number }> {
  const { page: _page, pageSize: _pageSize, ...filters } = query;
  const token = currentAccessToken();
  let response: Response;
  try {
    response = await fetch(`${base(source)}/csv?${toSearch(filters)}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    throw new ApiError(response.status, body?.error?.code ?? 'download_failed', body?.error?.message ?? `The CSV could not be downloaded (${response.status})`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response, 'audit-log.csv');
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
