import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ErrorGroupListQuery } from '../../../../domain/error-monitoring';
import { apiCall } from '../../../lib/api-client';
import { settingsKeys } from './paths';

/** GET /api/platform/errors — groups newest last-seen first, filtered by status and source, a page at a time. */
export function useErrorGroups(query: ErrorGroupListQuery) {
  return useQuery({
    queryKey: settingsKeys.errorList(query),
    queryFn: () => apiCall('GET /api/platform/errors', { query }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/platform/errors/:fingerprint — one group and its latest events. */
export function useErrorGroup(fingerprint: string | null) {
  return useQuery({
    queryKey: settingsKeys.error(fingerprint ?? ''),
    queryFn: () => apiCall('GET /api/platform/errors/:fingerprint', { params: { fingerprint: fingerprint! } }),
    enabled: !!fingerprint,
  });
}

/** Resolves or reopens a group; every list and the group's detail are refreshed. */
export function useChangeErrorGroupStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fingerprint, to }: { fingerprint: string; to: 'resolved' | 'open' }) =>
      to === 'resolved'
        ? apiCall('POST /api/platform/errors/:fingerprint/resolve', { params: { fingerprint } })
        : apiCall('POST /api/platform/errors/:fingerprint/reopen', { params: { fingerprint } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.errors }),
  });
}
