import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Language } from '../../../../domain/languages';
import { apiCall } from '../../../lib/api-client';
import { haulierAccountKeys } from './paths';

export function signInWithLink(body: { token: string; language?: Language }) {
  return apiCall('POST /api/public/haulier/sessions', { body, anonymous: true });
}

export function useSignInWithLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signInWithLink,
    onSuccess: (account) => {
      queryClient.removeQueries({ queryKey: haulierAccountKeys.all });
      queryClient.setQueryData(haulierAccountKeys.me(), account);
    },
  });
}
