import { and, asc, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { authSessions, organizations, orgInvitations, orgMemberships, users } from '../../db/schema';

// The team's SQL: memberships and invitations of one organization. Every query takes the
// organization's id; a row of another organization is never read or changed.

type Conn = Db | Tx;

/** Serialises the team writes of one organization (employee IDs and e-mails are checked, then written). */
export async function lockTeam(tx: Tx, orgId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`team:${orgId}`}, 0))`);
}

/** The organization's members (or the one named), active ones first, by name. */
export function listMembers(db: Conn, orgId: string, membershipId?: string) {
  return db
    .select({
      id: orgMemberships.id,
      userId: orgMemberships.userId,
      fullName: users.fullName,
      email: users.email,
      role: orgMemberships.role,
      employeeId: orgMemberships.employeeId,
      active: orgMemberships.active,
      lastSignInAt: users.lastSignInAt,
      deactivatedAt: orgMemberships.deactivatedAt,
      createdAt: orgMemberships.createdAt,
    })
    .from(orgMemberships)
    .innerJoin(users, eq(users.id, orgMemberships.userId))
    .where(and(eq(orgMemberships.orgId, orgId), ...(membershipId ? [eq(orgMemberships.id, membershipId)] : [])))
    .orderBy(desc(orgMemberships.active), sql`lower(coalesce(${users.fullName}, ${users.email}))`, asc(orgMemberships.id));
}

const inviter = alias(users, 'inviter');

/** Pending invitations: neither accepted nor revoked (expired ones too), newest first. */
export function listPendingInvitations(db: Conn, orgId: string) {
  return db
    .select({ invitation: orgInvitations, invitedByEmail: inviter.email })
    .from(orgInvitations)
    .leftJoin(inviter, eq(inviter.id, orgInvitations.invitedBy))
    .where(and(eq(orgInvitations.orgId, orgId), isNull(orgInvitations.acceptedAt), isNull(orgInvitations.revokedAt)))
    .orderBy(desc(orgInvitations.createdAt), asc(orgInvitations.id));
}

export function findMembership(db: Conn, orgId: string, membershipId: string, forUpdate = false) {
  const query = db
    .select({ membership: orgMemberships, email: users.email, platformRole: users.platformRole })
    .from(orgMemberships)
    .innerJoin(users, eq(users.id, orgMemberships.userId))
    .where(and(eq(orgMemberships.orgId, orgId), eq(orgMemberships.id, membershipId)));
  return (forUpdate ? query.for('update', { of: orgMemberships }) : query).then((rows) => rows[0]);
}

/** The organization's active admin memberships, locked until the transaction ends. */
export function lockActiveAdmins(tx: Tx, orgId: string) {
  return tx
    .select({ id: orgMemberships.id })
    .from(orgMemberships)
    .where(and(eq(orgMemberships.orgId, orgId), eq(orgMemberships.role, 'org_admin'), eq(orgMemberships.active, true)))
    .orderBy(asc(orgMemberships.id))
    .for('update');
}

/** The membership (active or not) of the account with this e-mail, if any. */
export function findMembershipByEmail(db: Conn, orgId: string, email: string) {
  return db
    .select({ id: orgMemberships.id, active: orgMemberships.active })
    .from(orgMemberships)
    .innerJoin(users, eq(users.id, orgMemberships.userId))
    .where(and(eq(orgMemberships.orgId, orgId), sql`lower(${users.email}) = ${email.toLowerCase()}`))
    .then((rows) => rows[0]);
}

/**
 * Whether the employee ID (any case) is held by a member — other than `exceptMembershipId` — or
 * by a pending invitation — other than `exceptInvitationId` — of the organization.
 */
export async function isEmployeeIdTaken(
  db: Conn,
  orgId: string,
  employeeId: string,
  except: { membershipId?: string; invitationId?: string } = {},
): Promise<boolean> {
  const key = employeeId.toLowerCase();
  const [member] = await db
    .select({ id: orgMemberships.id })
    .from(orgMemberships)
    .where(
      and(
        eq(orgMemberships.orgId, orgId),
        sql`lower(${orgMemberships.employeeId}) = ${key}`,
        ...(except.membershipId ? [ne(orgMemberships.id, except.membershipId)] : []),
      ),
    )
    .limit(1);
  if (member) return true;
  const [invitation] = await db
    .select({ id: orgInvitations.id })
    .from(orgInvitations)
    .where(
      and(
        eq(orgInvitations.orgId, orgId),
        isNull(orgInvitations.acceptedAt),
        isNull(orgInvitations.revokedAt),
        sql`lower(${orgInvitations.employeeId}) = ${key}`,
        ...(except.invitationId ? [ne(orgInvitations.id, except.invitationId)] : []),
      ),
    )
    .limit(1);
  return !!invitation;
}

export function findPendingInvitationByEmail(db: Conn, orgId: string, email: string) {
  return db
    .select({ id: orgInvitations.id })
    .from(orgInvitations)
    .where(
      and(
        eq(orgInvitations.orgId, orgId),
        isNull(orgInvitations.acceptedAt),
        isNull(orgInvitations.revokedAt),
        sql`lower(${orgInvitations.email}) = ${email.toLowerCase()}`,
      ),
    )
    .then((rows) => rows[0]);
}

export function insertInvitation(tx: Tx, values: typeof orgInvitations.$inferInsert) {
  return tx
    .insert(orgInvitations)
    .values(values)
    .returning()
    .then((rows) => rows[0]!);
}

export function findInvitation(db: Conn, orgId: string, invitationId: string, forUpdate = false) {
  const query = db
    .select()
    .from(orgInvitations)
    .where(and(eq(orgInvitations.orgId, orgId), eq(orgInvitations.id, invitationId)));
  return (forUpdate ? query.for('update') : query).then((rows) => rows[0]);
}

export function updateInvitation(tx: Tx, orgId: string, invitationId: string, changes: Partial<typeof orgInvitations.$inferInsert>) {
  return tx
    .update(orgInvitations)
    .set(changes)
    .where(and(eq(orgInvitations.orgId, orgId), eq(orgInvitations.id, invitationId)));
}

export function updateMembership(tx: Tx, orgId: string, membershipId: string, changes: Partial<typeof orgMemberships.$inferInsert>) {
  return tx
    .update(orgMemberships)
    .set(changes)
    .where(and(eq(orgMemberships.orgId, orgId), eq(orgMemberships.id, membershipId)));
}

/** Ends a user's live sessions signed in to this organization. */
export function revokeOrgSessions(tx: Tx, userId: string, orgId: string, at: Date, reason: string) {
  return tx
    .update(authSessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(authSessions.userId, userId), eq(authSessions.orgId, orgId), isNull(authSessions.revokedAt)));
}

/** Ends every live session of a user. */
export function revokeAllSessions(tx: Tx, userId: string, at: Date, reason: string) {
  return tx
    .update(authSessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)));
}

/** Whether the user holds an active membership in an organization other than `orgId` (looks at every other organization). */
export async function hasOtherActiveMembershipAnyOrg(db: Conn, userId: string, orgId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: orgMemberships.id })
    .from(orgMemberships)
    .where(and(eq(orgMemberships.userId, userId), eq(orgMemberships.active, true), ne(orgMemberships.orgId, orgId)))
    .limit(1);
  return !!row;
}

// ---------------------------------------------------------------------------------------------
// The invitation link (no session): found by its token's hash.

/** A pending, unexpired invitation of an active organization, by its token's hash (the token is the credential: any organization). */
export function findLiveInvitationByTokenHashAnyOrg(db: Conn, tokenHash: string, now: Date, forUpdate = false) {
  const query = db
    .select({ invitation: orgInvitations, orgName: organizations.name })
    .from(orgInvitations)
    .innerJoin(organizations, eq(organizations.id, orgInvitations.orgId))
    .where(
      and(
        eq(orgInvitations.tokenHash, tokenHash),
        isNull(orgInvitations.acceptedAt),
        isNull(orgInvitations.revokedAt),
        gt(orgInvitations.expiresAt, now),
        eq(organizations.active, true),
        eq(organizations.status, 'active'),
      ),
    );
  return (forUpdate ? query.for('update', { of: orgInvitations }) : query).then((rows) => rows[0]);
}

/** An invitation with its organization's name and the inviter's name, for its e-mail (the mail worker serves every organization). */
export function findInvitationForMailAnyOrg(db: Conn, invitationId: string) {
  return db
    .select({
      invitation: orgInvitations,
      orgName: organizations.name,
      inviterName: inviter.fullName,
      inviterEmail: inviter.email,
    })
    .from(orgInvitations)
    .innerJoin(organizations, eq(organizations.id, orgInvitations.orgId))
    .leftJoin(inviter, eq(inviter.id, orgInvitations.invitedBy))
    .where(eq(orgInvitations.id, invitationId))
    .then((rows) => rows[0]);
}

export function findUserByEmail(db: Conn, email: string) {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .then((rows) => rows[0]);
}

export function insertUser(tx: Tx, values: typeof users.$inferInsert) {
  return tx
    .insert(users)
    .values(values)
    .returning()
    .then((rows) => rows[0]!);
}

export function updateUser(tx: Tx, userId: string, changes: Partial<typeof users.$inferInsert>) {
  return tx.update(users).set(changes).where(eq(users.id, userId));
}

/**
 * Adds the membership, or brings back the user's earlier one in this organization with the
 * invitation's role and employee ID.
 */
export function upsertMembership(tx: Tx, values: { orgId: string; userId: string; role: string; employeeId: string | null; at: Date }) {
  return tx
    .insert(orgMemberships)
    .values({ orgId: values.orgId, userId: values.userId, role: values.role, employeeId: values.employeeId, active: true, createdAt: values.at, updatedAt: values.at })
    .onConflictDoUpdate({
      target: [orgMemberships.orgId, orgMemberships.userId],
      set: { role: values.role, employeeId: values.employeeId, active: true, deactivatedAt: null, updatedAt: values.at },
    })
    .returning({ id: orgMemberships.id })
    .then((rows) => rows[0]!);
}
