import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type EmergencyContact = { label: string; extension: string };

export type PublicSite = {
  id: string;
  name: string;
  orgId: string;
  orgName: string;
  emergencyContacts: EmergencyContact[];
};

/** GET /api/public/sites — every active site of every active organization. */
export function getPublicSites(): Promise<PublicSite[]> {
  return api<PublicSite[]>('/api/public/sites', { anonymous: true });
}

export function usePublicSites() {
  return useQuery({ queryKey: ['public', 'sites'], queryFn: getPublicSites });
}
