import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AffectedResolution, ResolveAffectedInput } from '../../../../domain/affected-bookings';
import type { CreateSiteInput, HolidayInput, UpdateSiteInput } from '../../../../domain/org-sites';
import { apiCall } from '../../../lib/api-client';

// Settings › Sites & hours (server: /api/orgs/:orgId/sites…). Query keys start with
// ['org', orgId, 'sites'] so a live 'site' event refreshes them; a change here also refreshes the
// site selector (['orgs', orgId, 'sites']) and everything else of the organization.

export const orgSiteKeys = {
  all: (orgId: string) => ['org', orgId, 'sites'] as const,
  list: (orgId: string) => ['org', orgId, 'sites', 'list'] as const,
  holidays: (orgId: string, siteId: string) => ['org', orgId, 'sites', 'holidays', siteId] as const,
};

function refreshAfterChange(queryClient: QueryClient, orgId: string): void {
  void queryClient.invalidateQueries({ queryKey: ['org', orgId] });
  void queryClient.invalidateQueries({ queryKey: ['orgs', orgId, 'sites'] });
}

/** Every site of the organization, inactive ones too, with bay and booking counts. */
export function useOrgSites(orgId: string | undefined) {
  return useQuery({
    queryKey: orgSiteKeys.list(orgId ?? ''),
    queryFn: () => apiCall('GET /api/orgs/:orgId/sites/all', { params: { orgId: orgId! } }),
    enabled: !!orgId,
  });
}

export function useCreateSite(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateSiteInput) => apiCall('POST /api/orgs/:orgId/sites', { params: { orgId }, body: input }),
    onSuccess: () => refreshAfterChange(queryClient, orgId),
  });
}

/** The answer lists the upcoming bookings the new hours or time zone leave outside opening hours. */
export function useUpdateSite(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ siteId, input }: { siteId: string; input: UpdateSiteInput }) => apiCall('PATCH /api/orgs/:orgId/sites/:siteId', { params: { orgId, siteId }, body: input }),
    onSuccess: () => refreshAfterChange(queryClient, orgId),
  });
}

/** Without a resolution, a site with upcoming bookings answers 409 affected_bookings. */
export function useDeactivateSite(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ siteId, resolution }: { siteId: string; resolution?: AffectedResolution }) =>
      apiCall('POST /api/orgs/:orgId/sites/:siteId/deactivate', { params: { orgId, siteId }, body: resolution ? { resolution } : {} }),
    onSuccess: () => refreshAfterChange(queryClient, orgId),
  });
}

export function useReactivateSite(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (siteId: string) => apiCall('POST /api/orgs/:orgId/sites/:siteId/reactivate', { params: { orgId, siteId } }),
    onSuccess: () => refreshAfterChange(queryClient, orgId),
  });
}

/** Cancels bookings an hours change left outside (the bookings area's endpoint), each haulier e-mailed the reason. */
export function useCancelListedBookings(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<ResolveAffectedInput, 'action'>) =>
      apiCall('POST /api/orgs/:orgId/bookings/resolve-affected', { params: { orgId }, body: { ...input, action: 'cancel' } }),
    onSuccess: () => refreshAfterChange(queryClient, orgId),
  });
}

// ── Holiday closures ──────────────────────────────────────────────────────────────────────────

export function useSiteHolidays(orgId: string, siteId: string | null) {
  return useQuery({
    queryKey: orgSiteKeys.holidays(orgId, siteId ?? ''),
    queryFn: () => apiCall('GET /api/orgs/:orgId/sites/:siteId/holidays', { params: { orgId, siteId: siteId! } }),
    enabled: !!siteId,
  });
}

/** Without a resolution, live bookings on those days answer 409 affected_bookings. */
export function useCreateHoliday(orgId: string, siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: HolidayInput) => apiCall('POST /api/orgs/:orgId/sites/:siteId/holidays', { params: { orgId, siteId }, body: input }),
    onSuccess: () => refreshAfterChange(queryClient, orgId),
  });
}

export function useDeleteHoliday(orgId: string, siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (holidayId: string) => apiCall('DELETE /api/orgs/:orgId/sites/:siteId/holidays/:holidayId', { params: { orgId, siteId, holidayId } }),
    onSuccess: () => refreshAfterChange(queryClient, orgId),
  });
}
