import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OrganizationAudit, OrganizationDetail } from '../../../../domain/platform-admin';
import { apiCall } from '../../../lib/api-client';
import { platformKeys } from './paths';

/** GET /api/platform/organizations/{orgId} — members, sites and bays, plan and invoices, usage, and the caller's actions. */
export function getOrganization(orgId: string): Promise<OrganizationDetail> {
  return apiCall('GET /api/platform/organizations/:orgId', { params: { orgId } });
}

export function organizationQueryOptions(orgId: string) {
  return queryOptions({ queryKey: platformKeys.organization(orgId), queryFn: () => getOrganization(orgId) });
}

export function useOrganization(orgId: string | undefined) {
  return useQuery({ ...organizationQueryOptions(orgId ?? ''), enabled: !!orgId });
}

/** GET /api/platform/organizations/{orgId}/audit — its audit trail, newest first, a page at a time. */
export function getOrganizationAudit(orgId: string, page: number, pageSize: number): Promise<OrganizationAudit> {
  return apiCall('GET /api/platform/organizations/:orgId/audit', { params: { orgId }, query: { page, pageSize } });
}

export function useOrganizationAudit(orgId: string | undefined, page: number, pageSize: number) {
  return useQuery({
    queryKey: platformKeys.organizationAudit(orgId ?? '', page),
    queryFn: () => getOrganizationAudit(orgId!, page, pageSize),
    placeholderData: keepPreviousData,
    enabled: !!orgId,
  });
}
