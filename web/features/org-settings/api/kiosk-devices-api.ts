import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { KioskDeviceCreateInput } from '../../../../domain/kiosk';
import { apiCall } from '../../../lib/api-client';

// The gate kiosks of the organization (server: /api/orgs/:orgId/settings/kiosk-devices…). Keyed
// under ['org', orgId, 'settings'], so a live 'organization' event refreshes them.

export const kioskDevicesKey = (orgId: string) => ['org', orgId, 'settings', 'kiosk-devices'] as const;

export function useKioskDevices(orgId: string | undefined) {
  return useQuery({
    queryKey: kioskDevicesKey(orgId ?? ''),
    queryFn: () => apiCall('GET /api/orgs/:orgId/settings/kiosk-devices', { params: { orgId: orgId! } }),
    enabled: !!orgId,
  });
}

export function useCreateKioskDevice(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: KioskDeviceCreateInput) => apiCall('POST /api/orgs/:orgId/settings/kiosk-devices', { params: { orgId }, body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: kioskDevicesKey(orgId) }),
  });
}

export function useRevokeKioskDevice(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deviceId: string) => apiCall('DELETE /api/orgs/:orgId/settings/kiosk-devices/:deviceId', { params: { orgId, deviceId } }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: kioskDevicesKey(orgId) }),
  });
}
