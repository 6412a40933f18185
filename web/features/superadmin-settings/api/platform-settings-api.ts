import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toPublicPlatformConfig, type PlatformConfigInput } from '../../../../domain/platform-settings';
import { publicPlatformKey } from '../../../components/platform/public-platform-config';
import { apiCall } from '../../../lib/api-client';
import { settingsKeys } from './paths';

/** GET /api/platform/settings — the configuration, the plans to choose from, and whether the caller may change it. */
export function usePlatformSettings() {
  return useQuery({ queryKey: settingsKeys.settings, queryFn: () => apiCall('GET /api/platform/settings') });
}

/** PUT /api/platform/settings — the whole configuration; the answer replaces the screen's copy and the banner's. */
export function useUpdatePlatformSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PlatformConfigInput) => apiCall('PUT /api/platform/settings', { body: input }),
    onSuccess: (view) => {
      queryClient.setQueryData(settingsKeys.settings, view);
      // The banner on this screen changes now, not at its next minute.
      queryClient.setQueryData(publicPlatformKey, toPublicPlatformConfig(view.config));
    },
  });
}
