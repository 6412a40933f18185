import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookEndpointInput, WebhookEndpointPatch } from '../../../../domain/webhooks';
import { apiCall } from '../../../lib/api-client';

// Integrations → Webhooks (server: /api/orgs/:orgId/webhooks…). Keys start with
// ['org', orgId, 'webhooks'], so any change here refreshes the list and the open log.

export const webhookKeys = {
  all: (orgId: string) => ['org', orgId, 'webhooks'] as const,
  list: (orgId: string) => ['org', orgId, 'webhooks', 'list'] as const,
  deliveries: (orgId: string, endpointId: string, page: number) => ['org', orgId, 'webhooks', 'deliveries', endpointId, page] as const,
};

export function useWebhookEndpoints(orgId: string | undefined) {
  return useQuery({
    queryKey: webhookKeys.list(orgId ?? ''),
    queryFn: () => apiCall('GET /api/orgs/:orgId/webhooks', { params: { orgId: orgId! } }),
    enabled: !!orgId,
  });
}

/** An endpoint's log page (the generic DeliveryLog adds polling while one is pending). */
export function webhookDeliveriesQuery(orgId: string, endpointId: string, page: number) {
  return {
    queryKey: webhookKeys.deliveries(orgId, endpointId, page),
    queryFn: () => apiCall('GET /api/orgs/:orgId/webhooks/:webhookId/deliveries', { params: { orgId, webhookId: endpointId }, query: { page } }),
  };
}

function useWebhookWrite<I, O>(orgId: string, request: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhookKeys.all(orgId) }),
  });
}

export const useCreateWebhook = (orgId: string) =>
  useWebhookWrite(orgId, (input: WebhookEndpointInput) => apiCall('POST /api/orgs/:orgId/webhooks', { params: { orgId }, body: input }));

export const useUpdateWebhook = (orgId: string) =>
  useWebhookWrite(orgId, ({ id, patch }: { id: string; patch: WebhookEndpointPatch }) =>
    apiCall('PATCH /api/orgs/:orgId/webhooks/:webhookId', { params: { orgId, webhookId: id }, body: patch }),
  );

export const useDeleteWebhook = (orgId: string) =>
  useWebhookWrite(orgId, (id: string) => apiCall('DELETE /api/orgs/:orgId/webhooks/:webhookId', { params: { orgId, webhookId: id } }));

export const useRotateWebhookSecret = (orgId: string) =>
  useWebhookWrite(orgId, (id: string) => apiCall('POST /api/orgs/:orgId/webhooks/:webhookId/rotate-secret', { params: { orgId, webhookId: id } }));

export const useTestWebhook = (orgId: string) =>
  useWebhookWrite(orgId, (id: string) => apiCall('POST /api/orgs/:orgId/webhooks/:webhookId/test', { params: { orgId, webhookId: id } }));

export const useRedeliverWebhook = (orgId: string) =>
  useWebhookWrite(orgId, ({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) =>
    apiCall('POST /api/orgs/:orgId/webhooks/:webhookId/deliveries/:deliveryId/redeliver', { params: { orgId, webhookId: endpointId, deliveryId } }),
  );
