import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyCreateInput } from '../../../../domain/api-keys';
import { apiCall } from '../../../lib/api-client';

// Settings › Integrations › API keys (server: /api/orgs/:orgId/api-keys…). Keys start with
// ['org', orgId, …] so the organization's live events refresh them.

export const apiKeyKeys = {
  all: (orgId: string) => ['org', orgId, 'api-keys'] as const,
  page: (orgId: string, page: number) => ['org', orgId, 'api-keys', page] as const,
  tenants: (orgId: string, q: string) => ['org', orgId, 'api-keys', 'tenant-options', q] as const,
};

export function useApiKeys(orgId: string | undefined, page: number) {
  return useQuery({
    queryKey: apiKeyKeys.page(orgId ?? '', page),
    queryFn: () => apiCall('GET /api/orgs/:orgId/api-keys', { params: { orgId: orgId! }, query: { page } }),
    enabled: !!orgId,
    placeholderData: keepPreviousData,
  });
}

export function useCreateApiKey(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ApiKeyCreateInput) => apiCall('POST /api/orgs/:orgId/api-keys', { params: { orgId }, body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeyKeys.all(orgId) }),
  });
}

export function useRevokeApiKey(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => apiCall('POST /api/orgs/:orgId/api-keys/:keyId/revoke', { params: { orgId, keyId } }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: apiKeyKeys.all(orgId) }),
  });
}

/** The organization's active tenants matching `q` (first page), to choose the tenant a key acts for. */
export function useTenantOptions(orgId: string | undefined, q: string) {
  return useQuery({
    queryKey: apiKeyKeys.tenants(orgId ?? '', q),
    queryFn: () => apiCall('GET /api/orgs/:orgId/tenants', { params: { orgId: orgId! }, query: { status: 'active', q } }),
    enabled: !!orgId,
    placeholderData: keepPreviousData,
  });
}
