import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConflictResolution, StandingBookingInput } from '../../../../domain/standing-bookings';
import { apiCall } from '../../../lib/api-client';

// The organization's standing bookings (server: /api/orgs/:orgId/standing-bookings…). Query keys
// start with ['org', orgId, 'standing'] so a write (or a live update of the org) refreshes them.

export const standingKeys = {
  list: (orgId: string, page: number) => ['org', orgId, 'standing', 'list', page] as const,
  detail: (orgId: string, id: string) => ['org', orgId, 'standing', 'detail', id] as const,
  conflicts: (orgId: string) => ['org', orgId, 'standing', 'conflicts'] as const,
};

export function useStandingList(orgId: string | undefined, page: number) {
  return useQuery({
    queryKey: standingKeys.list(orgId ?? '', page),
    queryFn: () => apiCall('GET /api/orgs/:orgId/standing-bookings', { params: { orgId: orgId! }, query: { page, pageSize: 25 } }),
    enabled: !!orgId,
    placeholderData: keepPreviousData,
  });
}

export function useStandingDetail(orgId: string | undefined, id: string | null) {
  return useQuery({
    queryKey: standingKeys.detail(orgId ?? '', id ?? ''),
    queryFn: () => apiCall('GET /api/orgs/:orgId/standing-bookings/:standingId', { params: { orgId: orgId!, standingId: id! } }),
    enabled: !!orgId && !!id,
  });
}

export function useStandingConflicts(orgId: string | undefined) {
  return useQuery({
    queryKey: standingKeys.conflicts(orgId ?? ''),
    queryFn: () => apiCall('GET /api/orgs/:orgId/standing-bookings/conflicts', { params: { orgId: orgId! } }),
    enabled: !!orgId,
  });
}

/** Every write refreshes the organization's views (the series, its bookings, the schedule). */
function useOrgWrite<I, R>(orgId: string, request: (input: I) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: request, onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['org', orgId] }) });
}

export const useCreateStanding = (orgId: string) =>
  useOrgWrite(orgId, (input: StandingBookingInput) => apiCall('POST /api/orgs/:orgId/standing-bookings', { params: { orgId }, body: input }));

export const useUpdateStanding = (orgId: string) =>
  useOrgWrite(orgId, ({ id, input }: { id: string; input: StandingBookingInput }) =>
    apiCall('PUT /api/orgs/:orgId/standing-bookings/:standingId', { params: { orgId, standingId: id }, body: input }),
  );

export const useCancelStanding = (orgId: string) =>
  useOrgWrite(orgId, ({ id, reason }: { id: string; reason: string | null }) =>
    apiCall('POST /api/orgs/:orgId/standing-bookings/:standingId/cancel', { params: { orgId, standingId: id }, body: { reason } }),
  );

export const useApproveStanding = (orgId: string) =>
  useOrgWrite(orgId, (id: string) => apiCall('POST /api/orgs/:orgId/standing-bookings/:standingId/approve', { params: { orgId, standingId: id } }));

export const useDeclineStanding = (orgId: string) =>
  useOrgWrite(orgId, ({ id, reason }: { id: string; reason: string }) =>
    apiCall('POST /api/orgs/:orgId/standing-bookings/:standingId/decline', { params: { orgId, standingId: id }, body: { reason } }),
  );

export const useCancelOccurrence = (orgId: string) =>
  useOrgWrite(orgId, ({ id, date }: { id: string; date: string }) =>
    apiCall('POST /api/orgs/:orgId/standing-bookings/:standingId/occurrences/:date/cancel', { params: { orgId, standingId: id, date } }),
  );

export const useMoveOccurrence = (orgId: string) =>
  useOrgWrite(orgId, ({ id, date, target }: { id: string; date: string; target: { date: string; slot: string } }) =>
    apiCall('POST /api/orgs/:orgId/standing-bookings/:standingId/occurrences/:date/move', { params: { orgId, standingId: id, date }, body: target }),
  );

export const useResolveConflict = (orgId: string) =>
  useOrgWrite(orgId, ({ id, date, resolution }: { id: string; date: string; resolution: ConflictResolution }) =>
    apiCall('POST /api/orgs/:orgId/standing-bookings/:standingId/occurrences/:date/resolve', { params: { orgId, standingId: id, date }, body: resolution }),
  );
