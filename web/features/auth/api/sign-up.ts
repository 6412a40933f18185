import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export type SignUpInput = { email: string; password: string; fullName?: string };

/** POST /api/auth/signup — creates the account and e-mails a confirmation link. */
export function signUp(input: SignUpInput): Promise<{ confirmationSent: boolean }> {
  return apiCall('POST /api/auth/signup', { body: input, anonymous: true });
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
