import type { z } from 'zod';
import {
  INVALID_INVITATION,
  signInPathForRole,
  type acceptInvitationSchema,
  type AcceptInvitationResult,
  type InvitationInfo,
} from '../../../domain/org-team';
import type { AppContext } from '../../context';
import { AppError } from '../../plugins/errors';
import { writeAudit } from '../../audit/write-audit';
import { assertWithinPlanLimit } from '../billing/plan-limits';
import { hashPassword } from '../../auth/passwords';
import { hashToken } from '../../auth/tokens';
import { asTeamFieldError, fieldError } from './team-errors';
import * as repo from './team.repo';

// The invitation link, for the invited person (no session): what it invites to, and accepting it.
// An unknown, expired, revoked or already accepted link answers the same 404.

const invalidInvitation = () => new AppError(404, 'invalid_invitation', INVALID_INVITATION);

/** Tokens are 43 URL-safe characters; anything far off is not worth a query. */
const isPlausibleToken = (token: string) => token.length >= 16 && token.length <= 200;

export async function getInvitation(ctx: AppContext, token: string): Promise<InvitationInfo> {
  if (!isPlausibleToken(token)) throw invalidInvitation();
  const found = await repo.findLiveInvitationByTokenHashAnyOrg(ctx.database.db, hashToken(token), ctx.clock.now());
  if (!found) throw invalidInvitation();
  const { invitation } = found;
  const user = await repo.findUserByEmail(ctx.database.db, invitation.email);
  return {
    orgName: found.orgName,
    email: invitation.email,
    fullName: invitation.fullName,
    role: invitation.role,
    employeeId: invitation.employeeId,
    expiresAt: invitation.expiresAt.toISOString(),
    hasAccount: hasUsableAccount(user),
  };
}

/**
 * An account whose e-mail address was confirmed keeps its password. An unconfirmed one may have
 * been opened by someone else with this address: the invitation proves the address is the
 * invitee's, so they set the password (as with a reset) and the address becomes confirmed.
 */
function hasUsableAccount(user: { emailConfirmedAt: Date | null } | undefined): boolean {
  return !!user?.emailConfirmedAt;
}

/**
 * Accepts the invitation in one transaction: the account (new, e-mail confirmed) or the existing
 * one, the membership with the invitation's role and employee ID, the invitation marked accepted.
 */
export async function acceptInvitation(
  ctx: AppContext,
  token: string,
  input: z.output<typeof acceptInvitationSchema>,
  ip: string | null,
): Promise<AcceptInvitationResult> {
  if (!isPlausibleToken(token)) throw invalidInvitation();
  const tokenHash = hashToken(token);
  const now = ctx.clock.now();
  const peek = await repo.findLiveInvitationByTokenHashAnyOrg(ctx.database.db, tokenHash, now);
  if (!peek) throw invalidInvitation();
  // Hashing takes a while: before the transaction, and only when a password was sent.
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  let result: AcceptInvitationResult & { membershipId: string; orgId: string };
  try {
    result = await ctx.database.db.transaction(async (tx) => {
      await repo.lockTeam(tx, peek.invitation.orgId);
      const found = await repo.findLiveInvitationByTokenHashAnyOrg(tx, tokenHash, now, true);
      if (!found) throw invalidInvitation();
      const { invitation } = found;
      // The invitation held a place when it was sent; accepting it needs one among the active
      // members (other pending invitations do not stand in its way).
      await assertWithinPlanLimit(tx, invitation.orgId, 'members', { now, pendingInvitations: false });
      const fullName = input.fullName || invitation.fullName || null;
      let user = await repo.findUserByEmail(tx, invitation.email);
      const isNewAccount = !user;
      if (!user) {
        if (!fullName) throw fieldError('fullName', 'Name is required');
        if (!passwordHash) throw fieldError('password', 'Password is required');
        user = await repo.insertUser(tx, {
          email: invitation.email.toLowerCase(),
          passwordHash,
          fullName,
          emailConfirmedAt: now,
          createdAt: now,
          updatedAt: now,
        });
      } else if (!user.active) {
        throw new AppError(403, 'account_disabled', 'This account is disabled. Contact your organization admin.');
      } else if (!hasUsableAccount(user)) {
        if (!passwordHash) throw fieldError('password', 'Password is required');
        await repo.updateUser(tx, user.id, { passwordHash, emailConfirmedAt: now, fullName: user.fullName || fullName, updatedAt: now });
        await repo.revokeAllSessions(tx, user.id, now, 'password_reset');
      } else if (!user.fullName && fullName) {
        await repo.updateUser(tx, user.id, { fullName, updatedAt: now });
      }
      const membership = await repo.upsertMembership(tx, {
        orgId: invitation.orgId,
        userId: user.id,
        role: invitation.role,
        employeeId: invitation.employeeId,
        at: now,
      });
      await repo.updateInvitation(tx, invitation.orgId, invitation.id, { acceptedAt: now, userId: user.id });
      await writeAudit(tx, {
        actor: { id: user.id, email: user.email, role: invitation.role },
        action: 'invitation.accepted',
        resourceType: 'member',
        resourceId: membership.id,
        orgId: invitation.orgId,
        details: { invitation_id: invitation.id, role: invitation.role, employee_id: invitation.employeeId, new_account: isNewAccount },
        ip,
      });
      return {
        orgName: found.orgName,
        email: user.email,
        role: invitation.role,
        employeeId: invitation.employeeId,
        signInPath: signInPathForRole(invitation.role),
        membershipId: membership.id,
        orgId: invitation.orgId,
      };
    });
  } catch (error) {
    throw asTeamFieldError(error);
  }
  const { membershipId, orgId, ...answer } = result;
  ctx.realtime?.publish({ entity: 'member', action: 'joined', id: membershipId, orgId, siteId: null, at: now.toISOString() });
  return answer;
}
