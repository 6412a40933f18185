import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HaulierAccount } from '../../../../domain/haulier-accounts';
import { ApiError, apiCall } from '../../../lib/api-client';
import { haulierAccountKeys } from './paths';

/** The signed-in haulier, or null when signed out (a 401 is an answer here, not a failure). */
export async function getHaulierMe(): Promise<HaulierAccount | null> {
  try {
    return await apiCall('GET /api/public/haulier/me', { anonymous: true });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const haulierMeQueryOptions = () => queryOptions({ queryKey: haulierAccountKeys.me(), queryFn: getHaulierMe, staleTime: 60_000, retry: 1 });

export function useHaulierMe() {
  return useQuery(haulierMeQueryOptions());
}
