import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { orgMemberships, users } from '../db/schema';

/** E-mail addresses of the organization's active admins (new requests, emergencies, a disabled webhook). */
export function listOrgAdminEmails(db: Db | Tx, orgId: string): Promise<string[]> {
  return db
    .select({ email: users.email })
    .from(orgMemberships)
    .innerJoin(users, eq(users.id, orgMemberships.userId))
    .where(and(eq(orgMemberships.orgId, orgId), eq(orgMemberships.role, 'org_admin'), eq(orgMemberships.active, true), eq(users.active, true)))
    .orderBy(asc(users.email))
    .then((rows) => rows.map((r) => r.email));
}
