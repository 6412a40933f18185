import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type PublicOverview = {
  bookingsToday: number;
  pendingRequests: number;
  checkedInNow: number;
  activeBays: number;
};

/** GET /api/public/overview — today's figures across the platform, computed by the server. */
export function getPublicOverview(): Promise<PublicOverview> {
  return api<PublicOverview>('/api/public/overview', { anonymous: true });
}

export function usePublicOverview() {
  return useQuery({ queryKey: ['public', 'overview'], queryFn: getPublicOverview });
}
