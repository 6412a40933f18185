import { and, asc, count, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { organizations, quoteRequests, sites, users } from '../../db/schema';

// Read models of the public (signed-out) screens. Only active organizations with status 'active'
// are ever visible here.

const visibleOrganization = and(eq(organizations.active, true), eq(organizations.status, 'active'));
const visibleSite = and(eq(sites.active, true), visibleOrganization);

export async function listVisibleOrganizations(db: Db) {
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(visibleOrganization)
    .orderBy(asc(organizations.name), asc(organizations.id));
}

/** Visible sites of every visible organization (the public portal's picker). */
export async function listVisibleSitesAnyOrg(db: Db) {
  return db
    .select({
      id: sites.id,
      name: sites.name,
      orgId: sites.orgId,
      orgName: organizations.name,
      emergencyContacts: sites.emergencyContacts,
    })
    .from(sites)
    .innerJoin(organizations, eq(organizations.id, sites.orgId))
    .where(visibleSite)
    .orderBy(asc(organizations.name), asc(sites.name), asc(sites.id));
}

export async function findVisibleSiteAnyOrg(db: Db, siteId: string) {
  const [row] = await db
    .select({ id: sites.id, name: sites.name, timeZone: sites.timeZone, operatingHours: sites.operatingHours })
    .from(sites)
    .innerJoin(organizations, eq(organizations.id, sites.orgId))
    .where(and(eq(sites.id, siteId), visibleSite));
  return row;
}


export async function countVisibleOrganizations(db: Db): Promise<number> {
  const [row] = await db.select({ value: count() }).from(organizations).where(visibleOrganization);
  return row?.value ?? 0;
}

export async function countActiveUsers(db: Db): Promise<number> {
  const [row] = await db.select({ value: count() }).from(users).where(eq(users.active, true));
  return row?.value ?? 0;
}

export async function insertQuoteRequest(
  tx: Tx,
  values: { name: string; company: string; email: string; phone: string | null; sites: number | null; message: string | null },
): Promise<string> {
  const [row] = await tx.insert(quoteRequests).values(values).returning({ id: quoteRequests.id });
  return row!.id;
}
