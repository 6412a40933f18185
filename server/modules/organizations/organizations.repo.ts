import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { organizations, orgMemberships, sites } from '../../db/schema';

/**
 * Active organizations in which the user holds an active membership, by name (spec §7). A
 * suspended organization is left out: it is closed to its members (decision 014), so offering it
 * in the selector would only lead to "not found" everywhere. `onlyOrgId` narrows the list to one
 * organization (an impersonation covers one).
 */
export async function listMemberOrganizations(db: Db, userId: string, onlyOrgId?: string | null) {
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      status: organizations.status,
      active: organizations.active,
      role: orgMemberships.role,
    })
    .from(organizations)
    .innerJoin(orgMemberships, eq(orgMemberships.orgId, organizations.id))
    .where(
      and(
        eq(organizations.active, true),
        eq(organizations.status, 'active'),
        eq(orgMemberships.userId, userId),
        eq(orgMemberships.active, true),
        ...(onlyOrgId ? [eq(organizations.id, onlyOrgId)] : []),
      ),
    )
    .orderBy(asc(organizations.name), asc(organizations.id));
}

/** Active sites of one organization, by name: every column a client may read (spec §7). */
export async function listActiveSites(db: Db, orgId: string) {
  return db
    .select({
      id: sites.id,
      name: sites.name,
      orgId: sites.orgId,
      active: sites.active,
      timeZone: sites.timeZone,
      address: sites.address,
      operatingHours: sites.operatingHours,
      slotIntervalMin: sites.slotIntervalMin,
      minAdvanceMin: sites.minAdvanceMin,
      contactPhone: sites.contactPhone,
      contactEmail: sites.contactEmail,
      emergencyContacts: sites.emergencyContacts,
    })
    .from(sites)
    .where(and(eq(sites.orgId, orgId), eq(sites.active, true)))
    .orderBy(asc(sites.name), asc(sites.id));
}
