import type { ReportDimension, ReportKind, ReportRange } from '../../../../domain/reports';

// The reports' query string and query keys (the endpoints are named by their contract keys). The
// keys start with ['org', orgId, 'reports'] — under the organization, so a reconnect refreshes
// them — but no live event names them: reports are figures over past days, not a live board.

/** What one report is asked for: a site-local date range and one site (null: every site). */
export type ReportRequest = ReportRange & { siteId: string | null };

/** The query string of a report (and of its CSV, which may add a grouping). */
export function reportSearch(request: ReportRequest, groupBy?: ReportDimension) {
  return { from: request.from, to: request.to, siteId: request.siteId ?? undefined, groupBy };
}

export const orgReportKeys = {
  all: (orgId: string) => ['org', orgId, 'reports'] as const,
  options: (orgId: string) => ['org', orgId, 'reports', 'options'] as const,
  report: (orgId: string, kind: ReportKind, request: ReportRequest) => ['org', orgId, 'reports', kind, request] as const,
};
