import { queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type VerifyInput = { type: 'signup'; token: string } | { type: 'recovery'; token: string; password: string };
export type VerifyResult = { email: string; message: string };

/** POST /api/auth/verify — confirms an e-mail address or sets a new password from an e-mailed link. */
export function verifyToken(input: VerifyInput): Promise<VerifyResult> {
  return api<VerifyResult>('/api/auth/verify', { method: 'POST', body: input, anonymous: true });
}

/** E-mail confirmation runs once per token (a query dedupes React's double mount in development). */
export function confirmEmailQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['auth', 'confirm-email', token],
    queryFn: () => verifyToken({ type: 'signup', token }),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (input: { token: string; password: string }) => verifyToken({ type: 'recovery', ...input }),
  });
}
