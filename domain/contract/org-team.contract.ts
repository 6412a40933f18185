import { z } from 'zod';
import { inviteMemberSchema, teamInvitationSchema, teamMemberSchema, teamSchema, updateMemberSchema } from '../org-team';
import { defineContract } from './define-contract';

// Members and invitations (server/modules/team/org-team.routes.ts).

const memberParams = z.object({ orgId: z.string(), membershipId: z.string().max(100) });
const invitationParams = z.object({ orgId: z.string(), invitationId: z.string().max(100) });

export const orgTeamContract = defineContract({
  'GET /api/orgs/:orgId/team': { response: { 200: teamSchema } },
  'POST /api/orgs/:orgId/team/invitations': { body: inviteMemberSchema, response: { 201: teamInvitationSchema } },
  'POST /api/orgs/:orgId/team/invitations/:invitationId/resend': { params: invitationParams, response: { 200: teamInvitationSchema } },
  'DELETE /api/orgs/:orgId/team/invitations/:invitationId': { params: invitationParams, response: { 204: z.null() } },
  'PATCH /api/orgs/:orgId/team/members/:membershipId': { params: memberParams, body: updateMemberSchema, response: { 200: teamMemberSchema } },
  'POST /api/orgs/:orgId/team/members/:membershipId/deactivate': { params: memberParams, response: { 200: teamMemberSchema } },
  'POST /api/orgs/:orgId/team/members/:membershipId/reactivate': { params: memberParams, response: { 200: teamMemberSchema } },
});
