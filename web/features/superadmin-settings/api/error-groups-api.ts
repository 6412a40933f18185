import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ErrorGroup, ErrorGroupDetail, ErrorGroupList, ErrorGroupListQuery } from '../../../../domain/error-monitoring';
import { api } from '../../../lib/api-client';
import { settingsKeys, settingsPaths } from './paths';

/** GET /api/platform/errors — groups newest last-seen first, filtered by status and source, a page at a time. */
export function useErrorGroups(query: ErrorGroupListQuery) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  return useQuery({
    queryKey: settingsKeys.errorList(query),
    queryFn: () => api<ErrorGroupList>(`${settingsPaths.errors}?${params.toString()}`),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/platform/errors/:fingerprint — one group and its latest events. */
export function useErrorGroup(fingerprint: string | null) {
  return useQuery({
    queryKey: settingsKeys.error(fingerprint ?? ''),
    queryFn: () => api<ErrorGroupDetail>(settingsPaths.error(fingerprint!)),
    enabled: !!fingerprint,
  });
}

/** Resolves or reopens a group; every list and the group's detail are refreshed. */
export function useChangeErrorGroupStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fingerprint, to }: { fingerprint: string; to: 'resolved' | 'open' }) =>
      api<ErrorGroup>(to === 'resolved' ? settingsPaths.resolve(fingerprint) : settingsPaths.reopen(fingerprint), { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.errors }),
  });
}
