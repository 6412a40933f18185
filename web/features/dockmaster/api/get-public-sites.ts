import { useQuery } from '@tanstack/react-query';
import type { PublicSiteDto } from '../../../../domain/site-schemas';
import { apiCall } from '../../../lib/api-client';

export type PublicSite = PublicSiteDto;
export type EmergencyContact = PublicSite['emergencyContacts'][number];

/** GET /api/public/sites — every active site of every active organization. */
export function getPublicSites(): Promise<PublicSite[]> {
  return apiCall('GET /api/public/sites', { anonymous: true });
}

export function usePublicSites() {
  return useQuery({ queryKey: ['public', 'sites'], queryFn: getPublicSites });
}
