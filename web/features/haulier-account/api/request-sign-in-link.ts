import { useMutation } from '@tanstack/react-query';
import type { SignInLinkRequest } from '../../../../domain/haulier-accounts';
import { apiCall } from '../../../lib/api-client';

export function requestSignInLink(body: SignInLinkRequest) {
  return apiCall('POST /api/public/haulier/sign-in-link', { body, anonymous: true });
}

export function useRequestSignInLink() {
  return useMutation({ mutationFn: requestSignInLink });
}
