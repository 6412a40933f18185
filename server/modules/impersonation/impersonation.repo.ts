import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { authSessions, organizations, orgMemberships, users } from '../../db/schema';

type Conn = Db | Tx;

export function findOrganization(db: Conn, orgId: string) {
  return db
    .select({ id: organizations.id, name: organizations.name, status: organizations.status, active: organizations.active })
    .from(organizations)
    .where(eq(organizations.id, orgId))
    .then((rows) => rows[0]);
}

/** The user and their membership in the organization (null membership: not a member). */
export function findMember(db: Conn, userId: string, orgId: string) {
  return db
    .select({
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      platformRole: users.platformRole,
      active: users.active,
      membershipRole: orgMemberships.role,
      membershipActive: orgMemberships.active,
    })
    .from(users)
    .leftJoin(orgMemberships, and(eq(orgMemberships.userId, users.id), eq(orgMemberships.orgId, orgId)))
    .where(eq(users.id, userId))
    .then((rows) => rows[0]);
}

const sessionColumns = {
  id: authSessions.id,
  orgId: authSessions.orgId,
  expiresAt: authSessions.expiresAt,
  revokedAt: authSessions.revokedAt,
  memberId: users.id,
  memberEmail: users.email,
};

/** One impersonation started by `impersonatorId` (a platform user: any organization). */
export function findStartedByAnyOrg(db: Conn, sessionId: string, impersonatorId: string) {
  return db
    .select(sessionColumns)
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(and(eq(authSessions.id, sessionId), eq(authSessions.impersonatorId, impersonatorId)))
    .then((rows) => rows[0]);
}

/** The impersonation sessions of a platform user not yet ended: live ones, and expired ones whose end is not recorded. */
export function listOpenStartedByAnyOrg(db: Conn, impersonatorId: string) {
  return db
    .select(sessionColumns)
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(and(eq(authSessions.impersonatorId, impersonatorId), isNull(authSessions.revokedAt)));
}

/** Ends a session now (or at `at`); false when it had already ended. */
export async function endSession(db: Conn, sessionId: string, at: Date, reason: string): Promise<boolean> {
  const rows = await db
    .update(authSessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)))
    .returning({ id: authSessions.id });
  return rows.length === 1;
}

