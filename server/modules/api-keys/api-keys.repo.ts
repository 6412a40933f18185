import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { apiKeys, organizations, tenants, users } from '../../db/schema';

// SQL of the API keys: every query names the organization; the key check reads by secret hash.

type Conn = Db | Tx;

const keyRow = {
  id: apiKeys.id,
  name: apiKeys.name,
  tenantId: apiKeys.tenantId,
  tenantName: tenants.name,
  scopes: apiKeys.scopes,
  hint: apiKeys.secretHint,
  rateLimitPerMinute: apiKeys.rateLimitPerMinute,
  expiresAt: apiKeys.expiresAt,
  createdAt: apiKeys.createdAt,
  createdByEmail: users.email,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

/** One page of the organization's keys: live first, newest first. */
export function listApiKeys(db: Conn, orgId: string, page: { limit: number; offset: number }) {
  return db
    .select(keyRow)
    .from(apiKeys)
    .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(eq(apiKeys.orgId, orgId))
    .orderBy(sql`${apiKeys.revokedAt} is not null`, desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(page.limit)
    .offset(page.offset);
}

export function countApiKeys(db: Conn, orgId: string, onlyLive = false) {
  return db
    .select({ n: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(and(eq(apiKeys.orgId, orgId), ...(onlyLive ? [isNull(apiKeys.revokedAt)] : [])))
    .then((rows) => Number(rows[0]?.n ?? 0));
}

export function findApiKeyById(db: Conn, orgId: string, id: string) {
  return db
    .select(keyRow)
    .from(apiKeys)
    .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, id)))
    .then((rows) => rows[0]);
}

export function findTenant(db: Conn, orgId: string, tenantId: string) {
  return db
    .select({ id: tenants.id, name: tenants.name, contactEmails: tenants.contactEmails, email: tenants.email })
    .from(tenants)
    .where(and(eq(tenants.orgId, orgId), eq(tenants.id, tenantId)))
    .then((rows) => rows[0]);
}

export type ApiKeyRow = NonNullable<Awaited<ReturnType<typeof findApiKeyById>>>;

export function insertApiKey(db: Conn, values: typeof apiKeys.$inferInsert) {
  return db
    .insert(apiKeys)
    .values(values)
    .returning({ id: apiKeys.id })
    .then((rows) => rows[0]!);
}

/** Revokes a live key; returns it, or nothing when it was not live (or not this organization's). */
export function revokeApiKey(db: Conn, orgId: string, id: string, at: Date) {
  return db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, name: apiKeys.name, hint: apiKeys.secretHint, tenantId: apiKeys.tenantId })
    .then((rows) => rows[0]);
}

/**
 * The key whose secret hashes to `secretHash`, with its tenant and organization, whatever its state
 * (the caller tells revoked and expired apart from unknown).
 */
export function findKeyBySecretHashAnyOrg(db: Conn, secretHash: string) {
  return db
    .select({
      id: apiKeys.id,
      orgId: apiKeys.orgId,
      tenantId: apiKeys.tenantId,
      name: apiKeys.name,
      scopes: apiKeys.scopes,
      rateLimitPerMinute: apiKeys.rateLimitPerMinute,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      orgActive: sql<boolean>`${organizations.active} and ${organizations.status} = 'active'`,
    })
    .from(apiKeys)
    .innerJoin(organizations, eq(organizations.id, apiKeys.orgId))
    .where(eq(apiKeys.secretHash, secretHash))
    .then((rows) => rows[0]);
}

export function touchApiKey(db: Conn, key: { orgId: string; id: string }, at: Date) {
  return db
    .update(apiKeys)
    .set({ lastUsedAt: at })
    .where(and(eq(apiKeys.orgId, key.orgId), eq(apiKeys.id, key.id)));
}
