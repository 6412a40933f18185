import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Plan, PlanInput, PlanUpdate } from '../../../../domain/billing';
import { apiCall } from '../../../lib/api-client';

/** POST /api/platform/plans. */
export function createPlan(input: PlanInput): Promise<Plan> {
  return apiCall('POST /api/platform/plans', { body: input });
}

/** PATCH /api/platform/plans/{planId} — the fields sent change. */
export function updatePlan(planId: string, input: PlanUpdate): Promise<Plan> {
  return apiCall('PATCH /api/platform/plans/:planId', { params: { planId }, body: input });
}

/** Creates (no planId) or updates a plan; every platform figure is refreshed (organizations show their plan). */
export function useSavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: { planId: string | null; input: PlanInput }) =>
      variables.planId ? updatePlan(variables.planId, variables.input) : createPlan(variables.input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['platform'] }),
  });
}
