import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TsrConnection, TsrConnectionInput, TsrLinkSystem } from '../../../../domain/webhooks';
import { api } from '../../../lib/api-client';

// TSR connections (server: /api/orgs/:orgId/tsr-connections…): ServiceNow / FMClarity.

export const tsrKeys = { list: (orgId: string) => ['org', orgId, 'tsr-connections'] as const };
const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}/tsr-connections`;

export function useTsrConnections(orgId: string | undefined) {
  return useQuery({ queryKey: tsrKeys.list(orgId ?? ''), queryFn: () => api<{ items: TsrConnection[] }>(base(orgId!)), enabled: !!orgId });
}

export function useSaveTsrConnection(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TsrConnectionInput) => api<TsrConnection>(base(orgId), { method: 'PUT', body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tsrKeys.list(orgId) }),
  });
}

export function useDeleteTsrConnection(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (system: TsrLinkSystem) => api<void>(`${base(orgId)}/${system}`, { method: 'DELETE' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tsrKeys.list(orgId) }),
  });
}
