import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrganizationChange, SuspendOrganizationInput } from '../../../../domain/platform-admin';
import { apiCall } from '../../../lib/api-client';
import { platformKeys } from './paths';

/** POST …/suspend — the reason is required; the members' sessions end at once. */
export function suspendOrganization(orgId: string, input: SuspendOrganizationInput): Promise<OrganizationChange> {
  return apiCall('POST /api/platform/organizations/:orgId/suspend', { params: { orgId }, body: input });
}

/** POST …/reactivate — lifts the suspension. */
export function reactivateOrganization(orgId: string): Promise<OrganizationChange> {
  return apiCall('POST /api/platform/organizations/:orgId/reactivate', { params: { orgId } });
}

/** Suspends or reactivates; the answer replaces the organization's page and every platform figure is refreshed. */
export function useChangeOrganizationStatus(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { kind: 'suspend'; reason: string } | { kind: 'reactivate' }) =>
      change.kind === 'suspend' ? suspendOrganization(orgId, { reason: change.reason }) : reactivateOrganization(orgId),
    onSuccess: (result) => {
      queryClient.setQueryData(platformKeys.organization(orgId), result.organization);
      return queryClient.invalidateQueries({ queryKey: platformKeys.all });
    },
  });
}
