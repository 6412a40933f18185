import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { BayFeature } from '../../../domain/enums';
import type { Db, Tx } from '../../db/client';
import { bays, sites } from '../../db/schema';
import { LIVE_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import { statusList } from '../../db/sql-status';

// The organization's bays, always within its scope: every query starts from `bays.org_id = orgId`.

type Conn = Db | Tx;

const LIVE = statusList(LIVE_BOOKING_STATUSES);

/** The columns of a bay as the API answers it, with its booking counts as of `now`. */
function itemColumns(now: Date) {
  return {
    id: bays.id,
    siteId: bays.siteId,
    siteName: sites.name,
    name: bays.name,
    heightClearanceM: bays.heightClearanceM,
    lengthM: bays.lengthM,
    features: bays.features,
    capacity: bays.capacity,
    active: bays.active,
    updatedAt: bays.updatedAt,
    upcomingBookings: sql<number>`(select count(*) from bookings k
       where k.bay_id = ${bays.id} and k.status in (${LIVE}) and k.end_time > ${now.toISOString()}::timestamptz)`.mapWith(Number),
    hasBookings: sql<boolean>`exists (select 1 from bookings k where k.bay_id = ${bays.id})`.mapWith(Boolean),
  };
}

export type BayRow = {
  id: string;
  siteId: string;
  siteName: string;
  name: string;
  heightClearanceM: number;
  lengthM: number | null;
  features: string[];
  capacity: number;
  active: boolean;
  updatedAt: Date;
  upcomingBookings: number;
  hasBookings: boolean;
};

export type ListFilter = { siteId?: string; active?: boolean; page: number; pageSize: number };

/** One page of bays: by site name, then natural name order (B-2 before B-10). */
export async function listBays(db: Conn, orgId: string, now: Date, filter: ListFilter): Promise<{ rows: BayRow[]; total: number }> {
  const where: SQL[] = [eq(bays.orgId, orgId)];
  if (filter.siteId) where.push(eq(bays.siteId, filter.siteId));
  if (filter.active !== undefined) where.push(eq(bays.active, filter.active));
  const rows = await db
    .select({ ...itemColumns(now), total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(bays)
    .innerJoin(sites, eq(sites.id, bays.siteId))
    .where(and(...where))
    .orderBy(asc(sites.name), asc(bays.siteId), asc(bays.sortKey), asc(bays.id))
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && filter.page > 1) {
    // Past the last page: the count still tells the screen how many pages there are.
    const [count] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(bays)
      .where(and(...where));
    total = count?.n ?? 0;
  }
  return { rows: rows.map(({ total: _total, ...row }) => row), total };
}

/** The bay with its counts, or undefined (another organization's bay included). */
export async function findBay(db: Conn, orgId: string, bayId: string, now: Date): Promise<BayRow | undefined> {
  const [row] = await db
    .select(itemColumns(now))
    .from(bays)
    .innerJoin(sites, eq(sites.id, bays.siteId))
    .where(and(eq(bays.orgId, orgId), eq(bays.id, bayId)));
  return row;
}

/** Locks the bay row for the rest of the transaction (writes to one bay queue). */
export async function lockBay(tx: Tx, orgId: string, bayId: string) {
  const [row] = await tx
    .select({
      id: bays.id,
      siteId: bays.siteId,
      name: bays.name,
      heightClearanceM: bays.heightClearanceM,
      lengthM: bays.lengthM,
      features: bays.features,
      capacity: bays.capacity,
      active: bays.active,
    })
    .from(bays)
    .where(and(eq(bays.orgId, orgId), eq(bays.id, bayId)))
    .for('update');
  return row;
}
export type LockedBay = NonNullable<Awaited<ReturnType<typeof lockBay>>>;

/** The organization's site, or undefined. */
export async function findSite(db: Conn, orgId: string, siteId: string) {
  const [row] = await db
    .select({ id: sites.id, name: sites.name })
    .from(sites)
    .where(and(eq(sites.orgId, orgId), eq(sites.id, siteId)));
  return row;
}

/** True when any booking, in any status, ever used the bay. */
export async function bayHasBookings(db: Conn, bayId: string): Promise<boolean> {
  const result = (await db.execute(sql`select exists (select 1 from bookings where bay_id = ${bayId}) as used`)) as unknown as
    | { rows?: { used: boolean }[] }
    | { used: boolean }[];
  const rows = Array.isArray(result) ? result : (result.rows ?? []);
  return !!rows[0]?.used;
}

export type BayValues = {
  siteId: string;
  name: string;
  heightClearanceM: number;
  lengthM: number | null;
  features: BayFeature[];
  capacity: number;
};

export async function insertBay(tx: Tx, orgId: string, values: BayValues, now: Date): Promise<string> {
  const [row] = await tx
    .insert(bays)
    .values({ orgId, ...values, active: true, createdAt: now, updatedAt: now })
    .returning({ id: bays.id });
  return row!.id;
}

export async function updateBay(tx: Tx, orgId: string, bayId: string, values: Partial<BayValues & { active: boolean }>, now: Date): Promise<void> {
  await tx
    .update(bays)
    .set({ ...values, updatedAt: now })
    .where(and(eq(bays.orgId, orgId), eq(bays.id, bayId)));
}

export async function deleteBay(tx: Tx, orgId: string, bayId: string): Promise<void> {
  await tx.delete(bays).where(and(eq(bays.orgId, orgId), eq(bays.id, bayId)));
}
