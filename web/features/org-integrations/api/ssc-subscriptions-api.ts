import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

// Settings › Integrations › Carrier subscriptions (server: /api/orgs/:orgId/ssc-subscriptions…):
// the SSC webhook subscriptions carriers made through the API, each one's log, and removal.

export const sscSubscriptionKeys = {
  all: (orgId: string) => ['org', orgId, 'ssc-subscriptions'] as const,
  list: (orgId: string) => ['org', orgId, 'ssc-subscriptions', 'list'] as const,
  deliveries: (orgId: string, id: string, page: number) => ['org', orgId, 'ssc-subscriptions', 'deliveries', id, page] as const,
};

export function useSscSubscriptions(orgId: string | undefined) {
  return useQuery({ queryKey: sscSubscriptionKeys.list(orgId ?? ''), queryFn: () => apiCall('GET /api/orgs/:orgId/ssc-subscriptions', { params: { orgId: orgId! } }), enabled: !!orgId });
}

/** A subscription's log page: what was posted to its callback URL, latest first. */
export function sscDeliveriesQuery(orgId: string, id: string, page: number) {
  return {
    queryKey: sscSubscriptionKeys.deliveries(orgId, id, page),
    queryFn: () => apiCall('GET /api/orgs/:orgId/ssc-subscriptions/:subscriptionId/deliveries', { params: { orgId, subscriptionId: id }, query: { page } }),
  };
}

/** Posts a delivered or failed event to the callback again (a new delivery in the log). */
export function useRedeliverSscEvent(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, deliveryId }: { id: string; deliveryId: string }) =>
      apiCall('POST /api/orgs/:orgId/ssc-subscriptions/:subscriptionId/deliveries/:deliveryId/redeliver', { params: { orgId, subscriptionId: id, deliveryId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sscSubscriptionKeys.all(orgId) }),
  });
}

export function useDeleteSscSubscription(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall('DELETE /api/orgs/:orgId/ssc-subscriptions/:subscriptionId', { params: { orgId, subscriptionId: id } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sscSubscriptionKeys.all(orgId) }),
  });
}
