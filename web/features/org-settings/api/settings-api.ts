import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CameraTokenCreateInput, OrgProfileInput, OrgSettingsPatch, OrgSettingsView } from '../../../../domain/org-settings';
import { apiCall, fetchApiFile } from '../../../lib/api-client';

// The organization's own settings (server: /api/orgs/:orgId/settings…). Query keys start with
// ['org', orgId, 'settings'], so a live 'organization' event or any change here refreshes them.

export const settingsKeys = {
  all: (orgId: string) => ['org', orgId, 'settings'] as const,
  view: (orgId: string) => ['org', orgId, 'settings', 'view'] as const,
  logo: (orgId: string, version: string | null) => ['org', orgId, 'settings', 'logo', version] as const,
  cameraTokens: (orgId: string) => ['org', orgId, 'settings', 'camera-tokens'] as const,
};

export function useOrgSettings(orgId: string | undefined) {
  return useQuery({
    queryKey: settingsKeys.view(orgId ?? ''),
    queryFn: () => apiCall('GET /api/orgs/:orgId/settings', { params: { orgId: orgId! } }),
    enabled: !!orgId,
  });
}

/** A write whose answer is the settings as they now are. */
function useSettingsWrite<I>(orgId: string, request: (input: I) => Promise<OrgSettingsView>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (view) => {
      queryClient.setQueryData(settingsKeys.view(orgId), view);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.all(orgId) });
    },
  });
}

export const useUpdateProfile = (orgId: string) =>
  useSettingsWrite<OrgProfileInput>(orgId, (input) => apiCall('PATCH /api/orgs/:orgId/settings/profile', { params: { orgId }, body: input }));

export const useUpdateSettings = (orgId: string) =>
  useSettingsWrite<OrgSettingsPatch>(orgId, (input) => apiCall('PATCH /api/orgs/:orgId/settings', { params: { orgId }, body: input }));

export const useUploadLogo = (orgId: string) =>
  useSettingsWrite<File>(orgId, (file) => {
    const form = new FormData();
    form.append('logo', file, file.name);
    return apiCall('PUT /api/orgs/:orgId/settings/logo', { params: { orgId }, body: form });
  });

export const useRemoveLogo = (orgId: string) => useSettingsWrite<void>(orgId, () => apiCall('DELETE /api/orgs/:orgId/settings/logo', { params: { orgId } }));

/** The logo as an object URL (the image needs the session's token, so a plain <img src> cannot load it). */
export function useLogoUrl(orgId: string, version: string | null): { url: string | null; isLoading: boolean; isError: boolean } {
  const query = useQuery({
    queryKey: settingsKeys.logo(orgId, version),
    queryFn: async () => (await fetchApiFile('GET /api/orgs/:orgId/settings/logo', { params: { orgId }, failure: 'Could not load the logo' })).blob(),
    enabled: !!version,
    staleTime: Infinity,
  });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!query.data) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(query.data);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [query.data]);
  return { url: version ? url : null, isLoading: !!version && query.isLoading, isError: query.isError };
}

export function useCameraTokens(orgId: string | undefined) {
  return useQuery({
    queryKey: settingsKeys.cameraTokens(orgId ?? ''),
    queryFn: () => apiCall('GET /api/orgs/:orgId/settings/camera-tokens', { params: { orgId: orgId! } }),
    enabled: !!orgId,
  });
}

export function useCreateCameraToken(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CameraTokenCreateInput) => apiCall('POST /api/orgs/:orgId/settings/camera-tokens', { params: { orgId }, body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: settingsKeys.cameraTokens(orgId) }),
  });
}

export function useRevokeCameraToken(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) => apiCall('DELETE /api/orgs/:orgId/settings/camera-tokens/:tokenId', { params: { orgId, tokenId } }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: settingsKeys.cameraTokens(orgId) }),
  });
}
