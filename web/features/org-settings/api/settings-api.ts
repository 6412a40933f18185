import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CameraToken,
  CameraTokenCreateInput,
  CreatedCameraToken,
  OrgProfileInput,
  OrgSettingsPatch,
  OrgSettingsView,
} from '../../../../domain/org-settings';
import { api, ApiError, currentAccessToken } from '../../../lib/api-client';

// The organization's own settings (server: /api/orgs/:orgId/settings…). Query keys start with
// ['org', orgId, 'settings'], so a live 'organization' event or any change here refreshes them.

export const settingsKeys = {
  all: (orgId: string) => ['org', orgId, 'settings'] as const,
  view: (orgId: string) => ['org', orgId, 'settings', 'view'] as const,
  logo: (orgId: string, version: string | null) => ['org', orgId, 'settings', 'logo', version] as const,
  cameraTokens: (orgId: string) => ['org', orgId, 'settings', 'camera-tokens'] as const,
};

const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}/settings`;

export function useOrgSettings(orgId: string | undefined) {
  return useQuery({
    queryKey: settingsKeys.view(orgId ?? ''),
    queryFn: () => api<OrgSettingsView>(base(orgId!)),
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
  useSettingsWrite<OrgProfileInput>(orgId, (input) => api<OrgSettingsView>(`${base(orgId)}/profile`, { method: 'PATCH', body: input }));

export const useUpdateSettings = (orgId: string) =>
  useSettingsWrite<OrgSettingsPatch>(orgId, (input) => api<OrgSettingsView>(base(orgId), { method: 'PATCH', body: input }));

export const useUploadLogo = (orgId: string) =>
  useSettingsWrite<File>(orgId, (file) => {
    const form = new FormData();
    form.append('logo', file, file.name);
    return api<OrgSettingsView>(`${base(orgId)}/logo`, { method: 'PUT', body: form });
  });

export const useRemoveLogo = (orgId: string) => useSettingsWrite<void>(orgId, () => api<OrgSettingsView>(`${base(orgId)}/logo`, { method: 'DELETE' }));

/** The logo as an object URL (the image needs the session's token, so a plain <img src> cannot load it). */
export function useLogoUrl(orgId: string, version: string | null): { url: string | null; isLoading: boolean; isError: boolean } {
  const query = useQuery({
    queryKey: settingsKeys.logo(orgId, version),
    queryFn: async () => {
      const token = currentAccessToken();
      const response = await fetch(`${base(orgId)}/logo`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (!response.ok) throw new ApiError(response.status, 'logo_failed', `Could not load the logo (${response.status})`);
      return response.blob();
    },
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
    queryFn: () => api<CameraToken[]>(`${base(orgId!)}/camera-tokens`),
    enabled: !!orgId,
  });
}

export function useCreateCameraToken(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CameraTokenCreateInput) => api<CreatedCameraToken>(`${base(orgId)}/camera-tokens`, { method: 'POST', body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: settingsKeys.cameraTokens(orgId) }),
  });
}

export function useRevokeCameraToken(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) => api<void>(`${base(orgId)}/camera-tokens/${encodeURIComponent(tokenId)}`, { method: 'DELETE' }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: settingsKeys.cameraTokens(orgId) }),
  });
}
