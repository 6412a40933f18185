import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AffectedResolution } from '../../../../domain/affected-bookings';
import type { BayCreateInput, BayListQuery, BayUpdateInput, BayWriteResult } from '../../../../domain/org-bays';
import { apiCall } from '../../../lib/api-client';

// The organization's bays (server: /api/orgs/:orgId/bays…). Query keys start with
// ['org', orgId, 'bays'] so a live update (entity 'bay' or 'site') or any write refreshes them.

export const orgBayKeys = {
  all: (orgId: string) => ['org', orgId, 'bays'] as const,
  list: (orgId: string, query: BayListQuery) => ['org', orgId, 'bays', 'list', query] as const,
};

export function bayListQueryOptions(orgId: string, query: BayListQuery) {
  return queryOptions({
    queryKey: orgBayKeys.list(orgId, query),
    queryFn: () => apiCall('GET /api/orgs/:orgId/bays', { params: { orgId }, query }),
    placeholderData: keepPreviousData,
  });
}

export function useBayList(orgId: string | undefined, query: BayListQuery) {
  return useQuery({ ...bayListQueryOptions(orgId ?? '', query), enabled: !!orgId });
}

/** Every write answers the bay as it now is and the outcomes of the bookings it affected. */
function useBayWrite<I>(orgId: string, send: (input: I) => Promise<BayWriteResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    // Bookings may have moved or been cancelled too: the whole organization's views refresh.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['org', orgId] }),
  });
}

export const useCreateBay = (orgId: string) =>
  useBayWrite<BayCreateInput>(orgId, (input) => apiCall('POST /api/orgs/:orgId/bays', { params: { orgId }, body: input }));

export const useUpdateBay = (orgId: string) =>
  useBayWrite<{ bayId: string; input: BayUpdateInput }>(orgId, ({ bayId, input }) =>
    apiCall('PATCH /api/orgs/:orgId/bays/:bayId', { params: { orgId, bayId }, body: input }),
  );

export type BayStatusAction = 'deactivate' | 'reactivate';

export const useSetBayActive = (orgId: string) =>
  useBayWrite<{ bayId: string; action: BayStatusAction; resolution?: AffectedResolution }>(orgId, ({ bayId, action, resolution }) =>
    action === 'deactivate'
      ? apiCall('POST /api/orgs/:orgId/bays/:bayId/deactivate', { params: { orgId, bayId }, body: resolution ? { resolution } : {} })
      : apiCall('POST /api/orgs/:orgId/bays/:bayId/reactivate', { params: { orgId, bayId } }),
  );

export function useDeleteBay(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bayId: string) => apiCall('DELETE /api/orgs/:orgId/bays/:bayId', { params: { orgId, bayId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: orgBayKeys.all(orgId) }),
  });
}
