import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrganizationBilling } from '../../../../domain/billing';
import { apiCall } from '../../../lib/api-client';
import { billingKeys } from './paths';

/** GET /api/platform/organizations/{orgId}/plan — its plan, use against each limit, the plans it may be put on. */
export function getOrganizationPlan(orgId: string): Promise<OrganizationBilling> {
  return apiCall('GET /api/platform/organizations/:orgId/plan', { params: { orgId } });
}

export function useOrganizationPlan(orgId: string) {
  return useQuery({ queryKey: billingKeys.organizationPlan(orgId), queryFn: () => getOrganizationPlan(orgId) });
}

/**
 * PUT …/plan — planId null: no plan. A plan the organization would be over answers 409
 * plan_change_over_limits with what breaks; sent again with `confirm` it is changed anyway.
 * The organization's page and every platform figure are refreshed.
 */
export function useAssignPlan(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ planId, confirm }: { planId: string | null; confirm?: boolean }) =>
      apiCall('PUT /api/platform/organizations/:orgId/plan', { params: { orgId }, body: confirm ? { planId, confirm } : { planId } }),
    onSuccess: (result) => {
      queryClient.setQueryData(billingKeys.organizationPlan(orgId), result);
      return queryClient.invalidateQueries({ queryKey: ['platform'] });
    },
  });
}
