import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointInput,
  WebhookEndpointList,
  WebhookEndpointPatch,
  WebhookEndpointWithSecret,
} from '../../../../domain/webhooks';
import { api } from '../../../lib/api-client';

// Integrations → Webhooks (server: /api/orgs/:orgId/webhooks…). Keys start with
// ['org', orgId, 'webhooks'], so any change here refreshes the list and the open log.

export const webhookKeys = {
  all: (orgId: string) => ['org', orgId, 'webhooks'] as const,
  list: (orgId: string) => ['org', orgId, 'webhooks', 'list'] as const,
  deliveries: (orgId: string, endpointId: string, page: number) => ['org', orgId, 'webhooks', 'deliveries', endpointId, page] as const,
};

const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}/webhooks`;

export function useWebhookEndpoints(orgId: string | undefined) {
  return useQuery({
    queryKey: webhookKeys.list(orgId ?? ''),
    queryFn: () => api<WebhookEndpointList>(base(orgId!)),
    enabled: !!orgId,
  });
}

/** An endpoint's log page (the generic DeliveryLog adds polling while one is pending). */
export function webhookDeliveriesQuery(orgId: string, endpointId: string, page: number) {
  return {
    queryKey: webhookKeys.deliveries(orgId, endpointId, page),
    queryFn: () => api<WebhookDeliveryList>(`${base(orgId)}/${encodeURIComponent(endpointId)}/deliveries?page=${page}`),
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
  useWebhookWrite<WebhookEndpointInput, WebhookEndpointWithSecret>(orgId, (input) => api(base(orgId), { method: 'POST', body: input }));

export const useUpdateWebhook = (orgId: string) =>
  useWebhookWrite<{ id: string; patch: WebhookEndpointPatch }, WebhookEndpoint>(orgId, ({ id, patch }) =>
    api(`${base(orgId)}/${encodeURIComponent(id)}`, { method: 'PATCH', body: patch }),
  );

export const useDeleteWebhook = (orgId: string) =>
  useWebhookWrite<string, void>(orgId, (id) => api(`${base(orgId)}/${encodeURIComponent(id)}`, { method: 'DELETE' }));

export const useRotateWebhookSecret = (orgId: string) =>
  useWebhookWrite<string, WebhookEndpointWithSecret>(orgId, (id) => api(`${base(orgId)}/${encodeURIComponent(id)}/rotate-secret`, { method: 'POST' }));

export const useTestWebhook = (orgId: string) =>
  useWebhookWrite<string, WebhookDelivery>(orgId, (id) => api(`${base(orgId)}/${encodeURIComponent(id)}/test`, { method: 'POST' }));

export const useRedeliverWebhook = (orgId: string) =>
  useWebhookWrite<{ endpointId: string; deliveryId: string }, WebhookDelivery>(orgId, ({ endpointId, deliveryId }) =>
    api(`${base(orgId)}/${encodeURIComponent(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, { method: 'POST' }),
  );
