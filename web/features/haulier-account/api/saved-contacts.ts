import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavedContactInput } from '../../../../domain/haulier-accounts';
import { apiCall } from '../../../lib/api-client';
import { haulierAccountKeys } from './paths';

export const savedContactsQueryOptions = () =>
  queryOptions({ queryKey: haulierAccountKeys.contacts(), queryFn: () => apiCall('GET /api/public/haulier/contacts', { anonymous: true }) });

/** Off (no request) when nobody is signed in. */
export function useSavedContacts(isEnabled = true) {
  return useQuery({ ...savedContactsQueryOptions(), enabled: isEnabled });
}

export function useSaveContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SavedContactInput) => apiCall('POST /api/public/haulier/contacts', { body, anonymous: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: haulierAccountKeys.contacts() }),
  });
}

export function useDeleteSavedContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall('DELETE /api/public/haulier/contacts/:id', { params: { id }, anonymous: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: haulierAccountKeys.contacts() }),
  });
}
