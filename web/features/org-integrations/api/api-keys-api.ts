import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, ApiKeyCreateInput, ApiKeyList, CreatedApiKey } from '../../../../domain/api-keys';
import type { TenantList } from '../../../../domain/org-tenants';
import { api } from '../../../lib/api-client';

// Settings › Integrations › API keys (server: /api/orgs/:orgId/api-keys…). Keys start with
// ['org', orgId, …] so the organization's live events refresh them.

export const apiKeyKeys = {
  all: (orgId: string) => ['org', orgId, 'api-keys'] as const,
  page: (orgId: string, page: number) => ['org', orgId, 'api-keys', page] as const,
  tenants: (orgId: string, q: string) => ['org', orgId, 'api-keys', 'tenant-options', q] as const,
};

const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}/api-keys`;

export function useApiKeys(orgId: string | undefined, page: number) {
  return useQuery({
    queryKey: apiKeyKeys.page(orgId ?? '', page),
    queryFn: () => api<ApiKeyList>(`${base(orgId!)}?page=${page}`),
    enabled: !!orgId,
    placeholderData: keepPreviousData,
  });
}

export function useCreateApiKey(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ApiKeyCreateInput) => api<CreatedApiKey>(base(orgId), { method: 'POST', body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeyKeys.all(orgId) }),
  });
}

export function useRevokeApiKey(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => api<ApiKey>(`${base(orgId)}/${encodeURIComponent(keyId)}/revoke`, { method: 'POST' }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: apiKeyKeys.all(orgId) }),
  });
}

/** The organization's active tenants matching `q` (first page), to choose the tenant a key acts for. */
export function useTenantOptions(orgId: string | undefined, q: string) {
  return useQuery({
    queryKey: apiKeyKeys.tenants(orgId ?? '', q),
    queryFn: () => api<TenantList>(`/api/orgs/${encodeURIComponent(orgId!)}/tenants?status=active${q ? `&q=${encodeURIComponent(q)}` : ''}`),
    enabled: !!orgId,
    placeholderData: keepPreviousData,
  });
}
