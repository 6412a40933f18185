import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavedVehicleInput } from '../../../../domain/haulier-accounts';
import { apiCall } from '../../../lib/api-client';
import { haulierAccountKeys } from './paths';

export const savedVehiclesQueryOptions = () =>
  queryOptions({ queryKey: haulierAccountKeys.vehicles(), queryFn: () => apiCall('GET /api/public/haulier/vehicles', { anonymous: true }) });

/** Off (no request) when nobody is signed in. */
export function useSavedVehicles(isEnabled = true) {
  return useQuery({ ...savedVehiclesQueryOptions(), enabled: isEnabled });
}

export function useSaveVehicle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SavedVehicleInput) => apiCall('POST /api/public/haulier/vehicles', { body, anonymous: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: haulierAccountKeys.vehicles() }),
  });
}

export function useDeleteSavedVehicle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall('DELETE /api/public/haulier/vehicles/:id', { params: { id }, anonymous: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: haulierAccountKeys.vehicles() }),
  });
}
