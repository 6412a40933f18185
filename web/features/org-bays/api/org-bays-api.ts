import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AffectedResolution } from '../../../../domain/affected-bookings';
import type { BayCreateInput, BayList, BayListQuery, BayUpdateInput, BayWriteResult } from '../../../../domain/org-bays';
import { api } from '../../../lib/api-client';

// The organization's bays (server: /api/orgs/:orgId/bays…). Query keys start with
// ['org', orgId, 'bays'] so a live update (entity 'bay' or 'site') or any write refreshes them.

export const orgBayKeys = {
  all: (orgId: string) => ['org', orgId, 'bays'] as const,
  list: (orgId: string, query: BayListQuery) => ['org', orgId, 'bays', 'list', query] as const,
};

const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}/bays`;
const one = (orgId: string, bayId: string) => `${base(orgId)}/${encodeURIComponent(bayId)}`;

function toSearch(query: BayListQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

export function bayListQueryOptions(orgId: string, query: BayListQuery) {
  return queryOptions({
    queryKey: orgBayKeys.list(orgId, query),
    queryFn: () => api<BayList>(`${base(orgId)}?${toSearch(query)}`),
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
  useBayWrite<BayCreateInput>(orgId, (input) => api<BayWriteResult>(base(orgId), { method: 'POST', body: input }));

export const useUpdateBay = (orgId: string) =>
  useBayWrite<{ bayId: string; input: BayUpdateInput }>(orgId, ({ bayId, input }) =>
    api<BayWriteResult>(one(orgId, bayId), { method: 'PATCH', body: input }),
  );

export type BayStatusAction = 'deactivate' | 'reactivate';

export const useSetBayActive = (orgId: string) =>
  useBayWrite<{ bayId: string; action: BayStatusAction; resolution?: AffectedResolution }>(orgId, ({ bayId, action, resolution }) =>
    api<BayWriteResult>(`${one(orgId, bayId)}/${action}`, { method: 'POST', body: resolution ? { resolution } : {} }),
  );

export function useDeleteBay(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bayId: string) => api<void>(one(orgId, bayId), { method: 'DELETE' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: orgBayKeys.all(orgId) }),
  });
}
