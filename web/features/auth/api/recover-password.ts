import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/auth/recover — always answers 200, so it never reveals whether an account exists. */
export function recoverPassword(email: string): Promise<{ message: string }> {
  return api('/api/auth/recover', { method: 'POST', body: { email }, anonymous: true });
}

export function useRecoverPassword() {
  return useMutation({ mutationFn: recoverPassword });
}
