import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MfaStatus, RecoveryCodes } from '../../../../domain/auth-schemas';
import { apiCall } from '../../../lib/api-client';
import { authKeys } from './get-current-user-role';

// The signed-in user's two-factor sign-in (decision 018): status, enrolment, recovery codes, off.

const mfaKey = [...authKeys.all, 'mfa'] as const;

/** GET /api/auth/mfa */
export function getMfaStatus(): Promise<MfaStatus> {
  return apiCall('GET /api/auth/mfa');
}

export function useMfaStatus() {
  return useQuery(queryOptions({ queryKey: mfaKey, queryFn: getMfaStatus }));
}

/** Anything that changes two-factor sign-in refreshes its status and the current user (enrolment-only sessions open up). */
function useRefreshAfter() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: authKeys.all });
}

/** POST /api/auth/mfa/enrol — a new secret with its QR code. */
export function useStartMfaEnrolment() {
  return useMutation({ mutationFn: () => apiCall('POST /api/auth/mfa/enrol') });
}

/** POST /api/auth/mfa/confirm — the first code turns it on; answers the ten recovery codes. */
export function useConfirmMfaEnrolment() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (code: string): Promise<RecoveryCodes> => apiCall('POST /api/auth/mfa/confirm', { body: { code } }),
    onSuccess: refresh,
  });
}

/** POST /api/auth/mfa/recovery-codes — ten new codes; the old ones stop working. */
export function useRegenerateRecoveryCodes() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (code: string): Promise<RecoveryCodes> => apiCall('POST /api/auth/mfa/recovery-codes', { body: { code } }),
    onSuccess: refresh,
  });
}

/** POST /api/auth/mfa/disable — with a current code or a recovery code. */
export function useDisableMfa() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (proof: { code: string } | { recoveryCode: string }): Promise<MfaStatus> => apiCall('POST /api/auth/mfa/disable', { body: proof }),
    onSuccess: refresh,
  });
}
