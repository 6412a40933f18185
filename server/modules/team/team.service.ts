import type { z } from 'zod';
import {
  ALREADY_MEMBER,
  EMPLOYEE_ID_REQUIRED,
  EMPLOYEE_ID_TAKEN,
  INVITATION_PENDING,
  INVITATION_TTL_DAYS,
  LAST_ADMIN,
  needsEmployeeId,
  type inviteMemberSchema,
  type Team,
  type TeamInvitation,
  type TeamMember,
  type updateMemberSchema,
} from '../../../domain/org-team';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import type { orgInvitations } from '../../db/schema';
import { conflict, notFound } from '../../plugins/errors';
import { requireOrgAdmin, type OrgScope } from '../../plugins/org-scope';
import { writeAudit } from '../../audit/write-audit';
import { assertWithinPlanLimit } from '../billing/plan-limits';
import { hashToken, randomToken } from '../../auth/tokens';
import { queueInvitationMail } from './invitation-mail';
import { asTeamFieldError, fieldError, requireUuid } from './team-errors';
import * as repo from './team.repo';

// Settings › Team: who is in the organization, as what, and who is invited. Org admins (and
// platform admins) change it; dockmasters may read it. Every change is audited and published
// live (entity 'member'); the team's writes of one organization run one at a time (an advisory
// lock), so the employee-ID and e-mail checks cannot be raced past.

const DAY_MS = 86_400_000;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

type InvitationRow = typeof orgInvitations.$inferSelect;

function toInvitation(row: InvitationRow, invitedByEmail: string | null, now: Date): TeamInvitation {
  return {
    id: row.id,
    email: row.email,
    fullName: row.fullName,
    role: row.role,
    employeeId: row.employeeId,
    invitedByEmail,
    createdAt: row.createdAt.toISOString(),
    lastSentAt: row.lastSentAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    isExpired: row.expiresAt <= now,
  };
}

type MemberRow = Awaited<ReturnType<typeof repo.listMembers>>[number];

function toMember(row: MemberRow, scope: OrgScope): TeamMember {
  return {
    id: row.id,
    userId: row.userId,
    fullName: row.fullName,
    email: row.email,
    role: row.role,
    employeeId: row.employeeId,
    active: row.active,
    lastSignInAt: iso(row.lastSignInAt),
    deactivatedAt: iso(row.deactivatedAt),
    createdAt: row.createdAt.toISOString(),
    isYou: row.userId === scope.userId,
  };
}

function publish(ctx: AppContext, orgId: string, action: string, id: string): void {
  ctx.realtime?.publish({ entity: 'member', action, id, orgId, siteId: null, at: ctx.clock.now().toISOString() });
}

/** Runs a team write of the organization under its lock; a lost race on a unique index becomes the field error. */
async function teamWrite<T>(ctx: AppContext, orgId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await ctx.database.db.transaction(async (tx) => {
      await repo.lockTeam(tx, orgId);
      return work(tx);
    });
  } catch (error) {
    throw asTeamFieldError(error);
  }
}

export async function getTeam(ctx: AppContext, scope: OrgScope): Promise<Team> {
  const now = ctx.clock.now();
  const [members, invitations] = await Promise.all([
    repo.listMembers(ctx.database.db, scope.orgId),
    repo.listPendingInvitations(ctx.database.db, scope.orgId),
  ]);
  return {
    members: members.map((m) => toMember(m, scope)),
    invitations: invitations.map((i) => toInvitation(i.invitation, i.invitedByEmail, now)),
    // Platform staff read the team but change it only by acting as a member (decision 029).
    canManage: scope.actor === 'org_admin' && !scope.isPlatformAdmin,
  };
}

async function memberView(ctx: AppContext, scope: OrgScope, membershipId: string): Promise<TeamMember> {
  const [row] = await repo.listMembers(ctx.database.db, scope.orgId, membershipId);
  if (!row) throw notFound('Member');
  return toMember(row, scope);
}

/**
 * Stores an invitation valid for INVITATION_TTL_DAYS and queues its e-mail, in the caller's
 * transaction: an org admin's invite, and the first admin's when the platform creates an
 * organization (same row, same e-mail, same link).
 */
export async function createInvitation(
  tx: Tx,
  now: Date,
  input: { orgId: string; email: string; fullName: string | null; role: string; employeeId: string | null; invitedBy: string },
  token: string,
): Promise<InvitationRow> {
  const invitation = await repo.insertInvitation(tx, {
    ...input,
    tokenHash: hashToken(token),
    createdAt: now,
    lastSentAt: now,
    expiresAt: new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS),
  });
  await queueInvitationMail(tx, now, invitation, token);
  return invitation;
}

export async function inviteMember(
  ctx: AppContext,
  scope: OrgScope,
  input: z.output<typeof inviteMemberSchema>,
  ip: string | null,
): Promise<TeamInvitation> {
  requireOrgAdmin(scope);
  const now = ctx.clock.now();
  const email = input.email.toLowerCase();
  const employeeId = input.employeeId || null;
  const token = randomToken();
  const row = await teamWrite(ctx, scope.orgId, async (tx) => {
    const member = await repo.findMembershipByEmail(tx, scope.orgId, email);
    if (member) {
      throw fieldError('email', member.active ? ALREADY_MEMBER : 'This person is a deactivated member of your organization. Reactivate them instead.');
    }
    if (await repo.findPendingInvitationByEmail(tx, scope.orgId, email)) throw fieldError('email', INVITATION_PENDING);
    if (employeeId && (await repo.isEmployeeIdTaken(tx, scope.orgId, employeeId))) throw fieldError('employeeId', EMPLOYEE_ID_TAKEN);
    // A pending invitation holds a place: members count active memberships and pending invitations.
    await assertWithinPlanLimit(tx, scope.orgId, 'members', { now });
    const invitation = await createInvitation(
      tx,
      now,
      { orgId: scope.orgId, email, fullName: input.fullName || null, role: input.role, employeeId, invitedBy: scope.userId },
      token,
    );
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'invitation.created',
      resourceType: 'invitation',
      resourceId: invitation.id,
      orgId: scope.orgId,
      details: { email, role: input.role, employee_id: employeeId },
      ip,
    });
    return invitation;
  });
  ctx.mailWorker?.kick();
  publish(ctx, scope.orgId, 'invited', row.id);
  return toInvitation(row, scope.auditActor?.email ?? null, now);
}

/** A pending invitation of the organization, locked; 404 for another organization's, 409 once closed. */
async function pendingInvitation(tx: Tx, scope: OrgScope, invitationId: string): Promise<InvitationRow> {
  const invitation = await repo.findInvitation(tx, scope.orgId, invitationId, true);
  if (!invitation) throw notFound('Invitation');
  if (invitation.acceptedAt) throw conflict('invitation_closed', 'This invitation has already been accepted.');
  if (invitation.revokedAt) throw conflict('invitation_closed', 'This invitation has been revoked.');
  return invitation;
}

/** A new link (the old one stops working at once), valid for another INVITATION_TTL_DAYS. */
export async function resendInvitation(ctx: AppContext, scope: OrgScope, invitationId: string, ip: string | null): Promise<TeamInvitation> {
  requireOrgAdmin(scope);
  requireUuid(invitationId, 'Invitation');
  const now = ctx.clock.now();
  const token = randomToken();
  const row = await teamWrite(ctx, scope.orgId, async (tx) => {
    const invitation = await pendingInvitation(tx, scope, invitationId);
    const changes = { tokenHash: hashToken(token), lastSentAt: now, expiresAt: new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS) };
    await repo.updateInvitation(tx, scope.orgId, invitation.id, changes);
    await queueInvitationMail(tx, now, invitation, token);
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'invitation.resent',
      resourceType: 'invitation',
      resourceId: invitation.id,
      orgId: scope.orgId,
      details: { email: invitation.email, role: invitation.role },
      ip,
    });
    return { ...invitation, ...changes };
  });
  ctx.mailWorker?.kick();
  publish(ctx, scope.orgId, 'invitation_resent', row.id);
  const [withInviter] = (await repo.listPendingInvitations(ctx.database.db, scope.orgId)).filter((i) => i.invitation.id === row.id);
  return toInvitation(row, withInviter?.invitedByEmail ?? null, now);
}

export async function revokeInvitation(ctx: AppContext, scope: OrgScope, invitationId: string, ip: string | null): Promise<void> {
  requireOrgAdmin(scope);
  requireUuid(invitationId, 'Invitation');
  const now = ctx.clock.now();
  await teamWrite(ctx, scope.orgId, async (tx) => {
    const invitation = await pendingInvitation(tx, scope, invitationId);
    await repo.updateInvitation(tx, scope.orgId, invitation.id, { revokedAt: now });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'invitation.revoked',
      resourceType: 'invitation',
      resourceId: invitation.id,
      orgId: scope.orgId,
      details: { email: invitation.email, role: invitation.role },
      ip,
    });
  });
  publish(ctx, scope.orgId, 'invitation_revoked', invitationId);
}

/** Refuses (409) when `membershipId` holds the organization's last active admin membership; locks them all. */
async function assertNotLastAdmin(tx: Tx, orgId: string, membershipId: string): Promise<void> {
  const admins = await repo.lockActiveAdmins(tx, orgId);
  if (admins.every((a) => a.id === membershipId)) throw conflict('last_admin', LAST_ADMIN);
}

async function lockedMember(tx: Tx, scope: OrgScope, membershipId: string) {
  const found = await repo.findMembership(tx, scope.orgId, membershipId, true);
  if (!found) throw notFound('Member');
  return found;
}

export async function updateMember(
  ctx: AppContext,
  scope: OrgScope,
  membershipId: string,
  input: z.output<typeof updateMemberSchema>,
  ip: string | null,
): Promise<TeamMember> {
  requireOrgAdmin(scope);
  requireUuid(membershipId, 'Member');
  const now = ctx.clock.now();
  const changed = await teamWrite(ctx, scope.orgId, async (tx) => {
    const { membership: m, email } = await lockedMember(tx, scope, membershipId);
    const role = input.role ?? m.role;
    const employeeId = input.employeeId === undefined ? m.employeeId : input.employeeId || null;
    if (role === m.role && employeeId === m.employeeId) return false;
    if (needsEmployeeId(role) && !employeeId) throw fieldError('employeeId', EMPLOYEE_ID_REQUIRED);
    if (employeeId && employeeId !== m.employeeId && (await repo.isEmployeeIdTaken(tx, scope.orgId, employeeId, { membershipId: m.id }))) {
      throw fieldError('employeeId', EMPLOYEE_ID_TAKEN);
    }
    if (m.role === 'org_admin' && role !== 'org_admin' && m.active) await assertNotLastAdmin(tx, scope.orgId, m.id);
    await repo.updateMembership(tx, scope.orgId, m.id, { role, employeeId, updatedAt: now });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'member.updated',
      resourceType: 'member',
      resourceId: m.id,
      orgId: scope.orgId,
      details: { email, from: { role: m.role, employee_id: m.employeeId }, to: { role, employee_id: employeeId } },
      ip,
    });
    return true;
  });
  if (changed) publish(ctx, scope.orgId, 'updated', membershipId);
  return memberView(ctx, scope, membershipId);
}

/**
 * Deactivates a membership: the person's sessions signed in to this organization end at once, and
 * every session of theirs when no other active membership or platform role is left.
 */
export async function deactivateMember(ctx: AppContext, scope: OrgScope, membershipId: string, ip: string | null): Promise<TeamMember> {
  requireOrgAdmin(scope);
  requireUuid(membershipId, 'Member');
  const now = ctx.clock.now();
  const changed = await teamWrite(ctx, scope.orgId, async (tx) => {
    const { membership: m, email, platformRole } = await lockedMember(tx, scope, membershipId);
    if (m.userId === scope.userId) {
      throw conflict('cannot_deactivate_self', 'You cannot deactivate your own membership. Ask another organization admin.');
    }
    if (!m.active) return false;
    if (m.role === 'org_admin') await assertNotLastAdmin(tx, scope.orgId, m.id);
    await repo.updateMembership(tx, scope.orgId, m.id, { active: false, deactivatedAt: now, updatedAt: now });
    await repo.revokeOrgSessions(tx, m.userId, scope.orgId, now, 'membership_deactivated');
    const endsEverything = !platformRole && !(await repo.hasOtherActiveMembershipAnyOrg(tx, m.userId, scope.orgId));
    if (endsEverything) await repo.revokeAllSessions(tx, m.userId, now, 'membership_deactivated');
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'member.deactivated',
      resourceType: 'member',
      resourceId: m.id,
      orgId: scope.orgId,
      details: { email, role: m.role, all_sessions_ended: endsEverything },
      ip,
    });
    return true;
  });
  if (changed) publish(ctx, scope.orgId, 'deactivated', membershipId);
  return memberView(ctx, scope, membershipId);
}

export async function reactivateMember(ctx: AppContext, scope: OrgScope, membershipId: string, ip: string | null): Promise<TeamMember> {
  requireOrgAdmin(scope);
  requireUuid(membershipId, 'Member');
  const now = ctx.clock.now();
  const changed = await teamWrite(ctx, scope.orgId, async (tx) => {
    const { membership: m, email } = await lockedMember(tx, scope, membershipId);
    if (m.active) return false;
    if (needsEmployeeId(m.role) && !m.employeeId) throw fieldError('employeeId', EMPLOYEE_ID_REQUIRED);
    await assertWithinPlanLimit(tx, scope.orgId, 'members', { now });
    await repo.updateMembership(tx, scope.orgId, m.id, { active: true, deactivatedAt: null, updatedAt: now });
    await writeAudit(tx, {
      actor: scope.auditActor,
      action: 'member.reactivated',
      resourceType: 'member',
      resourceId: m.id,
      orgId: scope.orgId,
      details: { email, role: m.role },
      ip,
    });
    return true;
  });
  if (changed) publish(ctx, scope.orgId, 'reactivated', membershipId);
  return memberView(ctx, scope, membershipId);
}
