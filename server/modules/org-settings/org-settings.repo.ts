import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { readOrgSettings, type OrgSettings } from '../../../domain/org-settings';
import type { Db, Tx } from '../../db/client';
import { organizations, siteCameraTokens, sites, users } from '../../db/schema';

// SQL of the organization's own settings: profile, settings jsonb, logo columns, camera tokens.
// Every query names the organization.

type Conn = Db | Tx;

const orgRow = {
  name: organizations.name,
  contactEmail: organizations.contactEmail,
  contactPhone: organizations.contactPhone,
  address: organizations.address,
  settings: organizations.settings,
  logoKey: organizations.logoKey,
  logoContentType: organizations.logoContentType,
};
export type OrgSettingsRow = {
  name: string;
  contactEmail: string | null;
  contactPhone: string | null;
  address: string | null;
  settings: Record<string, unknown>;
  logoKey: string | null;
  logoContentType: string | null;
};

/** The organization's settings row; `forUpdate` locks it for a read-modify-write. */
export function findOrgSettingsRow(db: Conn, orgId: string, forUpdate = false): Promise<OrgSettingsRow | undefined> {
  const query = db.select(orgRow).from(organizations).where(eq(organizations.id, orgId));
  return (forUpdate ? query.for('update') : query).then((rows) => rows[0]);
}

/** The organization's settings with every default filled in (defaults when it is not found). */
export async function readOrgSettingsOf(db: Conn, orgId: string): Promise<OrgSettings> {
  const [row] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, orgId));
  return readOrgSettings(row?.settings);
}

export function updateOrganization(db: Conn, orgId: string, values: Partial<typeof organizations.$inferInsert>) {
  return db.update(organizations).set(values).where(eq(organizations.id, orgId));
}

// ---- Camera tokens -------------------------------------------------------------------------------

const tokenRow = {
  id: siteCameraTokens.id,
  name: siteCameraTokens.name,
  siteId: siteCameraTokens.siteId,
  siteName: sites.name,
  hint: siteCameraTokens.tokenHint,
  createdAt: siteCameraTokens.createdAt,
  createdByEmail: users.email,
  lastUsedAt: siteCameraTokens.lastUsedAt,
  revokedAt: siteCameraTokens.revokedAt,
};

/** Every token of the organization: active first, newest first. */
export function listCameraTokens(db: Conn, orgId: string) {
  return db
    .select(tokenRow)
    .from(siteCameraTokens)
    .innerJoin(sites, and(eq(sites.id, siteCameraTokens.siteId), eq(sites.orgId, siteCameraTokens.orgId)))
    .leftJoin(users, eq(users.id, siteCameraTokens.createdBy))
    .where(eq(siteCameraTokens.orgId, orgId))
    .orderBy(sql`${siteCameraTokens.revokedAt} is not null`, desc(siteCameraTokens.createdAt), desc(siteCameraTokens.id));
}

export function findCameraTokenById(db: Conn, orgId: string, id: string) {
  return db
    .select(tokenRow)
    .from(siteCameraTokens)
    .innerJoin(sites, eq(sites.id, siteCameraTokens.siteId))
    .leftJoin(users, eq(users.id, siteCameraTokens.createdBy))
    .where(and(eq(siteCameraTokens.orgId, orgId), eq(siteCameraTokens.id, id)))
    .then((rows) => rows[0]);
}

export function findSite(db: Conn, orgId: string, siteId: string) {
  return db
    .select({ id: sites.id, name: sites.name, active: sites.active })
    .from(sites)
    .where(and(eq(sites.orgId, orgId), eq(sites.id, siteId)))
    .then((rows) => rows[0]);
}

export function countActiveCameraTokens(db: Conn, orgId: string, siteId: string) {
  return db
    .select({ n: sql<number>`count(*)::int` })
    .from(siteCameraTokens)
    .where(and(eq(siteCameraTokens.orgId, orgId), eq(siteCameraTokens.siteId, siteId), isNull(siteCameraTokens.revokedAt)))
    .then((rows) => Number(rows[0]?.n ?? 0));
}

export function insertCameraToken(db: Conn, values: typeof siteCameraTokens.$inferInsert) {
  return db
    .insert(siteCameraTokens)
    .values(values)
    .returning({ id: siteCameraTokens.id })
    .then((rows) => rows[0]!);
}

/** Revokes a live token; returns its site, or nothing when it was not live (or not this organization's). */
export function revokeCameraToken(db: Conn, orgId: string, id: string, at: Date) {
  return db
    .update(siteCameraTokens)
    .set({ revokedAt: at })
    .where(and(eq(siteCameraTokens.orgId, orgId), eq(siteCameraTokens.id, id), isNull(siteCameraTokens.revokedAt)))
    .returning({ id: siteCameraTokens.id, siteId: siteCameraTokens.siteId, name: siteCameraTokens.name, hint: siteCameraTokens.tokenHint })
    .then((rows) => rows[0]);
}

/** A live token of the site, by the hash of its secret, of an active site of an active organization (the secret is the credential: any organization). */
export function findLiveCameraTokenByHashAnyOrg(db: Conn, siteId: string, tokenHash: string) {
  return db
    .select({ id: siteCameraTokens.id, orgId: siteCameraTokens.orgId, siteId: siteCameraTokens.siteId, name: siteCameraTokens.name })
    .from(siteCameraTokens)
    .innerJoin(sites, eq(sites.id, siteCameraTokens.siteId))
    .innerJoin(organizations, eq(organizations.id, siteCameraTokens.orgId))
    .where(
      and(
        eq(siteCameraTokens.tokenHash, tokenHash),
        eq(siteCameraTokens.siteId, siteId),
        isNull(siteCameraTokens.revokedAt),
        eq(sites.active, true),
        eq(organizations.active, true),
        eq(organizations.status, 'active'),
      ),
    )
    .then((rows) => rows[0]);
}

export function touchCameraToken(db: Conn, token: { orgId: string; id: string }, at: Date) {
  return db
    .update(siteCameraTokens)
    .set({ lastUsedAt: at })
    .where(and(eq(siteCameraTokens.orgId, token.orgId), eq(siteCameraTokens.id, token.id)));
}
