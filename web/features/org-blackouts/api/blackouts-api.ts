import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BlackoutListQuery, CreateBlackoutInput, CreateSeriesInput, UpdateBlackoutInput, UpdateSeriesInput } from '../../../../domain/org-blackouts';
import { apiCall } from '../../../lib/api-client';

// The organization's blackouts (server: /api/orgs/:orgId/blackouts… and /blackout-series…).
// Query keys start with ['org', orgId, 'blackouts'] so a live update or any write refreshes them.

export const blackoutKeys = {
  all: (orgId: string) => ['org', orgId, 'blackouts'] as const,
  list: (orgId: string, query: BlackoutListQuery) => ['org', orgId, 'blackouts', 'list', query] as const,
  series: (orgId: string, siteId: string | undefined) => ['org', orgId, 'blackouts', 'series', siteId ?? 'all'] as const,
  options: (orgId: string) => ['org', orgId, 'blackouts', 'options'] as const,
};

export function blackoutListQueryOptions(orgId: string, query: BlackoutListQuery) {
  return queryOptions({
    queryKey: blackoutKeys.list(orgId, query),
    queryFn: () => apiCall('GET /api/orgs/:orgId/blackouts', { params: { orgId }, query }),
    placeholderData: keepPreviousData,
  });
}

export function useBlackoutList(orgId: string | undefined, query: BlackoutListQuery) {
  return useQuery({ ...blackoutListQueryOptions(orgId ?? '', query), enabled: !!orgId });
}

export function useBlackoutSeries(orgId: string | undefined, siteId: string | undefined) {
  return useQuery({
    queryKey: blackoutKeys.series(orgId ?? '', siteId),
    queryFn: () => apiCall('GET /api/orgs/:orgId/blackout-series', { params: { orgId: orgId! }, query: { siteId } }),
    enabled: !!orgId,
    placeholderData: keepPreviousData,
  });
}

/** The sites (time zone, today) and bays a blackout can close. */
export function useBlackoutOptions(orgId: string | undefined) {
  return useQuery({
    queryKey: blackoutKeys.options(orgId ?? ''),
    queryFn: () => apiCall('GET /api/orgs/:orgId/blackout-options', { params: { orgId: orgId! } }),
    enabled: !!orgId,
    staleTime: 60_000,
  });
}

/** Every write refreshes the organization's views (blackouts, and the bookings a resolution moved). */
function useOrgWrite<I, R>(orgId: string, request: (input: I) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['org', orgId] }),
  });
}

export const useCreateBlackout = (orgId: string) =>
  useOrgWrite(orgId, (input: CreateBlackoutInput) => apiCall('POST /api/orgs/:orgId/blackouts', { params: { orgId }, body: input }));

export const useUpdateBlackout = (orgId: string) =>
  useOrgWrite(orgId, ({ id, input }: { id: string; input: UpdateBlackoutInput }) =>
    apiCall('PATCH /api/orgs/:orgId/blackouts/:blackoutId', { params: { orgId, blackoutId: id }, body: input }),
  );

export const useDeleteBlackout = (orgId: string) =>
  useOrgWrite(orgId, (id: string) => apiCall('DELETE /api/orgs/:orgId/blackouts/:blackoutId', { params: { orgId, blackoutId: id } }));

export const useCreateSeries = (orgId: string) =>
  useOrgWrite(orgId, (input: CreateSeriesInput) => apiCall('POST /api/orgs/:orgId/blackout-series', { params: { orgId }, body: input }));

export const useUpdateSeries = (orgId: string) =>
  useOrgWrite(orgId, ({ id, input }: { id: string; input: UpdateSeriesInput }) =>
    apiCall('PATCH /api/orgs/:orgId/blackout-series/:seriesId', { params: { orgId, seriesId: id }, body: input }),
  );

export const useDeleteSeries = (orgId: string) =>
  useOrgWrite(orgId, (id: string) => apiCall('DELETE /api/orgs/:orgId/blackout-series/:seriesId', { params: { orgId, seriesId: id } }));
