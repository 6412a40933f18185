import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { haulierAccountKeys } from './paths';

export function signOutHaulier() {
  return apiCall('DELETE /api/public/haulier/sessions/current', { anonymous: true });
}

export function useSignOutHaulier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOutHaulier,
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: haulierAccountKeys.all });
      queryClient.setQueryData(haulierAccountKeys.me(), null);
    },
  });
}
