import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AcceptInvitationInput, InviteMemberInput, UpdateMemberInput } from '../../../../domain/org-team';
import { apiCall } from '../../../lib/api-client';

// The organization's team (server: /api/orgs/:orgId/team…) and the invitation link
// (/api/invitations/:token, no session). Team query keys start with ['org', orgId, 'team'], so a
// live 'member' event or any change here refreshes every view of it.

export const teamKeys = {
  all: (orgId: string) => ['org', orgId, 'team'] as const,
  invitation: (token: string) => ['invitation', token] as const,
};

export function useTeam(orgId: string | undefined) {
  return useQuery({
    queryKey: teamKeys.all(orgId ?? ''),
    queryFn: () => apiCall('GET /api/orgs/:orgId/team', { params: { orgId: orgId! } }),
    enabled: !!orgId,
  });
}

/** A team write; on success the team is fetched again. */
function useTeamMutation<I, R>(orgId: string, request: (input: I) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.all(orgId) }),
  });
}

export const useInviteMember = (orgId: string) =>
  useTeamMutation(orgId, (input: InviteMemberInput) => apiCall('POST /api/orgs/:orgId/team/invitations', { params: { orgId }, body: input }));

export const useResendInvitation = (orgId: string) =>
  useTeamMutation(orgId, (invitationId: string) => apiCall('POST /api/orgs/:orgId/team/invitations/:invitationId/resend', { params: { orgId, invitationId } }));

export const useRevokeInvitation = (orgId: string) =>
  useTeamMutation(orgId, (invitationId: string) => apiCall('DELETE /api/orgs/:orgId/team/invitations/:invitationId', { params: { orgId, invitationId } }));

export const useUpdateMember = (orgId: string) =>
  useTeamMutation(orgId, ({ id, ...input }: UpdateMemberInput & { id: string }) =>
    apiCall('PATCH /api/orgs/:orgId/team/members/:membershipId', { params: { orgId, membershipId: id }, body: input }),
  );

export const useSetMemberActive = (orgId: string) =>
  useTeamMutation(orgId, ({ id, active }: { id: string; active: boolean }) =>
    active
      ? apiCall('POST /api/orgs/:orgId/team/members/:membershipId/reactivate', { params: { orgId, membershipId: id } })
      : apiCall('POST /api/orgs/:orgId/team/members/:membershipId/deactivate', { params: { orgId, membershipId: id } }),
  );

// ---------------------------------------------------------------------------------------------
// The invitation link (the accept page; no session).

export function useInvitation(token: string) {
  return useQuery({
    queryKey: teamKeys.invitation(token),
    queryFn: () => apiCall('GET /api/invitations/:token', { params: { token }, anonymous: true }),
    enabled: !!token,
    // An invalid link stays invalid: no second try.
    retry: false,
  });
}

export function useAcceptInvitation(token: string) {
  return useMutation({
    mutationFn: (input: AcceptInvitationInput) =>
      apiCall('POST /api/invitations/:token/accept', { params: { token }, body: input, anonymous: true }),
  });
}
