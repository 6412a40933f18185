import { z } from 'zod';
import { acceptInvitationResultSchema, acceptInvitationSchema, invitationInfoSchema } from '../org-team';
import { defineContract } from './define-contract';

// An invitation link, read and accepted without a session (server/modules/team/invitation.routes.ts).

const tokenParams = z.object({ token: z.string().max(500) });

export const invitationContract = defineContract({
  'GET /api/invitations/:token': { params: tokenParams, response: { 200: invitationInfoSchema } },
  'POST /api/invitations/:token/accept': { params: tokenParams, body: acceptInvitationSchema, response: { 200: acceptInvitationResultSchema } },
});
