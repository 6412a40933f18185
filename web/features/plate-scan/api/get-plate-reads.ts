import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PlateReadList } from '../../../../domain/plate-reads';
import { apiCall } from '../../../lib/api-client';

// GET /api/sites/:siteId/plate-reads — the site's reads still to resolve (unmatched and ambiguous),
// newest first, 20 a page. Keyed under ['org', orgId, 'plate-reads'] so a plate_read event (a new
// read anywhere at the organization, or one resolved or ignored) refreshes it.

export const plateReadKeys = {
  all: (orgId: string) => ['org', orgId, 'plate-reads'] as const,
  site: (orgId: string, siteId: string) => ['org', orgId, 'plate-reads', siteId] as const,
  unresolved: (orgId: string, siteId: string, page: number) => ['org', orgId, 'plate-reads', siteId, 'unresolved', page] as const,
};

export function getUnresolvedPlateReads(siteId: string, page: number): Promise<PlateReadList> {
  return apiCall('GET /api/sites/:siteId/plate-reads', { params: { siteId }, query: { page } });
}

export function unresolvedPlateReadsQueryOptions(orgId: string, siteId: string, page: number) {
  return queryOptions({
    queryKey: plateReadKeys.unresolved(orgId, siteId, page),
    queryFn: () => getUnresolvedPlateReads(siteId, page),
    placeholderData: keepPreviousData,
  });
}

export function useUnresolvedPlateReads(orgId: string, siteId: string, page: number) {
  return useQuery(unresolvedPlateReadsQueryOptions(orgId, siteId, page));
}
