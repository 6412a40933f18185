import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConvertedQuote, CreatedOrganization, CreateOrganizationInput, OrganizationFormOptions } from '../../../../domain/platform-admin';
import { apiCall } from '../../../lib/api-client';
import { platformKeys } from './paths';

/** GET /api/platform/organization-options — the plans a new organization may get, and the default one. */
export function getOrganizationOptions(): Promise<OrganizationFormOptions> {
  return apiCall('GET /api/platform/organization-options');
}

export function organizationOptionsQueryOptions() {
  return queryOptions({ queryKey: platformKeys.organizationOptions, queryFn: getOrganizationOptions });
}

export function useOrganizationOptions(enabled = true) {
  return useQuery({ ...organizationOptionsQueryOptions(), enabled });
}

/** POST /api/platform/organizations — the organization, its plan, and its first admin's invitation. */
export function createOrganization(input: CreateOrganizationInput): Promise<CreatedOrganization> {
  return apiCall('POST /api/platform/organizations', { body: input });
}

/** POST /api/platform/quote-requests/{quoteId}/convert — the same, marking the quote request converted. */
export function convertQuote(quoteId: string, input: CreateOrganizationInput): Promise<ConvertedQuote> {
  return apiCall('POST /api/platform/quote-requests/:quoteId/convert', { params: { quoteId }, body: input });
}

/** Creates an organization (from a quote request when one is given); every platform figure is refreshed. */
export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, quoteId }: { input: CreateOrganizationInput; quoteId?: string | null }): Promise<CreatedOrganization> =>
      quoteId ? convertQuote(quoteId, input) : createOrganization(input),
    onSuccess: (result) => {
      queryClient.setQueryData(platformKeys.organization(result.organization.id), result.organization);
      return queryClient.invalidateQueries({ queryKey: platformKeys.all });
    },
  });
}
