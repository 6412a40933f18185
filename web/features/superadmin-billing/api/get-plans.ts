import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PlanList } from '../../../../domain/billing';
import { apiCall } from '../../../lib/api-client';
import { billingKeys } from './paths';

/** GET /api/platform/plans — every plan with its price, limits, organizations and over-limit flags. */
export function getPlans(): Promise<PlanList> {
  return apiCall('GET /api/platform/plans');
}

export const plansQueryOptions = () => queryOptions({ queryKey: billingKeys.plans, queryFn: getPlans });

export function usePlans() {
  return useQuery(plansQueryOptions());
}
