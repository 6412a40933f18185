import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportKind } from '../../../../domain/reports';
import { apiCall, type ApiJsonRoute, type ApiResponse } from '../../../lib/api-client';
import { orgReportKeys, reportSearch, type ReportRequest } from './paths';

/** Each report's operation. */
const REPORT_ROUTES = {
  utilisation: 'GET /api/orgs/:orgId/reports/utilisation',
  punctuality: 'GET /api/orgs/:orgId/reports/punctuality',
  dwell: 'GET /api/orgs/:orgId/reports/dwell',
  'no-shows': 'GET /api/orgs/:orgId/reports/no-shows',
  volume: 'GET /api/orgs/:orgId/reports/volume',
} as const satisfies Record<ReportKind, ApiJsonRoute>;
type ReportRoute = (typeof REPORT_ROUTES)[ReportKind];

/** What each report answers: its operation's response schema (domain/reports.ts). */
export type ReportData = { [K in ReportKind]: ApiResponse<(typeof REPORT_ROUTES)[K]> };

/** GET /api/orgs/{orgId}/reports/{kind}?from&to[&siteId] — one report's figures for its chart and table. */
export async function getReport<K extends ReportKind>(orgId: string, kind: K, request: ReportRequest): Promise<ReportData[K]> {
  const route: ReportRoute = REPORT_ROUTES[kind];
  // The route is the kind's: its answer is that kind's report.
  return (await apiCall(route, { params: { orgId }, query: reportSearch(request) })) as ReportData[K];
}

export function reportQueryOptions<K extends ReportKind>(orgId: string, kind: K, request: ReportRequest) {
  return queryOptions({
    queryKey: orgReportKeys.report(orgId, kind, request),
    queryFn: () => getReport(orgId, kind, request),
    // A new range or site keeps the old figures on screen (dimmed) until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

/** One report; `request` null (no organization yet, or a custom range the schema refuses) asks nothing. */
export function useReport<K extends ReportKind>(orgId: string | null, kind: K, request: ReportRequest | null) {
  const fallback: ReportRequest = { from: '', to: '', siteId: null };
  return useQuery({ ...reportQueryOptions(orgId ?? '', kind, request ?? fallback), enabled: !!orgId && !!request });
}
