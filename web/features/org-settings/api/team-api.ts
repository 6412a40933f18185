import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AcceptInvitationInput,
  AcceptInvitationResult,
  InvitationInfo,
  InviteMemberInput,
  Team,
  TeamInvitation,
  TeamMember,
  UpdateMemberInput,
} from '../../../../domain/org-team';
import { api } from '../../../lib/api-client';

// The organization's team (server: /api/orgs/:orgId/team…) and the invitation link
// (/api/invitations/:token, no session). Team query keys start with ['org', orgId, 'team'], so a
// live 'member' event or any change here refreshes every view of it.

export const teamKeys = {
  all: (orgId: string) => ['org', orgId, 'team'] as const,
  invitation: (token: string) => ['invitation', token] as const,
};

const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}/team`;

export function useTeam(orgId: string | undefined) {
  return useQuery({
    queryKey: teamKeys.all(orgId ?? ''),
    queryFn: () => api<Team>(base(orgId!)),
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
  useTeamMutation(orgId, (input: InviteMemberInput) => api<TeamInvitation>(`${base(orgId)}/invitations`, { method: 'POST', body: input }));

export const useResendInvitation = (orgId: string) =>
  useTeamMutation(orgId, (invitationId: string) =>
    api<TeamInvitation>(`${base(orgId)}/invitations/${encodeURIComponent(invitationId)}/resend`, { method: 'POST' }),
  );

export const useRevokeInvitation = (orgId: string) =>
  useTeamMutation(orgId, (invitationId: string) => api<void>(`${base(orgId)}/invitations/${encodeURIComponent(invitationId)}`, { method: 'DELETE' }));

export const useUpdateMember = (orgId: string) =>
  useTeamMutation(orgId, ({ id, ...input }: UpdateMemberInput & { id: string }) =>
    api<TeamMember>(`${base(orgId)}/members/${encodeURIComponent(id)}`, { method: 'PATCH', body: input }),
  );

export const useSetMemberActive = (orgId: string) =>
  useTeamMutation(orgId, ({ id, active }: { id: string; active: boolean }) =>
    api<TeamMember>(`${base(orgId)}/members/${encodeURIComponent(id)}/${active ? 'reactivate' : 'deactivate'}`, { method: 'POST' }),
  );

// ---------------------------------------------------------------------------------------------
// The invitation link (the accept page; no session).

export function useInvitation(token: string) {
  return useQuery({
    queryKey: teamKeys.invitation(token),
    queryFn: () => api<InvitationInfo>(`/api/invitations/${encodeURIComponent(token)}`, { anonymous: true }),
    enabled: !!token,
    // An invalid link stays invalid: no second try.
    retry: false,
  });
}

export function useAcceptInvitation(token: string) {
  return useMutation({
    mutationFn: (input: AcceptInvitationInput) =>
      api<AcceptInvitationResult>(`/api/invitations/${encodeURIComponent(token)}/accept`, { method: 'POST', body: input, anonymous: true }),
  });
}
