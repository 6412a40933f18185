import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { auditLog, orgMemberships, users } from '../db/schema';
import { currentImpersonator, type Impersonator } from './actor-context';

export type AuditActor = { id: string; email?: string | null; role?: string | null } | null;

export type AuditEntry = {
  actor: AuditActor;
  action: string;
  resourceType: string;
  resourceId?: string | null;
  orgId?: string | null;
  siteId?: string | null;
  details?: Record<string, unknown>;
  ip?: string | null;
  /** The role recorded when there is no signed-in actor: 'public' (the portal, a manage link) or 'system' (background jobs). */
  anonymousRole?: 'public' | 'system';
  /**
   * The platform user behind the actor. Defaults to the one of the current request (a request made
   * with an impersonation session, server/audit/actor-context.ts); null records none.
   */
  impersonator?: Impersonator | null;
};

/**
 * Writes one audit_log row (spec §7 "Audit write"). The actor's e-mail comes from their profile and
 * the role from their active membership in the entry's organization (platform role first), or
 * 'unknown'; anonymous actors (the public portal) are recorded with role 'public'.
 * Pass the transaction handle so the entry commits or rolls back with the change it records.
 * During an impersonation the entry also names the platform user (impersonator_id/_email, and
 * `impersonatedBy` in the details, so every screen and export that shows details shows it).
 */
export async function writeAudit(db: Db | Tx, entry: AuditEntry): Promise<void> {
  let actorEmail = entry.actor?.email ?? null;
  let actorRole = entry.actor?.role ?? null;
  if (entry.actor && (!actorEmail || !actorRole)) {
    const [user] = await db
      .select({ email: users.email, platformRole: users.platformRole })
      .from(users)
      .where(eq(users.id, entry.actor.id));
    actorEmail ??= user?.email ?? null;
    if (!actorRole) {
      actorRole = user?.platformRole ?? null;
      if (!actorRole) {
        const [membership] = await db
          .select({ role: orgMemberships.role })
          .from(orgMemberships)
          .where(
            and(
              eq(orgMemberships.userId, entry.actor.id),
              eq(orgMemberships.active, true),
              ...(entry.orgId ? [eq(orgMemberships.orgId, entry.orgId)] : []),
            ),
          )
          .orderBy(asc(orgMemberships.createdAt))
          .limit(1);
        actorRole = membership?.role ?? 'unknown';
      }
    }
  }
  const impersonator = entry.impersonator === undefined ? currentImpersonator() : entry.impersonator;
  const details = impersonator ? { impersonatedBy: impersonator.email, ...entry.details } : (entry.details ?? {});
  await db.insert(auditLog).values({
    actorId: entry.actor?.id ?? null,
    actorEmail,
    actorRole: entry.actor ? actorRole : (entry.anonymousRole ?? 'public'),
    action: entry.action,
    resourceType: entry.resourceType,
    resourceId: entry.resourceId ?? null,
    orgId: entry.orgId ?? null,
    siteId: entry.siteId ?? null,
    details,
    ip: entry.ip ?? null,
    impersonatorId: impersonator?.id ?? null,
    impersonatorEmail: impersonator?.email ?? null,
  });
}
