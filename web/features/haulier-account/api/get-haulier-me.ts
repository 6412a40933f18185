import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HaulierAccount } from '../../../../domain/haulier-accounts';
import { apiCall } from '../../../lib/api-client';
import { haulierAccountKeys } from './paths';

/** The signed-in haulier, or null when signed out (the API answers 200 { signedIn: false }: no failed request). */
export async function getHaulierMe(): Promise<HaulierAccount | null> {
  const me = await apiCall('GET /api/public/haulier/me', { anonymous: true });
  if (!me.signedIn) return null;
  return { id: me.id, email: me.email, language: me.language };
}

export const haulierMeQueryOptions = () => queryOptions({ queryKey: haulierAccountKeys.me(), queryFn: getHaulierMe, staleTime: 60_000, retry: 1 });

export function useHaulierMe() {
  return useQuery(haulierMeQueryOptions());
}
