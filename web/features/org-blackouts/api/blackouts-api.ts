import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BlackoutList,
  BlackoutListQuery,
  BlackoutOptions,
  BlackoutSeries,
  BlackoutWriteResult,
  CreateBlackoutInput,
  CreateSeriesInput,
  SeriesWriteResult,
  UpdateBlackoutInput,
  UpdateSeriesInput,
} from '../../../../domain/org-blackouts';
import { api } from '../../../lib/api-client';

// The organization's blackouts (server: /api/orgs/:orgId/blackouts… and /blackout-series…).
// Query keys start with ['org', orgId, 'blackouts'] so a live update or any write refreshes them.

export const blackoutKeys = {
  all: (orgId: string) => ['org', orgId, 'blackouts'] as const,
  list: (orgId: string, query: BlackoutListQuery) => ['org', orgId, 'blackouts', 'list', query] as const,
  series: (orgId: string, siteId: string | undefined) => ['org', orgId, 'blackouts', 'series', siteId ?? 'all'] as const,
  options: (orgId: string) => ['org', orgId, 'blackouts', 'options'] as const,
};

const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}`;

function toSearch(query: BlackoutListQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

export function blackoutListQueryOptions(orgId: string, query: BlackoutListQuery) {
  return queryOptions({
    queryKey: blackoutKeys.list(orgId, query),
    queryFn: () => api<BlackoutList>(`${base(orgId)}/blackouts?${toSearch(query)}`),
    placeholderData: keepPreviousData,
  });
}

export function useBlackoutList(orgId: string | undefined, query: BlackoutListQuery) {
  return useQuery({ ...blackoutListQueryOptions(orgId ?? '', query), enabled: !!orgId });
}

export function useBlackoutSeries(orgId: string | undefined, siteId: string | undefined) {
  return useQuery({
    queryKey: blackoutKeys.series(orgId ?? '', siteId),
    queryFn: () => api<{ items: BlackoutSeries[] }>(`${base(orgId!)}/blackout-series${siteId ? `?siteId=${encodeURIComponent(siteId)}` : ''}`),
    enabled: !!orgId,
    placeholderData: keepPreviousData,
  });
}

/** The sites (time zone, today) and bays a blackout can close. */
export function useBlackoutOptions(orgId: string | undefined) {
  return useQuery({
    queryKey: blackoutKeys.options(orgId ?? ''),
    queryFn: () => api<BlackoutOptions>(`${base(orgId!)}/blackout-options`),
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
  useOrgWrite(orgId, (input: CreateBlackoutInput) => api<BlackoutWriteResult>(`${base(orgId)}/blackouts`, { method: 'POST', body: input }));

export const useUpdateBlackout = (orgId: string) =>
  useOrgWrite(orgId, ({ id, input }: { id: string; input: UpdateBlackoutInput }) =>
    api<BlackoutWriteResult>(`${base(orgId)}/blackouts/${encodeURIComponent(id)}`, { method: 'PATCH', body: input }),
  );

export const useDeleteBlackout = (orgId: string) =>
  useOrgWrite(orgId, (id: string) => api<void>(`${base(orgId)}/blackouts/${encodeURIComponent(id)}`, { method: 'DELETE' }));

export const useCreateSeries = (orgId: string) =>
  useOrgWrite(orgId, (input: CreateSeriesInput) => api<SeriesWriteResult>(`${base(orgId)}/blackout-series`, { method: 'POST', body: input }));

export const useUpdateSeries = (orgId: string) =>
  useOrgWrite(orgId, ({ id, input }: { id: string; input: UpdateSeriesInput }) =>
    api<SeriesWriteResult>(`${base(orgId)}/blackout-series/${encodeURIComponent(id)}`, { method: 'PATCH', body: input }),
  );

export const useDeleteSeries = (orgId: string) =>
  useOrgWrite(orgId, (id: string) =>
    api<{ deletedOccurrences: number; keptOccurrences: number }>(`${base(orgId)}/blackout-series/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );
