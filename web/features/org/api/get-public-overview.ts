import { useQuery } from '@tanstack/react-query';
import type { PublicOverview } from '../../../../domain/contract/public.contract';
import { apiCall } from '../../../lib/api-client';

export type { PublicOverview };

/** GET /api/public/overview — today's figures across the platform, computed by the server. */
export function getPublicOverview(): Promise<PublicOverview> {
  return apiCall('GET /api/public/overview', { anonymous: true });
}

export function usePublicOverview() {
  return useQuery({ queryKey: ['public', 'overview'], queryFn: getPublicOverview });
}
