import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import {
  auditLog,
  authSessions,
  authTokens,
  organizations,
  orgMemberships,
  refreshTokens,
  sites,
  users,
} from '../../db/schema';

type Conn = Db | Tx;

export function findUserByEmail(db: Conn, email: string) {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .then((rows) => rows[0]);
}

/** Active memberships of a user in active organizations, with the organization's name and status. */
export function listMembershipsAnyOrg(db: Conn, userId: string) {
  return db
    .select({
      orgId: orgMemberships.orgId,
      orgName: organizations.name,
      orgStatus: organizations.status,
      orgActive: organizations.active,
      role: orgMemberships.role,
      active: orgMemberships.active,
      employeeId: orgMemberships.employeeId,
    })
    .from(orgMemberships)
    .innerJoin(organizations, eq(organizations.id, orgMemberships.orgId))
    .where(eq(orgMemberships.userId, userId))
    .orderBy(asc(organizations.name));
}

/** The reason of the organization's latest suspension, from its audit entry (null when none is on record). */
export async function findSuspensionReason(db: Conn, orgId: string): Promise<string | null> {
  const [row] = await db
    .select({ details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.orgId, orgId), eq(auditLog.resourceType, 'organization'), eq(auditLog.action, 'organization.suspended')))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(1);
  const reason = (row?.details as { reason?: unknown } | null | undefined)?.reason;
  return typeof reason === 'string' && reason.trim() ? reason : null;
}

/** A site and its organization by the site's id (the dockmaster sign-in names the site before any organization). */
export function findSiteWithOrgAnyOrg(db: Conn, siteId: string) {
  return db
    .select({
      siteId: sites.id,
      siteActive: sites.active,
      orgId: organizations.id,
      orgActive: organizations.active,
      orgStatus: organizations.status,
    })
    .from(sites)
    .innerJoin(organizations, eq(organizations.id, sites.orgId))
    .where(eq(sites.id, siteId))
    .then((rows) => rows[0]);
}

export function findMemberByEmployeeId(db: Conn, orgId: string, employeeId: string) {
  return db
    .select({ membership: orgMemberships, user: users })
    .from(orgMemberships)
    .innerJoin(users, eq(users.id, orgMemberships.userId))
    .where(and(eq(orgMemberships.orgId, orgId), sql`lower(${orgMemberships.employeeId}) = ${employeeId.toLowerCase()}`))
    .then((rows) => rows[0]);
}

export function findRefreshToken(db: Conn, tokenHash: string) {
  return db
    .select({ token: refreshTokens, session: authSessions })
    .from(refreshTokens)
    .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .then((rows) => rows[0]);
}

/** Marks a refresh token spent; false when another request spent it first. */
export async function spendRefreshToken(db: Conn, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ usedAt: at })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

export function revokeSession(db: Conn, sessionId: string, at: Date, reason: string) {
  return db
    .update(authSessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
}

export function revokeUserSessions(db: Conn, userId: string, at: Date, reason: string, exceptSessionId?: string) {
  return db
    .update(authSessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(
      and(
        eq(authSessions.userId, userId),
        isNull(authSessions.revokedAt),
        ...(exceptSessionId ? [sql`${authSessions.id} <> ${exceptSessionId}`] : []),
      ),
    );
}

export function insertAuthToken(db: Conn, values: typeof authTokens.$inferInsert) {
  return db.insert(authTokens).values(values);
}

/** Spends a one-time e-mail token atomically; returns its row when it was live. */
export function spendAuthToken(db: Conn, kind: string, tokenHash: string, at: Date) {
  return db
    .update(authTokens)
    .set({ usedAt: at })
    .where(
      and(
        eq(authTokens.kind, kind),
        eq(authTokens.tokenHash, tokenHash),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, at),
      ),
    )
    .returning()
    .then((rows) => rows[0]);
}

/**
 * The impersonation a session carries (decision 017): the member, the platform user, the reason,
 * and the organization with the member's role in it. Undefined for an ordinary session.
 */
export async function findImpersonationAnyOrg(db: Conn, sessionId: string) {
  const impersonators = alias(users, 'impersonator');
  const [row] = await db
    .select({
      id: authSessions.id,
      orgId: authSessions.orgId,
      orgName: organizations.name,
      userId: users.id,
      email: users.email,
      role: orgMemberships.role,
      impersonatorId: impersonators.id,
      impersonatorEmail: impersonators.email,
      reason: authSessions.impersonationReason,
      startedAt: authSessions.createdAt,
      expiresAt: authSessions.expiresAt,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .innerJoin(impersonators, eq(impersonators.id, authSessions.impersonatorId))
    .innerJoin(organizations, eq(organizations.id, authSessions.orgId))
    .leftJoin(orgMemberships, and(eq(orgMemberships.orgId, authSessions.orgId), eq(orgMemberships.userId, authSessions.userId)))
    .where(eq(authSessions.id, sessionId));
  if (!row || !row.orgId) return null;
  return {
    id: row.id,
    orgId: row.orgId,
    orgName: row.orgName,
    userId: row.userId,
    email: row.email,
    role: row.role ?? 'unknown',
    impersonatorId: row.impersonatorId,
    impersonatorEmail: row.impersonatorEmail,
    reason: row.reason ?? '',
    startedAt: row.startedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}
