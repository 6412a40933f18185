import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';

// Usage figures across organizations (platform administrators only). Every query takes the window
// [from, to] and, optionally, one organization; counts are cast to int so both drivers answer numbers.
// What each figure means: domain/usage.ts.

type Conn = Db | Tx;
export type UsageRange = { from: Date; to: Date; fromDay: string; toDay: string };

function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

async function select<T>(db: Conn, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

const ts = (at: Date) => sql`${at.toISOString()}::timestamptz`;
const onlyOrg = (column: SQL, orgId: string | undefined) => (orgId ? sql`and ${column} = ${orgId}::uuid` : sql``);
const dayOf = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** Every organization (or the one named) with its plan, for the table. */
export function listOrganizations(db: Conn, orgId?: string) {
  return select<{ id: string; name: string; slug: string; status: string; plan_name: string | null }>(
    db,
    sql`select o.id, o.name, o.slug, o.status, p.name as plan_name
          from organizations o
          left join billing b on b.org_id = o.id
          left join plans p on p.id = b.plan_id
         where true ${onlyOrg(sql`o.id`, orgId)}
         order by lower(o.name), o.id`,
  );
}

/** Bookings created in the window, per organization, UTC day and stored source. */
export function bookingsCreated(db: Conn, range: UsageRange, orgId?: string) {
  return select<{ org_id: string; day: string; source: string; n: number }>(
    db,
    sql`select org_id, ${dayOf(sql`created_at`)} as day, source, count(*)::int as n
          from bookings
         where created_at >= ${ts(range.from)} and created_at <= ${ts(range.to)} ${onlyOrg(sql`org_id`, orgId)}
         group by 1, 2, 3`,
  );
}

/**
 * Sign-ins: sessions opened in the window that are not impersonations, by a member of the
 * organization, for it or with no organization chosen. One row per (organization, session).
 */
const signInSessions = (range: UsageRange, orgId?: string) => sql`
  select m.org_id, s.id as session_id, s.user_id, s.created_at
    from auth_sessions s
    join org_memberships m on m.user_id = s.user_id
   where s.impersonator_id is null
     and (s.org_id = m.org_id or s.org_id is null)
     and s.created_at >= ${ts(range.from)} and s.created_at <= ${ts(range.to)}
     ${onlyOrg(sql`m.org_id`, orgId)}`;

export function signInsPerOrganization(db: Conn, range: UsageRange, orgId?: string) {
  return select<{ org_id: string; n: number }>(db, sql`select org_id, count(*)::int as n from (${signInSessions(range, orgId)}) x group by org_id`);
}

/** Sign-ins per UTC day, each session once (a member of two organizations signing in by e-mail is one sign-in). */
export function signInsPerDay(db: Conn, range: UsageRange, orgId?: string) {
  return select<{ day: string; n: number }>(
    db,
    sql`select ${dayOf(sql`created_at`)} as day, count(distinct session_id)::int as n from (${signInSessions(range, orgId)}) x group by 1`,
  );
}

export async function signInsTotal(db: Conn, range: UsageRange, orgId?: string): Promise<number> {
  const [row] = await select<{ n: number }>(db, sql`select count(distinct session_id)::int as n from (${signInSessions(range, orgId)}) x`);
  return Number(row?.n ?? 0);
}

/** (organization, member) pairs active in the window: a sign-in, or an audit entry of theirs in its trail (not impersonated). */
const activePairs = (range: UsageRange, orgId?: string) => sql`
  select org_id, user_id from (${signInSessions(range, orgId)}) s
  union
  select a.org_id, a.actor_id as user_id
    from audit_log a
    join org_memberships m on m.org_id = a.org_id and m.user_id = a.actor_id
   where a.actor_id is not null
     and a.impersonator_id is null
     and a.created_at >= ${ts(range.from)} and a.created_at <= ${ts(range.to)}
     ${onlyOrg(sql`a.org_id`, orgId)}`;

export function activeUsersPerOrganization(db: Conn, range: UsageRange, orgId?: string) {
  return select<{ org_id: string; n: number }>(db, sql`select org_id, count(distinct user_id)::int as n from (${activePairs(range, orgId)}) x group by org_id`);
}

export async function activeUsersTotal(db: Conn, range: UsageRange, orgId?: string): Promise<number> {
  const [row] = await select<{ n: number }>(db, sql`select count(distinct user_id)::int as n from (${activePairs(range, orgId)}) x`);
  return Number(row?.n ?? 0);
}

/** Booking documents per organization: kept now, and those stored in the window. */
export function documents(db: Conn, range: UsageRange, orgId?: string) {
  return select<{ org_id: string; stored: number; stored_bytes: string | number; added: number; added_bytes: string | number }>(
    db,
    sql`select org_id,
               count(*)::int as stored,
               coalesce(sum(size_bytes), 0)::bigint::text as stored_bytes,
               (count(*) filter (where created_at >= ${ts(range.from)} and created_at <= ${ts(range.to)}))::int as added,
               coalesce(sum(size_bytes) filter (where created_at >= ${ts(range.from)} and created_at <= ${ts(range.to)}), 0)::bigint::text as added_bytes
          from booking_documents
         where true ${onlyOrg(sql`org_id`, orgId)}
         group by org_id`,
  );
}

/** The counted calls (usage_counters) of the window's days, per organization, day and kind. */
export function counters(db: Conn, range: UsageRange, orgId?: string) {
  return select<{ org_id: string; day: string; kind: string; n: number }>(
    db,
    sql`select org_id, to_char(day, 'YYYY-MM-DD') as day, kind, sum(count)::int as n
          from usage_counters
         where day >= ${range.fromDay}::date and day <= ${range.toDay}::date ${onlyOrg(sql`org_id`, orgId)}
         group by 1, 2, 3`,
  );
}

/**
 * What counts against each organization's plan now: active sites, active bays at active sites,
 * active members, bookings created this calendar month (UTC); with the plan's limits. Organizations
 * without a plan are left out.
 */
export function planStandings(db: Conn, monthStart: Date, now: Date, orgId?: string) {
  return select<{
    org_id: string;
    name: string;
    status: string;
    plan_name: string;
    max_sites: number | null;
    max_bays: number | null;
    max_users: number | null;
    max_bookings: number | null;
    sites: number;
    bays: number;
    users: number;
    bookings: number;
  }>(
    db,
    sql`select o.id as org_id, o.name, o.status, p.name as plan_name,
               p.max_sites, p.max_bays, p.max_users, p.max_bookings_per_month as max_bookings,
               (select count(*)::int from sites s where s.org_id = o.id and s.active) as sites,
               (select count(*)::int from bays b join sites s on s.id = b.site_id where s.org_id = o.id and s.active and b.active) as bays,
               (select count(*)::int from org_memberships m where m.org_id = o.id and m.active) as users,
               (select count(*)::int from bookings k where k.org_id = o.id and k.created_at >= ${ts(monthStart)} and k.created_at <= ${ts(now)}) as bookings
          from organizations o
          join billing b on b.org_id = o.id
          join plans p on p.id = b.plan_id
         where true ${onlyOrg(sql`o.id`, orgId)}`,
  );
}

/** Whether an organization with this id exists. */
export async function organizationExists(db: Conn, orgId: string): Promise<boolean> {
  const [row] = await select<{ found: boolean }>(db, sql`select exists (select 1 from organizations where id = ${orgId}::uuid) as found`);
  return !!row?.found;
}
