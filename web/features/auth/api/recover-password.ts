import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** POST /api/auth/recover — always answers 200, so it never reveals whether an account exists. */
export function recoverPassword(email: string): Promise<{ message: string }> {
  return apiCall('POST /api/auth/recover', { body: { email }, anonymous: true });
}

export function useRecoverPassword() {
  return useMutation({ mutationFn: recoverPassword });
}
