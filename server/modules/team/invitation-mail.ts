import { TEAM_ROLE_LABELS, needsEmployeeId, signInPathForRole } from '../../../domain/org-team';
import type { OrgRole } from '../../../domain/enums';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import type { MailMessage } from '../../mail/mailer';
import { enqueueMail, type MailRenderers } from '../../mail/outbox';
import { hashToken } from '../../auth/tokens';
import * as repo from './team.repo';

export const INVITATION_MAIL_KIND = 'team.invitation';

// The invitation e-mail goes through the mail outbox, queued in the transaction that creates (or
// resends) the invitation. Its link carries the one-time token, which the database keeps only as
// a hash, so the token itself travels in the outbox row's payload: the outbox is a server-side
// table, and the e-mail it becomes carries the same token in clear anyway. At delivery the
// renderer sends the link only while it is still the invitation's live one — a row queued before
// a resend, a revoke, an acceptance or the expiry renders nothing — so an old link is never
// mailed after it stopped working.

export function queueInvitationMail(tx: Tx, now: Date, invitation: { id: string; orgId: string; email: string }, token: string) {
  return enqueueMail(tx, now, [
    {
      kind: INVITATION_MAIL_KIND,
      orgId: invitation.orgId,
      recipients: [invitation.email],
      payload: { invitationId: invitation.id, token },
    },
  ]);
}

export const acceptInvitationUrl = (ctx: AppContext, token: string) => `${ctx.config.publicUrl}/accept-invitation?token=${encodeURIComponent(token)}`;

type InvitationMailFacts = {
  email: string;
  fullName: string | null;
  orgName: string;
  role: string;
  employeeId: string | null;
  inviter: string | null;
  expiresAt: Date;
  url: string;
  signInUrl: string;
};

export function renderInvitation(facts: InvitationMailFacts): MailMessage {
  const roleLabel = TEAM_ROLE_LABELS[facts.role as OrgRole] ?? facts.role;
  const expires = `${facts.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const signIn = needsEmployeeId(facts.role)
    ? `Afterwards, sign in at ${facts.signInUrl} with your site, your employee ID${facts.employeeId ? ` (${facts.employeeId})` : ''} and your password.`
    : `Afterwards, sign in at ${facts.signInUrl} with your e-mail address and your password.`;
  const text = [
    `Hello${facts.fullName ? ` ${facts.fullName}` : ''},`,
    '',
    `${facts.inviter ?? 'An administrator'} invited you to join ${facts.orgName} on Baywise as ${roleLabel}.`,
    ...(facts.employeeId ? [`Employee ID: ${facts.employeeId}`] : []),
    '',
    'Accept the invitation and set your password here:',
    facts.url,
    '',
    `The link is valid until ${expires} and works once. If you already have a Baywise account with this e-mail address, accepting adds ${facts.orgName} to it and your password stays as it is.`,
    '',
    signIn,
    '',
    'If you did not expect this invitation, you can ignore this message.',
  ].join('\n');
  return { to: facts.email, subject: `You're invited to join ${facts.orgName} on Baywise`, text };
}

export const teamMailRenderers: MailRenderers = {
  [INVITATION_MAIL_KIND]: async (ctx, payload) => {
    if (typeof payload.invitationId !== 'string' || typeof payload.token !== 'string') return null;
    const found = await repo.findInvitationForMailAnyOrg(ctx.database.db, payload.invitationId);
    if (!found) return null;
    const { invitation } = found;
    const isLive =
      invitation.tokenHash === hashToken(payload.token) &&
      !invitation.acceptedAt &&
      !invitation.revokedAt &&
      invitation.expiresAt > ctx.clock.now();
    if (!isLive) return null;
    return renderInvitation({
      email: invitation.email,
      fullName: invitation.fullName,
      orgName: found.orgName,
      role: invitation.role,
      employeeId: invitation.employeeId,
      inviter: found.inviterName || found.inviterEmail,
      expiresAt: invitation.expiresAt,
      url: acceptInvitationUrl(ctx, payload.token),
      signInUrl: `${ctx.config.publicUrl}${signInPathForRole(invitation.role)}`,
    });
  },
};
