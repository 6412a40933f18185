import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Plan, PlanInput, PlanUpdate } from '../../../../domain/billing';
import { api } from '../../../lib/api-client';
import { billingPaths } from './paths';

/** POST /api/platform/plans. */
export function createPlan(input: PlanInput): Promise<Plan> {
  return api<Plan>(billingPaths.plans, { method: 'POST', body: input });
}

/** PATCH /api/platform/plans/{planId} — the fields sent change. */
export function updatePlan(planId: string, input: PlanUpdate): Promise<Plan> {
  return api<Plan>(billingPaths.plan(planId), { method: 'PATCH', body: input });
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
