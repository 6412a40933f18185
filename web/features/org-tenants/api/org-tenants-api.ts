import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TenantBookings,
  TenantDetail,
  TenantImportResult,
  TenantInput,
  TenantList,
  TenantListQuery,
  TenantPatch,
} from '../../../../domain/org-tenants';
import { api } from '../../../lib/api-client';

// The organization's tenants (server: /api/orgs/:orgId/tenants…). Query keys start with
// ['org', orgId, 'tenants'], so a live 'tenant' event or any change here refreshes every view.

export const orgTenantKeys = {
  all: (orgId: string) => ['org', orgId, 'tenants'] as const,
  list: (orgId: string, query: TenantListQuery) => ['org', orgId, 'tenants', 'list', query] as const,
  detail: (orgId: string, id: string) => ['org', orgId, 'tenants', 'detail', id] as const,
  bookings: (orgId: string, id: string, page: number) => ['org', orgId, 'tenants', 'bookings', id, page] as const,
};

const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}/tenants`;

function toSearch(query: TenantListQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

export function useTenantList(orgId: string | undefined, query: TenantListQuery) {
  return useQuery({
    queryKey: orgTenantKeys.list(orgId ?? '', query),
    queryFn: () => api<TenantList>(`${base(orgId!)}?${toSearch(query)}`),
    placeholderData: keepPreviousData,
    enabled: !!orgId,
  });
}

export function useTenant(orgId: string | undefined, id: string | undefined) {
  return useQuery({
    queryKey: orgTenantKeys.detail(orgId ?? '', id ?? ''),
    queryFn: () => api<TenantDetail>(`${base(orgId!)}/${encodeURIComponent(id!)}`),
    enabled: !!orgId && !!id,
  });
}

export function useTenantBookings(orgId: string | undefined, id: string | undefined, page: number) {
  return useQuery({
    queryKey: orgTenantKeys.bookings(orgId ?? '', id ?? '', page),
    queryFn: () => api<TenantBookings>(`${base(orgId!)}/${encodeURIComponent(id!)}/bookings?page=${page}`),
    placeholderData: keepPreviousData,
    enabled: !!orgId && !!id,
  });
}

/** Adds a tenant; the answer is the tenant as stored. */
export function useCreateTenant(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TenantInput) => api<TenantDetail>(base(orgId), { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orgTenantKeys.all(orgId) }),
  });
}

/** Changes a tenant (any of its fields; block and unblock are a status change). */
export function useUpdateTenant(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: TenantPatch }) =>
      api<TenantDetail>(`${base(orgId)}/${encodeURIComponent(id)}`, { method: 'PATCH', body: patch }),
    onSuccess: (tenant) => {
      queryClient.setQueryData(orgTenantKeys.detail(orgId, tenant.id), tenant);
      return queryClient.invalidateQueries({ queryKey: orgTenantKeys.all(orgId) });
    },
  });
}

/** Imports a CSV file, all or nothing; a refusal carries details.errors [{row, column, message}]. */
export function useImportTenants(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return api<TenantImportResult>(`${base(orgId)}/import`, { method: 'POST', body: form });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orgTenantKeys.all(orgId) }),
  });
}
