import { useQuery } from '@tanstack/react-query';
import type { Revenue } from '../../../../domain/billing';
import { apiCall } from '../../../lib/api-client';
import { billingKeys } from './paths';

/** GET /api/platform/revenue — paid invoices by the month they were paid in, the last 12 months. */
export function getRevenue(): Promise<Revenue> {
  return apiCall('GET /api/platform/revenue');
}

export function useRevenue() {
  return useQuery({ queryKey: billingKeys.revenue, queryFn: getRevenue });
}
