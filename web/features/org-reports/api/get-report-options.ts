import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportOptions } from '../../../../domain/reports';
import { apiCall } from '../../../lib/api-client';
import { orgReportKeys } from './paths';

/** GET /api/orgs/{orgId}/reports — the sites the caller may report on, each with its today, and the default range. */
export function getReportOptions(orgId: string): Promise<ReportOptions> {
  return apiCall('GET /api/orgs/:orgId/reports', { params: { orgId } });
}

export function reportOptionsQueryOptions(orgId: string) {
  return queryOptions({ queryKey: orgReportKeys.options(orgId), queryFn: () => getReportOptions(orgId) });
}

export function useReportOptions(orgId: string | null) {
  return useQuery({ ...reportOptionsQueryOptions(orgId ?? ''), enabled: !!orgId });
}
