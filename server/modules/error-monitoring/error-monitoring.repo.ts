import { desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { ErrorGroupStatus, ErrorSource, ErrorStatusFilter } from '../../../domain/error-monitoring-rules';
import type { Db, Tx } from '../../db/client';
import { errorEvents, errorGroups, users } from '../../db/schema';

type Conn = Db | Tx;

function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

const toDate = (value: Date | string | null): Date | null => (value === null ? null : value instanceof Date ? value : new Date(value));

export type GroupRow = {
  fingerprint: string;
  source: ErrorSource;
  count: number;
  firstSeen: Date;
  lastSeen: Date;
  status: ErrorGroupStatus;
  isRegression: boolean;
  resolvedAt: Date | null;
  resolvedByEmail: string | null;
};

type RawGroup = {
  fingerprint: string;
  source: ErrorSource;
  count: number | string;
  first_seen: Date | string;
  last_seen: Date | string;
  status: ErrorGroupStatus;
  is_regression: boolean;
  resolved_at: Date | string | null;
  resolved_by_email: string | null;
  total: number | string;
};

/**
 * Error groups: the events of each fingerprint counted, first and last seen, with their triage
 * state. A group is resolved only while nothing has happened since it was resolved; an event
 * after resolved_at makes it open again (a regression) without anyone writing to it.
 * Newest last-seen first; `total` counts every group the filters match.
 */
export async function listGroups(
  db: Conn,
  filter: { status: ErrorStatusFilter; source?: ErrorSource; fingerprint?: string; limit: number; offset: number },
): Promise<{ rows: GroupRow[]; total: number }> {
  const eventFilters: SQL[] = [sql`e.fingerprint is not null`];
  if (filter.source) eventFilters.push(sql`e.source = ${filter.source}`);
  if (filter.fingerprint) eventFilters.push(sql`e.fingerprint = ${filter.fingerprint}`);
  const statusFilter = filter.status === 'all' ? sql`true` : sql`grouped.status = ${filter.status}`;
  const result = await db.execute(sql`
    with agg as (
      select e.fingerprint, min(e.source) as source, count(*)::int as count,
             min(e.created_at) as first_seen, max(e.created_at) as last_seen
        from error_events e
       where ${sql.join(eventFilters, sql` and `)}
       group by e.fingerprint
    ), grouped as (
      select agg.*, g.resolved_at, g.resolved_by,
             case when g.status = 'resolved' and agg.last_seen <= g.resolved_at then 'resolved' else 'open' end as status,
             coalesce(g.status = 'resolved' and agg.last_seen > g.resolved_at, false) as is_regression
        from agg left join error_groups g on g.fingerprint = agg.fingerprint
    )
    select grouped.fingerprint, grouped.source, grouped.count, grouped.first_seen, grouped.last_seen, grouped.status,
           grouped.is_regression, grouped.resolved_at, u.email as resolved_by_email, count(*) over ()::int as total
      from grouped left join users u on u.id = grouped.resolved_by
     where ${statusFilter}
     order by grouped.last_seen desc, grouped.fingerprint
     limit ${filter.limit} offset ${filter.offset}`);
  const raw = rowsOf<RawGroup>(result);
  let total = raw.length > 0 ? Number(raw[0]!.total) : 0;
  if (raw.length === 0 && filter.offset > 0) {
    // Past the last page: still say how many there are.
    total = (await listGroups(db, { ...filter, limit: 1, offset: 0 })).total;
  }
  return {
    total,
    rows: raw.map((r) => ({
      fingerprint: r.fingerprint,
      source: r.source,
      count: Number(r.count),
      firstSeen: toDate(r.first_seen)!,
      lastSeen: toDate(r.last_seen)!,
      status: r.status,
      isRegression: r.is_regression,
      resolvedAt: toDate(r.resolved_at),
      resolvedByEmail: r.resolved_by_email,
    })),
  };
}

const eventColumns = {
  id: errorEvents.id,
  fingerprint: errorEvents.fingerprint,
  createdAt: errorEvents.createdAt,
  source: errorEvents.source,
  code: errorEvents.code,
  message: errorEvents.message,
  stack: errorEvents.stack,
  method: errorEvents.method,
  url: errorEvents.url,
  statusCode: errorEvents.statusCode,
  requestId: errorEvents.requestId,
  userId: errorEvents.userId,
  userEmail: users.email,
  details: errorEvents.details,
};

export type EventRow = Awaited<ReturnType<typeof recentEvents>>[number];

/** The latest event of each fingerprint (a group's sample). */
export async function latestEvents(db: Conn, fingerprints: string[]) {
  if (fingerprints.length === 0) return [];
  return db
    .selectDistinctOn([errorEvents.fingerprint], eventColumns)
    .from(errorEvents)
    .leftJoin(users, eq(users.id, errorEvents.userId))
    .where(inArray(errorEvents.fingerprint, fingerprints))
    .orderBy(errorEvents.fingerprint, desc(errorEvents.createdAt), desc(errorEvents.id));
}

/** One fingerprint's latest events, newest first. */
export function recentEvents(db: Conn, fingerprint: string, limit: number) {
  return db
    .select(eventColumns)
    .from(errorEvents)
    .leftJoin(users, eq(users.id, errorEvents.userId))
    .where(eq(errorEvents.fingerprint, fingerprint))
    .orderBy(desc(errorEvents.createdAt), desc(errorEvents.id))
    .limit(limit);
}

/**
 * The triage row of a fingerprint, locked for the rest of the transaction (created open when it
 * has none yet), so two people resolving at once write one change.
 */
export async function lockGroupRow(tx: Tx, fingerprint: string, now: Date) {
  await tx.insert(errorGroups).values({ fingerprint, status: 'open', updatedAt: now }).onConflictDoNothing();
  const [row] = await tx.select().from(errorGroups).where(eq(errorGroups.fingerprint, fingerprint)).for('update');
  return row!;
}

export async function setGroupStatus(
  tx: Tx,
  fingerprint: string,
  change: { status: ErrorGroupStatus; resolvedAt: Date | null; resolvedBy: string | null; now: Date },
) {
  await tx
    .update(errorGroups)
    .set({ status: change.status, resolvedAt: change.resolvedAt, resolvedBy: change.resolvedBy, updatedAt: change.now })
    .where(eq(errorGroups.fingerprint, fingerprint));
}

/** True when the fingerprint has at least one event. */
export async function hasEvents(db: Conn, fingerprint: string): Promise<boolean> {
  const [row] = await db.select({ id: errorEvents.id }).from(errorEvents).where(eq(errorEvents.fingerprint, fingerprint)).limit(1);
  return !!row;
}
