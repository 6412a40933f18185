import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type PublicOrganization = { id: string; name: string };

/** GET /api/public/organizations — active organizations (id, name) by name, for the login list. */
export function getPublicOrganizations(): Promise<PublicOrganization[]> {
  return api<PublicOrganization[]>('/api/public/organizations', { anonymous: true });
}

export const publicOrganizationsQueryOptions = queryOptions({
  queryKey: ['public', 'organizations'],
  queryFn: getPublicOrganizations,
});

export function usePublicOrganizations() {
  return useQuery(publicOrganizationsQueryOptions);
}
