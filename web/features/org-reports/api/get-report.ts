import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DwellReport, NoShowReport, PunctualityReport, ReportKind, UtilisationReport, VolumeReport } from '../../../../domain/reports';
import { api } from '../../../lib/api-client';
import { orgReportKeys, orgReportPaths, type ReportRequest } from './paths';

/** What each report answers (domain/reports.ts). */
export type ReportData = {
  utilisation: UtilisationReport;
  punctuality: PunctualityReport;
  dwell: DwellReport;
  'no-shows': NoShowReport;
  volume: VolumeReport;
};

/** GET /api/orgs/{orgId}/reports/{kind}?from&to[&siteId] — one report's figures for its chart and table. */
export function getReport<K extends ReportKind>(orgId: string, kind: K, request: ReportRequest): Promise<ReportData[K]> {
  return api<ReportData[K]>(orgReportPaths.report(orgId, kind, request));
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
