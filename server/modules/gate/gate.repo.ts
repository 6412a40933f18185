import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { AT_BAY_STATUSES, AWAITING_ARRIVAL_STATUSES, ON_SITE_STATUSES, RELEASED_BOOKING_STATUSES, WITHDRAWN_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import type { Db, Tx } from '../../db/client';
import { statusList } from '../../db/sql-status';
import { bays, bookings, sites, users } from '../../db/schema';
import { WAITING_QUEUE_ORDER } from '../bookings/queue-position';

// The gate's queries: one site's bookings, bays and state. Every query is filtered by the
// organization and the site (the gate actor's: `{ orgId, siteId }`).

type Conn = Db | Tx;
/** The site the gate works at, and its organization. */
export type SiteScope = { orgId: string; siteId: string };

const RELEASED = statusList(RELEASED_BOOKING_STATUSES);
const ON_SITE = statusList(ON_SITE_STATUSES);
const AT_BAY = statusList(AT_BAY_STATUSES);

/** An instant as a typed SQL value (both drivers take the ISO text). */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

export function findSite(db: Conn, site: SiteScope, forUpdate = false) {
  const query = db
    .select({
      id: sites.id,
      orgId: sites.orgId,
      name: sites.name,
      timeZone: sites.timeZone,
      emergencyAt: sites.emergencyAt,
      emergencyReason: sites.emergencyReason,
      emergencyByEmail: users.email,
    })
    .from(sites)
    .leftJoin(users, eq(users.id, sites.emergencyBy))
    .where(and(eq(sites.orgId, site.orgId), eq(sites.id, site.siteId)));
  return (forUpdate ? query.for('update', { of: sites }) : query).then((rows) => rows[0]);
}
export type GateSite = NonNullable<Awaited<ReturnType<typeof findSite>>>;

export function setEmergency(db: Conn, site: SiteScope, values: { at: Date | null; reason: string | null; by: string | null }) {
  return db
    .update(sites)
    .set({ emergencyAt: values.at, emergencyReason: values.reason, emergencyBy: values.by })
    .where(and(eq(sites.orgId, site.orgId), eq(sites.id, site.siteId)));
}

const gateColumns = {
  id: bookings.id,
  version: bookings.version,
  status: bookings.status,
  tsrNumber: bookings.tsrNumber,
  tenantName: bookings.tenantName,
  vehicleType: bookings.vehicleType,
  vehicleRegistration: bookings.vehicleRegistration,
  bayId: bookings.bayId,
  bayName: bays.name,
  startTime: bookings.startTime,
  endTime: bookings.endTime,
  checkedInAt: bookings.checkedInAt,
  startedAt: bookings.startedAt,
  source: bookings.source,
  lateEta: bookings.lateEta,
};

/** The site's bookings matching `where`, with their bay's name, by start time. */
export function listGateBookings(db: Conn, site: SiteScope, where: SQL, order: 'start' | 'arrival' = 'start') {
  return db
    .select(gateColumns)
    .from(bookings)
    .innerJoin(bays, eq(bays.id, bookings.bayId))
    .where(and(eq(bookings.orgId, site.orgId), eq(bookings.siteId, site.siteId), where))
    .orderBy(...(order === 'arrival' ? WAITING_QUEUE_ORDER : [asc(bookings.startTime), asc(bookings.tsrNumber), asc(bookings.id)]));
}
export type GateBookingRow = Awaited<ReturnType<typeof listGateBookings>>[number];

/** Today's bookings (site-local day) that still matter, and every vehicle on site. */
export const liveCondition = (dayStart: Date, dayEnd: Date) =>
  sql`((${bookings.startTime} >= ${at(dayStart)} and ${bookings.startTime} < ${at(dayEnd)} and ${bookings.status} not in (${statusList(WITHDRAWN_BOOKING_STATUSES)}))
       or ${bookings.status} in (${ON_SITE}))`;

/** Expected in the next hours, and approved ones past their start not yet checked in (late). */
export const upcomingCondition = (now: Date, until: Date) =>
  sql`((${bookings.status} in (${statusList(AWAITING_ARRIVAL_STATUSES)}) and ${bookings.startTime} >= ${at(now)} and ${bookings.startTime} < ${at(until)})
       or (${bookings.status} = 'approved' and ${bookings.startTime} < ${at(now)}))`;

export function listActiveBays(db: Conn, site: SiteScope) {
  return db
    .select({ id: bays.id, name: bays.name })
    .from(bays)
    .where(and(eq(bays.orgId, site.orgId), eq(bays.siteId, site.siteId), eq(bays.active, true)))
    .orderBy(asc(bays.sortKey), asc(bays.id));
}

/** Bays under a blackout at `at` (a site-wide blackout blacks out every bay: '*'). */
export async function blackedOutBayIds(db: Conn, siteId: string, when: Date): Promise<Set<string>> {
  const rows = rowsOf<{ bay_id: string | null }>(
    await db.execute(sql`select bay_id from blackouts where site_id = ${siteId} and start_time <= ${at(when)} and end_time > ${at(when)}`),
  );
  return new Set(rows.map((r) => r.bay_id ?? '*'));
}

/** Another booking of the organization with this vehicle on site now, if any. */
export async function findVehicleOnSite(db: Conn, orgId: string, registration: string, exceptBookingId: string | null) {
  const rows = rowsOf<{ id: string; tsr_number: string; site_name: string }>(
    await db.execute(sql`
      select k.id, k.tsr_number, s.name as site_name
        from bookings k join sites s on s.id = k.site_id
       where k.org_id = ${orgId} and k.status in (${ON_SITE})
         and upper(regexp_replace(k.vehicle_registration, '[^A-Za-z0-9]', '', 'g')) = upper(regexp_replace(${registration}::text, '[^A-Za-z0-9]', '', 'g'))
         and (${exceptBookingId}::uuid is null or k.id <> ${exceptBookingId}::uuid)
       limit 1`),
  );
  return rows[0];
}

/**
 * The site's active bays that can take the booking's vehicle and are free for it now: nothing else
 * holds the bay during the booking's time (the bay's exclusion constraint), no vehicle stands at it
 * (in progress or over its time), no blackout. Best fit first.
 */
export async function freeBaysForBooking(db: Conn, bookingId: string, now: Date): Promise<Array<{ id: string; name: string }>> {
  return rowsOf<{ id: string; name: string }>(
    await db.execute(sql`
      select b.id, b.name
        from bookings k
        join bays b on b.site_id = k.site_id and b.active
       where k.id = ${bookingId}
         and b.height_clearance_m >= k.vehicle_height_m
         and (k.vehicle_length_m is null or b.length_m is null or b.length_m >= k.vehicle_length_m)
         and b.features @> coalesce(k.special_access_needs, '{}'::text[])
         and not exists (
           select 1 from bookings o
            where o.bay_id = b.id and o.id <> k.id and o.status not in (${RELEASED})
              and (o.status in (${AT_BAY})
                   or tstzrange(o.start_time, o.end_time, '[)') && tstzrange(k.start_time, k.end_time, '[)')))
         and not exists (
           select 1 from blackouts x
            where x.site_id = k.site_id and (x.bay_id is null or x.bay_id = b.id)
              and x.start_time < greatest(k.end_time, ${now.toISOString()}::timestamptz + interval '1 minute') and x.end_time > least(k.start_time, ${now.toISOString()}::timestamptz))
       order by b.height_clearance_m, b.sort_key, b.id`),
  );
}

/** Whether the bay is free to use now: no vehicle at it, no blackout. */
export async function isBayFreeNow(db: Conn, bayId: string, exceptBookingId: string, now: Date): Promise<boolean> {
  const rows = rowsOf<{ busy: boolean }>(
    await db.execute(sql`
      select exists (select 1 from bookings o where o.bay_id = ${bayId} and o.id <> ${exceptBookingId} and o.status in (${AT_BAY}))
          or exists (select 1 from blackouts x join bays b on b.id = ${bayId}
                      where x.site_id = b.site_id and (x.bay_id is null or x.bay_id = b.id) and x.start_time <= ${at(now)} and x.end_time > ${at(now)}) as busy`),
  );
  return !rows[0]?.busy;
}

export type WalkInVehicle = { heightM: number; lengthM: number | null; needs: readonly string[] };

/** Compatible bays of the site free for [start, end) with no vehicle standing at them, best fit first. */
export async function freeBaysForWalkIn(db: Conn, siteId: string, vehicle: WalkInVehicle, start: Date, end: Date) {
  return rowsOf<{ id: string; name: string }>(
    await db.execute(sql`
      select b.id, b.name
        from bays b
       where b.site_id = ${siteId} and b.active
         and b.height_clearance_m >= ${vehicle.heightM}
         and (${vehicle.lengthM}::numeric is null or b.length_m is null or b.length_m >= ${vehicle.lengthM}::numeric)
         and b.features @> ${`{${vehicle.needs.join(',')}}`}::text[]
         and not exists (
           select 1 from bookings o
            where o.bay_id = b.id and o.status not in (${RELEASED})
              and (o.status in (${AT_BAY})
                   or tstzrange(o.start_time, o.end_time, '[)') && tstzrange(${start.toISOString()}::timestamptz, ${end.toISOString()}::timestamptz, '[)')))
         and not exists (
           select 1 from blackouts x
            where x.site_id = b.site_id and (x.bay_id is null or x.bay_id = b.id)
              and x.start_time < ${at(end)} and x.end_time > ${at(start)})
       order by b.height_clearance_m, b.sort_key, b.id`),
  );
}

/** A haulier due at the site today and not yet arrived (pending or approved), with their bookings. */
/** `language`: the language of the haulier's earliest booking there (their mail is in it). */
export type DueHaulier = { email: string; language?: string; bookings: Array<{ tsrNumber: string; startTime: string }> };

/**
 * The hauliers due at the site between `from` and `to` (its local day) whose bookings are pending
 * or approved (not checked in yet): one entry per e-mail address, bookings by start.
 */
export async function listDueHauliers(db: Conn, site: SiteScope, from: Date, to: Date): Promise<DueHaulier[]> {
  const rows = rowsOf<{ email: string; tsr_number: string; start_time: string | Date; language: string }>(
    await db.execute(sql`
      select lower(k.tenant_email) as email, k.tsr_number, k.start_time, k.language
        from bookings k
       where k.org_id = ${site.orgId} and k.site_id = ${site.siteId}
         and k.status in ('pending', 'approved') and k.checked_in_at is null
         and k.start_time >= ${at(from)} and k.start_time < ${at(to)}
         and k.tenant_email is not null and k.tenant_email <> ''
       order by lower(k.tenant_email), k.start_time, k.tsr_number`),
  );
  const byEmail = new Map<string, DueHaulier>();
  for (const row of rows) {
    const entry = byEmail.get(row.email) ?? { email: row.email, language: row.language, bookings: [] };
    entry.bookings.push({ tsrNumber: row.tsr_number, startTime: new Date(row.start_time).toISOString() });
    byEmail.set(row.email, entry);
  }
  return [...byEmail.values()];
}

/** The hauliers told of the site's stop that began at `stoppedAt` (their stop mails in the outbox), to tell them it resumed. */
export async function listHauliersToldOfStop(db: Conn, site: SiteScope, kind: string, stoppedAt: string): Promise<DueHaulier[]> {
  const rows = rowsOf<{ recipients: string[]; payload: { bookings?: DueHaulier['bookings']; language?: string } }>(
    await db.execute(sql`
      select o.recipients, o.payload
        from mail_outbox o
       where o.org_id = ${site.orgId} and o.kind = ${kind}
         and o.payload->>'siteId' = ${site.siteId} and o.payload->>'state' = 'stopped' and o.payload->>'stoppedAt' = ${stoppedAt}
       order by o.recipients[1]`),
  );
  return rows.filter((r) => r.recipients[0]).map((r) => ({ email: r.recipients[0]!, language: r.payload.language, bookings: r.payload.bookings ?? [] }));
}
