import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Schedule } from '../../../../domain/org-schedule';
import { apiCall } from '../../../lib/api-client';

// GET /api/orgs/:orgId/schedule — one site's bays, live bookings and blackouts over site-local days.
// The key starts with ['org', orgId, 'schedule'] so a live update or any booking move refreshes it.

export const orgScheduleKeys = {
  all: (orgId: string) => ['org', orgId, 'schedule'] as const,
  range: (orgId: string, siteId: string, from: string, to: string) => ['org', orgId, 'schedule', siteId, from, to] as const,
};

export type ScheduleRange = { orgId: string; siteId: string; from: string; to: string };

export function getOrgSchedule({ orgId, siteId, from, to }: ScheduleRange): Promise<Schedule> {
  return apiCall('GET /api/orgs/:orgId/schedule', { params: { orgId }, query: { siteId, from, to } });
}

export function orgScheduleQueryOptions(range: ScheduleRange) {
  return queryOptions({
    queryKey: orgScheduleKeys.range(range.orgId, range.siteId, range.from, range.to),
    queryFn: () => getOrgSchedule(range),
    // Moving between days keeps the last answer on screen until the next arrives.
    placeholderData: keepPreviousData,
  });
}

export function useOrgSchedule(range: Partial<ScheduleRange> & { from: string; to: string }) {
  const isReady = !!range.orgId && !!range.siteId;
  return useQuery({ ...orgScheduleQueryOptions(range as ScheduleRange), enabled: isReady });
}
