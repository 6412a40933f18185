import { and, asc, count, desc, eq, gte, ilike, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { auditRangeInstants, isActorId, type AuditEntry, type AuditFilter } from '../../../domain/audit-log';
import type { Db, Tx } from '../../db/client';
import { auditLog, organizations, sites } from '../../db/schema';

// Reads of the audit log (it is only ever written by writeAudit, server/audit/write-audit.ts). Every
// query names its scope: one organization's entries, or — for the platform — all of them.

type Conn = Db | Tx;

/** Whose entries: one organization's, or every entry (platform administrators). */
export type AuditScope = { orgId: string } | { platform: true };

/** `%` and `_` typed by a person are literal characters, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function conditions(scope: AuditScope, filter: AuditFilter): SQL[] {
  const where: SQL[] = [];
  const orgId = 'orgId' in scope ? scope.orgId : filter.orgId;
  if (orgId) where.push(eq(auditLog.orgId, orgId));
  if (filter.actor) {
    // The actor, or the platform user who acted as them: what someone did while impersonating is theirs too.
    where.push(
      isActorId(filter.actor)
        ? or(eq(auditLog.actorId, filter.actor), eq(auditLog.impersonatorId, filter.actor))!
        : or(ilike(auditLog.actorEmail, likePattern(filter.actor)), ilike(auditLog.impersonatorEmail, likePattern(filter.actor)))!,
    );
  }
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.resourceType) where.push(eq(auditLog.resourceType, filter.resourceType));
  const { since, before } = auditRangeInstants(filter);
  if (since) where.push(gte(auditLog.createdAt, since));
  if (before) where.push(lt(auditLog.createdAt, before));
  return where;
}

const entryColumns = {
  id: auditLog.id,
  createdAt: auditLog.createdAt,
  orgId: auditLog.orgId,
  orgName: organizations.name,
  siteId: auditLog.siteId,
  siteName: sites.name,
  actorId: auditLog.actorId,
  actorEmail: auditLog.actorEmail,
  actorRole: auditLog.actorRole,
  impersonatorId: auditLog.impersonatorId,
  impersonatorEmail: auditLog.impersonatorEmail,
  action: auditLog.action,
  resourceType: auditLog.resourceType,
  resourceId: auditLog.resourceId,
  details: auditLog.details,
};

type EntryRow = Awaited<ReturnType<typeof selectEntries>>[number];

function toEntry({ total: _total, createdAt, details, ...row }: EntryRow): AuditEntry {
  return {
    ...row,
    createdAt: createdAt.toISOString(),
    details: details && typeof details === 'object' && !Array.isArray(details) ? details : {},
  };
}

/** Entries newest first with the organization's and site's names; `limit` rows from `offset`. */
async function selectEntries(db: Conn, scope: AuditScope, filter: AuditFilter, limit: number, offset: number) {
  const where = conditions(scope, filter);
  return db
    .select({ ...entryColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(auditLog)
    .leftJoin(organizations, eq(organizations.id, auditLog.orgId))
    .leftJoin(sites, eq(sites.id, auditLog.siteId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit)
    .offset(offset);
}

/** One page of entries and how many match in all. */
export async function listEntries(db: Conn, scope: AuditScope, filter: AuditFilter, page: number, pageSize: number) {
  const rows = await selectEntries(db, scope, filter, pageSize, (page - 1) * pageSize);
  let total = rows[0]?.total ?? 0;
  // A page past the end has no row to carry the total.
  if (rows.length === 0 && page > 1) {
    const where = conditions(scope, filter);
    total = (await db.select({ n: count() }).from(auditLog).where(where.length ? and(...where) : undefined))[0]?.n ?? 0;
  }
  return { items: rows.map(toEntry), total };
}

/** The newest `limit` entries that match (the CSV), and how many match in all. */
export async function exportEntries(db: Conn, scope: AuditScope, filter: AuditFilter, limit: number) {
  const rows = await selectEntries(db, scope, filter, limit, 0);
  return { items: rows.map(toEntry), total: rows[0]?.total ?? 0 };
}

/** Actions and resource types that occur in the scope, in alphabetical order (at most 500 of each). */
export async function filterOptions(db: Conn, scope: AuditScope) {
  const where = 'orgId' in scope ? eq(auditLog.orgId, scope.orgId) : undefined;
  const [actions, resourceTypes, orgs] = await Promise.all([
    db.selectDistinct({ value: auditLog.action }).from(auditLog).where(where).orderBy(asc(auditLog.action)).limit(500),
    db.selectDistinct({ value: auditLog.resourceType }).from(auditLog).where(where).orderBy(asc(auditLog.resourceType)).limit(500),
    'orgId' in scope
      ? Promise.resolve([])
      : db
          .select({ id: organizations.id, name: organizations.name })
          .from(organizations)
          .where(isNotNull(organizations.name))
          .orderBy(sql`lower(${organizations.name})`, asc(organizations.id)),
  ]);
  return {
    organizations: orgs,
    actions: actions.map((r) => r.value),
    resourceTypes: resourceTypes.map((r) => r.value),
  };
}
