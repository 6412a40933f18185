import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TenantInput, TenantListQuery, TenantPatch } from '../../../../domain/org-tenants';
import { apiCall } from '../../../lib/api-client';

// The organization's tenants (server: /api/orgs/:orgId/tenants…). Query keys start with
// ['org', orgId, 'tenants'], so a live 'tenant' event or any change here refreshes every view.

export const orgTenantKeys = {
  all: (orgId: string) => ['org', orgId, 'tenants'] as const,
  list: (orgId: string, query: TenantListQuery) => ['org', orgId, 'tenants', 'list', query] as const,
  detail: (orgId: string, id: string) => ['org', orgId, 'tenants', 'detail', id] as const,
  bookings: (orgId: string, id: string, page: number) => ['org', orgId, 'tenants', 'bookings', id, page] as const,
};

export function useTenantList(orgId: string | undefined, query: TenantListQuery) {
  return useQuery({
    queryKey: orgTenantKeys.list(orgId ?? '', query),
    queryFn: () => apiCall('GET /api/orgs/:orgId/tenants', { params: { orgId: orgId! }, query }),
    placeholderData: keepPreviousData,
    enabled: !!orgId,
  });
}

export function useTenant(orgId: string | undefined, id: string | undefined) {
  return useQuery({
    queryKey: orgTenantKeys.detail(orgId ?? '', id ?? ''),
    queryFn: () => apiCall('GET /api/orgs/:orgId/tenants/:tenantId', { params: { orgId: orgId!, tenantId: id! } }),
    enabled: !!orgId && !!id,
  });
}

export function useTenantBookings(orgId: string | undefined, id: string | undefined, page: number) {
  return useQuery({
    queryKey: orgTenantKeys.bookings(orgId ?? '', id ?? '', page),
    queryFn: () => apiCall('GET /api/orgs/:orgId/tenants/:tenantId/bookings', { params: { orgId: orgId!, tenantId: id! }, query: { page } }),
    placeholderData: keepPreviousData,
    enabled: !!orgId && !!id,
  });
}

/** Adds a tenant; the answer is the tenant as stored. */
export function useCreateTenant(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TenantInput) => apiCall('POST /api/orgs/:orgId/tenants', { params: { orgId }, body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orgTenantKeys.all(orgId) }),
  });
}

/** Changes a tenant (any of its fields; block and unblock are a status change). */
export function useUpdateTenant(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: TenantPatch }) =>
      apiCall('PATCH /api/orgs/:orgId/tenants/:tenantId', { params: { orgId, tenantId: id }, body: patch }),
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
      return apiCall('POST /api/orgs/:orgId/tenants/import', { params: { orgId }, body: form });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orgTenantKeys.all(orgId) }),
  });
}
