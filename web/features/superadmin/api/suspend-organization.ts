import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrganizationChange, SuspendOrganizationInput } from '../../../../domain/platform-admin';
import { api } from '../../../lib/api-client';
import { platformKeys, platformPaths } from './paths';

/** POST …/suspend — the reason is required; the members' sessions end at once. */
export function suspendOrganization(orgId: string, input: SuspendOrganizationInput): Promise<OrganizationChange> {
  return api<OrganizationChange>(platformPaths.suspend(orgId), { method: 'POST', body: input });
}

/** POST …/reactivate — lifts the suspension. */
export function reactivateOrganization(orgId: string): Promise<OrganizationChange> {
  return api<OrganizationChange>(platformPaths.reactivate(orgId), { method: 'POST' });
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
