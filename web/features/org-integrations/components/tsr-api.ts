import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TsrConnection, TsrConnectionInput, TsrDelivery, TsrDeliveryList, TsrLinkSystem } from '../../../../domain/webhooks';
import { api } from '../../../lib/api-client';

// TSR connections (server: /api/orgs/:orgId/tsr-connections…): ServiceNow / FMClarity, and each
// one's delivery log (the work notes posted).

export const tsrKeys = {
  list: (orgId: string) => ['org', orgId, 'tsr-connections'] as const,
  deliveries: (orgId: string, system: TsrLinkSystem | '', page: number) => ['org', orgId, 'tsr-connections', 'deliveries', system, page] as const,
};
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

/** A connection's log page: the work notes, latest first, each with its booking. */
export function tsrDeliveriesQuery(orgId: string, system: TsrLinkSystem | '', page: number) {
  return {
    queryKey: tsrKeys.deliveries(orgId, system, page),
    queryFn: () => api<TsrDeliveryList>(`${base(orgId)}/${system}/deliveries?page=${page}`),
  };
}

export function useRedeliverTsrNote(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ system, deliveryId }: { system: TsrLinkSystem; deliveryId: string }) =>
      api<TsrDelivery>(`${base(orgId)}/${system}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, { method: 'POST' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tsrKeys.list(orgId) }),
  });
}
