import { queryOptions, useMutation } from '@tanstack/react-query';
import type { VerifyResult } from '../../../../domain/contract/auth.contract';
import { apiCall } from '../../../lib/api-client';

export type VerifyInput = { type: 'signup'; token: string } | { type: 'recovery'; token: string; password: string };
export type { VerifyResult };

/** POST /api/auth/verify — confirms an e-mail address or sets a new password from an e-mailed link. */
export function verifyToken(input: VerifyInput): Promise<VerifyResult> {
  return apiCall('POST /api/auth/verify', { body: input, anonymous: true });
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
