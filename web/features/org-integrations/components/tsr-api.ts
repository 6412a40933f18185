import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TsrConnectionInput, TsrLinkSystem } from '../../../../domain/webhooks';
import { apiCall } from '../../../lib/api-client';

// TSR connections (server: /api/orgs/:orgId/tsr-connections…): ServiceNow / FMClarity, and each
// one's delivery log (the work notes posted).

export const tsrKeys = {
  list: (orgId: string) => ['org', orgId, 'tsr-connections'] as const,
  deliveries: (orgId: string, system: TsrLinkSystem | '', page: number) => ['org', orgId, 'tsr-connections', 'deliveries', system, page] as const,
};

export function useTsrConnections(orgId: string | undefined) {
  return useQuery({ queryKey: tsrKeys.list(orgId ?? ''), queryFn: () => apiCall('GET /api/orgs/:orgId/tsr-connections', { params: { orgId: orgId! } }), enabled: !!orgId });
}

export function useSaveTsrConnection(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TsrConnectionInput) => apiCall('PUT /api/orgs/:orgId/tsr-connections', { params: { orgId }, body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tsrKeys.list(orgId) }),
  });
}

export function useDeleteTsrConnection(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (system: TsrLinkSystem) => apiCall('DELETE /api/orgs/:orgId/tsr-connections/:system', { params: { orgId, system } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tsrKeys.list(orgId) }),
  });
}

/** A connection's log page: the work notes, latest first, each with its booking (asked for once a connection is open). */
export function tsrDeliveriesQuery(orgId: string, system: TsrLinkSystem | '', page: number) {
  return {
    queryKey: tsrKeys.deliveries(orgId, system, page),
    queryFn: () => {
      if (!system) throw new Error('No TSR connection is open');
      return apiCall('GET /api/orgs/:orgId/tsr-connections/:system/deliveries', { params: { orgId, system }, query: { page } });
    },
  };
}

export function useRedeliverTsrNote(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ system, deliveryId }: { system: TsrLinkSystem; deliveryId: string }) =>
      apiCall('POST /api/orgs/:orgId/tsr-connections/:system/deliveries/:deliveryId/redeliver', { params: { orgId, system, deliveryId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tsrKeys.list(orgId) }),
  });
}
