import type { ReportDimension, ReportKind, ReportRange } from '../../../../domain/reports';

// The reports' endpoints (server: /api/orgs/:orgId/reports…) and query keys, in one place. The keys
// start with ['org', orgId, 'reports'] — under the organization, so a reconnect refreshes them —
// but no live event names them: reports are figures over past days, not a live board.

/** What one report is asked for: a site-local date range and one site (null: every site). */
export type ReportRequest = ReportRange & { siteId: string | null };

const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}/reports`;

function search(request: ReportRequest, groupBy?: ReportDimension): string {
  const params = new URLSearchParams({ from: request.from, to: request.to });
  if (request.siteId) params.set('siteId', request.siteId);
  if (groupBy) params.set('groupBy', groupBy);
  return params.toString();
}

export const orgReportPaths = {
  options: (orgId: string) => base(orgId),
  report: (orgId: string, kind: ReportKind, request: ReportRequest) => `${base(orgId)}/${kind}?${search(request)}`,
  csv: (orgId: string, kind: ReportKind, request: ReportRequest, groupBy?: ReportDimension) => `${base(orgId)}/${kind}.csv?${search(request, groupBy)}`,
} as const;

export const orgReportKeys = {
  all: (orgId: string) => ['org', orgId, 'reports'] as const,
  options: (orgId: string) => ['org', orgId, 'reports', 'options'] as const,
  report: (orgId: string, kind: ReportKind, request: ReportRequest) => ['org', orgId, 'reports', kind, request] as const,
};
