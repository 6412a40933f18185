import type { OperatingHours } from '../../../domain/constants';
import { openMinutesOn, parseTimeOfDay, todayIn, windowAt, zonedTimeToUtc } from '../../../domain/slot-grid';
import { sql } from 'drizzle-orm';
import type { BookingRequest } from '../../../domain/booking-request';
import { OUTSIDE_OPERATING_HOURS_MESSAGE, slotUnavailableMessage } from '../../../domain/slot-grid';
import type { Database, Tx } from '../../db/client';
import { statusListText } from '../../db/sql-status';
import { AppError, conflict } from '../../plugins/errors';
import { getDayAvailability, type Candidate } from '../availability/availability.service';
import { LIVE_BOOKING_STATUSES, RELEASED_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import { WEBHOOK_MAX_ATTEMPTS } from '../../../domain/webhooks';
import { NO_AVAILABLE_BAY, NO_COMPATIBLE_BAY } from '../../../domain/booking-messages';

// Booking one slot in one statement. The portal's hot path: the site rules (time zone, hours,
// interval, advance, horizon) come from a per-organization copy in memory, checked against the
// organization's config_version inside the statement; the statement then picks the best-fit free
// compatible bay (clearance, then natural name order), takes a narrow advisory lock (that bay, that
// day) so concurrent claimants queue instead of deadlocking inside the constraint check, inserts the
// booking, its audit row and its mail-outbox rows, and returns the bay it took — one round trip,
// one implicit transaction. The exclusion constraints stay the final guard: a concurrent winner
// makes the insert fail with 23P01 and the statement is simply run again with a fresh snapshot.
// Anything this path cannot decide (no window, nothing free, stale rules) goes to the full path,
// which has the precise messages.
//
// The statement also links the request to the organization's tenant (docs/tenant-linking.md:
// e-mail domain, then contact e-mail, then company name) and applies that tenant's policy: only
// its allowed sites are tried, and the booking is approved at once when the tenant or the
// organization auto-approves. A blocked tenant, or one with a daily limit (counted under a lock
// in the full path), gets no row here: the full path refuses or books it.

export type SiteRules = {
  id: string;
  name: string;
  /** The site's address (the SSC API's location answer); a change moves config_version like any site change. */
  address?: string | null;
  timeZone: string;
  operatingHours: OperatingHours;
  slotIntervalMin: number;
  minAdvanceMin: number;
  bookingHorizonDays: number;
};

export type OrgRules = {
  orgId: string;
  orgName: string;
  configVersion: number;
  sites: SiteRules[];
  /**
   * The plan's bookings-per-month limit, null when unlimited (or no plan). Assigning a plan or
   * changing its limit moves config_version (migration 0009), so a stale copy is refused like stale
   * site rules. With a limit, bookings take the full path, which counts them under a lock.
   */
  bookingLimit: number | null;
};

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Per database, per organization: the rules the last booking read. */
const rulesCache = new WeakMap<Database, Map<string, OrgRules>>();

type RulesRow = {
  org_name: string;
  config_version: string | number;
  booking_limit: number | null;
  id: string | null;
  name: string;
  address: string | null;
  time_zone: string;
  operating_hours: OperatingHours;
  slot_interval_min: number;
  min_advance_min: number;
  booking_horizon_days: number;
};

/** Loads (or reuses) the organization's active sites' rules; null when the organization cannot take bookings. */
export async function orgRules(database: Database, orgId: string, fresh = false): Promise<OrgRules | null> {
  let byOrg = rulesCache.get(database);
  if (!byOrg) rulesCache.set(database, (byOrg = new Map()));
  const cached = byOrg.get(orgId);
  if (cached && !fresh) return cached;
  const rows = await database.query<RulesRow>(
    `select o.name as org_name, o.config_version, p.max_bookings_per_month as booking_limit, s.id, s.name, s.address, s.time_zone,
            s.operating_hours, s.slot_interval_min, s.min_advance_min, s.booking_horizon_days
       from organizations o left join sites s on s.org_id = o.id and s.active
       left join billing bl on bl.org_id = o.id left join plans p on p.id = bl.plan_id
      where o.id = $1 and o.active and o.status = 'active'
      order by s.name`,
    [orgId],
  );
  if (rows.length === 0) {
    byOrg.delete(orgId);
    return null;
  }
  const rules: OrgRules = {
    orgId,
    orgName: rows[0]!.org_name,
    configVersion: Number(rows[0]!.config_version),
    bookingLimit: rows[0]!.booking_limit === null ? null : Number(rows[0]!.booking_limit),
    sites: rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: r.id!,
        name: r.name,
        address: r.address,
        timeZone: r.time_zone,
        operatingHours: r.operating_hours,
        slotIntervalMin: r.slot_interval_min,
        minAdvanceMin: r.min_advance_min,
        bookingHorizonDays: r.booking_horizon_days,
      })),
  };
  if (byOrg.size > 10_000) byOrg.clear();
  byOrg.set(orgId, rules);
  return rules;
}

export type SlotWindow = { siteId: string; start: Date; end: Date };

/**
 * Wall-clock → instant conversions of the hot path, remembered (bounded): a busy morning asks for
 * the same few (zone, date, time) triples thousands of times, and each costs several offset lookups.
 */
const instants = new Map<string, Date | null>();
function localInstant(date: string, minutes: number, timeZone: string, disambiguation: 'compatible' | 'reject'): Date | null {
  const key = `${timeZone}|${date}|${minutes}|${disambiguation}`;
  let instant = instants.get(key);
  if (instant === undefined) {
    instant = disambiguation === 'reject' ? zonedTimeToUtc(date, minutes, timeZone, 'reject') : zonedTimeToUtc(date, minutes, timeZone);
    if (instants.size > 50_000) instants.clear();
    instants.set(key, instant);
  }
  return instant;
}

/** The site's local date, remembered per zone for the current minute. */
const todays = new Map<string, { minute: number; date: string }>();
function siteToday(timeZone: string, now: Date): string {
  const minute = Math.floor(now.getTime() / MINUTE_MS);
  const cached = todays.get(timeZone);
  if (cached?.minute === minute) return cached.date;
  const date = todayIn(timeZone, now);
  if (todays.size > 1000) todays.clear();
  todays.set(timeZone, { minute, date });
  return date;
}

/** 'YYYY-MM-DD' plus whole days. */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The instants of one requested slot at each site where it is a bookable slot of that day: on the
 * site's grid (open, aligned to the interval, ending by closing time), not past, at least the
 * minimum advance ahead and within the booking horizon. Only the one slot is computed.
 */
export function bookableWindows(sites: SiteRules[], date: string, slot: string, durationMin: number, now: Date): SlotWindow[] {
  const minutes = parseTimeOfDay(slot);
  if (minutes === null) return [];
  const windows: SlotWindow[] = [];
  for (const site of sites) {
    const window = windowAt(openMinutesOn(date, site.operatingHours), minutes);
    if (!window) continue;
    const { open: opens, close: closes } = window;
    if ((minutes - opens) % site.slotIntervalMin !== 0 || minutes + site.slotIntervalMin > closes) continue;
    const today = siteToday(site.timeZone, now);
    if (date > addDays(today, site.bookingHorizonDays)) continue;
    const start = localInstant(date, minutes, site.timeZone, 'reject');
    if (!start) continue;
    const end = new Date(start.getTime() + durationMin * MINUTE_MS);
    if (start.getTime() < now.getTime() + site.minAdvanceMin * MINUTE_MS) continue;
    if (end.getTime() > localInstant(date, closes, site.timeZone, 'compatible')!.getTime()) continue;
    windows.push({ siteId: site.id, start, end });
  }
  return windows;
}

/**
 * Whether `date` is within every site's booking horizon (each in its own calendar). The full path
 * refuses a date beyond the horizon of the organization's first site with a compatible bay.
 */
export function isWithinEveryHorizon(sites: SiteRules[], date: string, now: Date): boolean {
  return sites.every((site) => date <= addDays(siteToday(site.timeZone, now), site.bookingHorizonDays));
}

export type Vehicle = { heightM: number; lengthM: number | null; needs: readonly string[] };

export type FastBookingInput = {
  rules: OrgRules;
  windows: SlotWindow[];
  vehicle: Vehicle;
  /** Every column of the booking but site, bay and times, as JSON (jsonb_populate_record). */
  record: Record<string, unknown>;
  audit: { details: Record<string, unknown>; ip: string | null; at: Date };
  /**
   * Mail queued with the booking: [kind, recipients, options]. `onlyIf` queues it only when the
   * booking gets that status ('pending' or 'approved'); `payload` is merged into mailPayload.
   */
  mail: [kind: string, recipients: string[], options?: { onlyIf?: 'pending' | 'approved'; payload?: Record<string, unknown> }][];
  mailPayload: Record<string, unknown>;
  /**
   * The tenant-link keys of the request (domain/org-tenants.ts linkKeysOf): e-mail and domain
   * lower-case, name trimmed. Without them the request links to no tenant.
   */
  link?: { email: string; domain: string; name: string };
  /** Booked for a channel (the SSC API) instead of a portal request: see FastChannel. */
  channel?: FastChannel;
};

/**
 * A channel's booking in one statement (BOOK_CHANNEL_SQL): the tenant is fixed (its policy read in
 * the statement), the audit row names the channel's actor, the channel's own row is written with
 * the booking, and nothing is booked when the idempotency key was used or the load already has a
 * live booking at the site (the full path answers those). `link` is not used.
 */
export type FastChannel = {
  tenantId: string;
  actor: { id: string; email: string | null; role: string | null; impersonatorId: string | null; impersonatorEmail: string | null };
  idempotencyKey: string | null;
  /**
   * The load: its reference (the booking's TSR number), when given its stop, and the advisory lock
   * (loadLockKey) every booking of that load at the site takes first, so two concurrent requests
   * for one load cannot both find it unbooked.
   */
  load: { reference: string; stopSequenceNumber: number | null; lockKey: string };
  /** The ssc_appointments row, snake_case, every column but booking_id and org_id. */
  sscAppointment: Record<string, unknown>;
};

/** status is 'pending', or 'approved' when the tenant's or the organization's policy approves at once. */
export type FastBooking = {
  id: string;
  siteId: string;
  bayId: string;
  bayName: string;
  startTime: Date;
  endTime: Date;
  status: string;
  tenantId: string | null;
};

const RELEASED = statusListText(RELEASED_BOOKING_STATUSES);

/** One statement: best-fit free bay, narrow lock, booking, audit, outbox. See the header. */
// jsonb_populate_record leaves absent columns null, not their defaults: every NOT NULL column
// with a default that the caller's record may omit is set here.
/** An instant as JavaScript's toISOString() writes it (the webhook envelope). */
const ISO_UTC = (expression: string) => `to_char(${expression} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// The statement in parts: who books (the tenant the portal request links to, or the channel's
// tenant), the bay and the booking, the audit row (anonymous, or the channel's actor), the outbox.
const PORTAL_GATE = `
with t as (
  -- The tenant the request links to: by e-mail domain, then contact e-mail, then company name.
  select t.id, t.status, t.auto_approve, t.allowed_site_ids, t.max_bookings_per_day
    from tenants t
   where t.org_id = $1
     and (t.email_domains @> array[$15::text] or t.contact_emails @> array[$16::text] or lower(t.name) = lower($17::text))
   order by case when t.email_domains @> array[$15::text] then 0 when t.contact_emails @> array[$16::text] then 1 else 2 end,
            t.created_at, t.id
   limit 1
), gate as (
  -- Unlinked, or an active tenant without a daily limit: this statement decides. Otherwise no row,
  -- and the full path answers.
  select (select t.id from t) as tenant_id,
         coalesce((select t.auto_approve from t), false) as tenant_auto,
         (select t.allowed_site_ids from t) as allowed_site_ids
   where not exists (select 1 from t where t.status <> 'active' or t.max_bookings_per_day is not null)`;

const BOOKING = `
), cand as (
  -- Each site's first free bay in best-fit order (the scan stops at the first free one), then the
  -- best of those.
  select c.bay_id, c.site_id, w.start_time, w.end_time, gate.tenant_id, gate.tenant_auto,
         coalesce(o.settings -> 'booking' -> 'autoApprove' = 'true'::jsonb, false) as org_auto
    from gate
    cross join unnest($3::uuid[], $4::timestamptz[], $5::timestamptz[]) as w(site_id, start_time, end_time)
    join organizations o on o.id = $1 and o.active and o.status = 'active' and o.config_version = $2
    join sites s on s.id = w.site_id and s.org_id = $1 and s.active and s.emergency_at is null
                and (gate.allowed_site_ids is null or s.id = any(gate.allowed_site_ids))
    cross join lateral (
      select b.id as bay_id, b.site_id, b.height_clearance_m, b.sort_key
        from bays b
       where b.site_id = w.site_id and b.active and b.height_clearance_m >= $6
         and ($7::numeric is null or b.length_m is null or b.length_m >= $7::numeric)
         and b.features @> $8::text[]
         and not exists (
           select 1 from bookings k
            where k.bay_id = b.id and k.status not in (${RELEASED})
              and tstzrange(k.start_time, k.end_time, '[)') && tstzrange(w.start_time, w.end_time, '[)'))
         and not exists (
           select 1 from blackouts x
            where x.site_id = w.site_id and (x.bay_id is null or x.bay_id = b.id)
              and x.start_time < w.end_time and x.end_time > w.start_time)
       order by b.height_clearance_m, b.sort_key, b.id
       limit 1) c
   order by c.height_clearance_m, c.sort_key, c.bay_id
   limit 1
), locked as (
  select cand.*, pg_advisory_xact_lock(hashtextextended(cand.bay_id::text, floor(extract(epoch from cand.start_time) / 86400)::bigint))::text as lock
    from cand
), ins as (
  -- In FROM, so the record is built once ("(f(x)).*" would call f once per column).
  insert into bookings
  select r.*
    from locked l,
         jsonb_populate_record(null::bookings, $9::jsonb || jsonb_build_object(
           'site_id', l.site_id, 'bay_id', l.bay_id, 'start_time', l.start_time, 'end_time', l.end_time,
           'window_start', l.start_time, 'window_end', l.end_time, 'version', 1, 'tenant_id', l.tenant_id,
           'status', case when l.tenant_auto or l.org_auto then 'approved' else 'pending' end,
           'approved_at', case when l.tenant_auto or l.org_auto then $12::timestamptz end)) r
  returning id, org_id, site_id, bay_id, start_time, end_time, status, tsr_number, tenant_name, vehicle_type, tenant_id,
            status_reason, version, booking_type, vehicle_registration, tsr_url, updated_at`;

const PORTAL_AUDIT = `
), audit as (
  insert into audit_log (actor_role, action, resource_type, resource_id, org_id, site_id, details, ip, created_at)
  select 'public', 'booking.created', 'booking', ins.id::text, ins.org_id, ins.site_id,
         $10::jsonb || jsonb_build_object('tsr_number', ins.tsr_number, 'tenant_name', ins.tenant_name,
                                          'vehicle_type', ins.vehicle_type, 'status', ins.status, 'tenant_id', ins.tenant_id,
                                          'auto_approved', case when l.tenant_auto then 'tenant' when l.org_auto then 'organization' end),
         $11, $12::timestamptz
    from ins, locked l`;

const OUTBOX = `
), mail as (
  insert into mail_outbox (org_id, kind, recipients, payload, next_attempt_at, created_at)
  select ins.org_id, m.kind, m.recipients, $14::jsonb || coalesce(m.payload, '{}'::jsonb) || jsonb_build_object('bookingId', ins.id),
         $12::timestamptz, $12::timestamptz
    from ins, jsonb_to_recordset($13::jsonb) as m(kind text, recipients text[], only_if text, payload jsonb)
   where m.only_if is null or m.only_if = ins.status
), hooks as (
  -- The organization's webhook endpoints subscribed to booking.created (server/modules/webhooks:
  -- the same envelope as webhook-events.ts eventEnvelope/bookingPayload), one event id for all.
  insert into webhook_deliveries (org_id, kind, endpoint_id, event_type, event_id, url, body, max_attempts, next_attempt_at, created_at)
  select ins.org_id, 'webhook', e.id, 'booking.created', ev.id, e.url,
         jsonb_build_object('id', ev.id, 'type', 'booking.created', 'createdAt', ${ISO_UTC('$12::timestamptz')}, 'organizationId', ins.org_id,
           'data', jsonb_build_object('booking', jsonb_build_object(
             'id', ins.id, 'reference', ins.tsr_number, 'status', ins.status, 'statusReason', ins.status_reason, 'version', ins.version,
             'siteId', ins.site_id, 'siteName', s.name, 'bayId', ins.bay_id, 'bayName', b.name, 'tenantName', ins.tenant_name,
             'bookingType', ins.booking_type, 'vehicleType', ins.vehicle_type, 'vehicleRegistration', ins.vehicle_registration,
             'startTime', ${ISO_UTC('ins.start_time')}, 'endTime', ${ISO_UTC('ins.end_time')}, 'tsrUrl', ins.tsr_url,
             'updatedAt', ${ISO_UTC('ins.updated_at')})))::text,
         ${WEBHOOK_MAX_ATTEMPTS}, $12::timestamptz, $12::timestamptz
    from ins
    join webhook_endpoints e on e.org_id = ins.org_id and e.status = 'active' and 'booking.created' = any(e.events)
    join sites s on s.id = ins.site_id
    join bays b on b.id = ins.bay_id
    cross join (select gen_random_uuid() as id) ev
)`;

const RESULT = `
select ins.id, ins.site_id, ins.bay_id, b.name as bay_name, ins.start_time, ins.end_time, ins.status, ins.tenant_id
  from ins join bays b on b.id = ins.bay_id`;

const BOOK_SLOT_SQL = PORTAL_GATE + BOOKING + PORTAL_AUDIT + OUTBOX + RESULT;

/** A live booking: one that still counts as the load's appointment (not released, not completed). */
const LIVE = statusListText(LIVE_BOOKING_STATUSES);

// A channel's booking (the SSC API): the tenant is the key's, not linked by e-mail; its policy is
// read here (blocked, or with a daily limit: no row, the full path answers). No row either when the
// idempotency key was already used (the full path replays or refuses) or when the tenant already
// has a live booking for this load at the site (and stop): the full path names it.
const CHANNEL_GATE = `
with gate as (
  select t.id as tenant_id, t.auto_approve as tenant_auto, t.allowed_site_ids
    from tenants t
   where t.org_id = $1 and t.id = $15::uuid and t.status = 'active' and t.max_bookings_per_day is null
     and ($19::text is null or not exists (select 1 from bookings k where k.org_id = $1 and k.idempotency_key = $19::text))
     and not exists (
       select 1 from bookings k left join ssc_appointments a on a.booking_id = k.id
        where k.org_id = $1 and k.status in (${LIVE}) and k.tenant_id = t.id and k.tsr_number = $17::text
          and k.site_id = any($3::uuid[]) and ($18::int is null or a.stop_sequence_number = $18::int))`;

// The audit row as writeAudit writes it for the channel's actor: its e-mail and role as given, else
// from the user's profile and membership (as writeAudit looks them up); created_at is the
// database's, like every audit row.
const CHANNEL_AUDIT = `
), audit as (
  insert into audit_log (actor_id, actor_email, actor_role, action, resource_type, resource_id, org_id, site_id, details, ip,
                         impersonator_id, impersonator_email)
  select ($16::jsonb ->> 'id')::uuid,
         coalesce($16::jsonb ->> 'email', (select u.email from users u where u.id = ($16::jsonb ->> 'id')::uuid)),
         coalesce($16::jsonb ->> 'role', (select u.platform_role from users u where u.id = ($16::jsonb ->> 'id')::uuid),
                  (select m.role from org_memberships m where m.user_id = ($16::jsonb ->> 'id')::uuid and m.active and m.org_id = ins.org_id
                    order by m.created_at limit 1), 'unknown'),
         'booking.created', 'booking', ins.id::text, ins.org_id, ins.site_id,
         jsonb_build_object('tsr_number', ins.tsr_number, 'tenant_name', ins.tenant_name, 'vehicle_type', ins.vehicle_type,
                            'status', ins.status, 'tenant_id', ins.tenant_id,
                            'auto_approved', case when l.tenant_auto then 'tenant' when l.org_auto then 'organization' end) || $10::jsonb,
         $11, ($16::jsonb ->> 'impersonator_id')::uuid, $16::jsonb ->> 'impersonator_email'
    from ins, locked l
), ssc as (
  -- The channel's own row (ssc_appointments), every column given by the caller.
  insert into ssc_appointments
  select r.*
    from ins, jsonb_populate_record(null::ssc_appointments, $20::jsonb || jsonb_build_object('booking_id', ins.id, 'org_id', ins.org_id)) r`;

const BOOK_CHANNEL_SQL = CHANNEL_GATE + BOOKING + CHANNEL_AUDIT + OUTBOX + RESULT;

type BookedRow = {
  id: string;
  site_id: string;
  bay_id: string;
  bay_name: string;
  start_time: Date | string;
  end_time: Date | string;
  status: string;
  tenant_id: string | null;
};

/** Per PGlite instance, the statements prepared in its (single) session. */
const preparedOnPglite = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Runs a statement prepared once per connection, so PostgreSQL parses and plans it once: a named
 * statement of the pg protocol on a server; on PGlite (one session, no statement names in its
 * protocol) PREPARE once, then EXECUTE. Planning this statement in WebAssembly costs more than
 * running it.
 */
async function run<T>(database: Database, name: string, text: string, values: unknown[]): Promise<T[]> {
  // Behind a transaction pooler a named statement would be prepared on one server connection and
  // executed on another: unnamed there (parsed and planned each time).
  if (database.pool) return (await database.pool.query(database.poolMode === 'transaction' ? { text, values } : { name, text, values })).rows as T[];
  if (!database.pglite) return database.query<T>(text, values);
  let prepared = preparedOnPglite.get(database.pglite);
  if (!prepared) preparedOnPglite.set(database.pglite, (prepared = new Map()));
  let ready = prepared.get(name);
  if (!ready) {
    const pglite = database.pglite;
    ready = (async () => {
      // sqlLiteral relies on it; nothing in Baywise turns it off.
      const [setting] = (await pglite.query<{ on: boolean }>(`select current_setting('standard_conforming_strings') = 'on' as on`)).rows;
      if (!setting?.on) throw new Error('standard_conforming_strings must be on');
      await pglite.exec(`prepare ${name} as ${text}`);
    })();
    prepared.set(name, ready);
    ready.catch(() => prepared.delete(name));
  }
  await ready;
  // EXECUTE is a utility statement: it takes no protocol parameters, so the values go in as
  // literals, each coerced by PostgreSQL to the prepared parameter's type.
  return database.query<T>(`execute ${name}(${values.map(sqlLiteral).join(', ')})`);
}

/**
 * A value as an SQL literal of unknown type: null, a number, a string, or an array of strings in
 * PostgreSQL's array syntax. Quotes are doubled (standard_conforming_strings is on, so backslashes
 * are plain characters); array elements are double-quoted with `"` and `\` escaped.
 */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('sqlLiteral: not a finite number');
    return `'${value}'`;
  }
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  if (Array.isArray(value)) {
    const elements = value.map((element) => {
      if (typeof element !== 'string') throw new Error('sqlLiteral: arrays of strings only');
      return `"${element.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
    });
    return sqlLiteral(`{${elements.join(',')}}`);
  }
  throw new Error(`sqlLiteral: unsupported value of type ${typeof value}`);
}

export function pgCode(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code;
}

/**
 * The advisory lock of a load at a site: taken by the channel's one statement (runLocked) and by
 * the full path's transaction (lockLoad) before either looks for the load's live booking, so the
 * second of two concurrent requests sees the first's booking.
 */
export function loadLockKey(load: { orgId: string; tenantId: string; siteId: string; reference: string }): string {
  return `load|${load.orgId}|${load.tenantId}|${load.siteId}|${load.reference}`;
}

const LOCK_LOAD_SQL = 'select pg_advisory_xact_lock(hashtextextended($1::text, 0))';

/** Takes the load's lock for the rest of the transaction (see loadLockKey). */
export async function lockLoad(tx: Tx, lockKey: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}::text, 0))`);
}

/**
 * The statement in a transaction that first takes the load's lock. On a server the statement's
 * snapshot is then taken after the lock, so it sees a booking committed by the lock's previous
 * holder. PGlite runs one statement or transaction at a time: nothing can come between.
 */
async function runLocked<T>(database: Database, lockKey: string, name: string, text: string, values: unknown[]): Promise<T[]> {
  if (!database.pool) return run<T>(database, name, text, values);
  const client = await database.pool.connect();
  try {
    await client.query('begin');
    await client.query(LOCK_LOAD_SQL, [lockKey]);
    const { rows } = await client.query(database.poolMode === 'transaction' ? { text, values } : { name, text, values });
    await client.query('commit');
    return rows as T[];
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Books the slot on the best-fit free bay in one statement, retrying when a concurrent booking
 * won the bay. Answers null when nothing was booked (no free bay, or the rules copy is stale):
 * the caller then takes the full path. Errors other than a lost race (the vehicle already booked,
 * a repeated idempotency key) are thrown to the caller.
 */
export async function bookSlotFast(database: Database, input: FastBookingInput): Promise<FastBooking | null> {
  const { rules, windows, vehicle, channel } = input;
  if (windows.length === 0) return null;
  const common = [
    rules.orgId,
    rules.configVersion,
    windows.map((w) => w.siteId),
    windows.map((w) => w.start.toISOString()),
    windows.map((w) => w.end.toISOString()),
    vehicle.heightM,
    vehicle.lengthM,
    [...vehicle.needs],
    JSON.stringify(input.record),
    JSON.stringify(input.audit.details),
    input.audit.ip,
    input.audit.at.toISOString(),
    JSON.stringify(input.mail.map(([kind, recipients, options]) => ({ kind, recipients, only_if: options?.onlyIf ?? null, payload: options?.payload ?? null }))),
    JSON.stringify(input.mailPayload),
  ];
  const values = channel
    ? [
        ...common,
        channel.tenantId,
        JSON.stringify({
          id: channel.actor.id,
          email: channel.actor.email,
          role: channel.actor.role,
          impersonator_id: channel.actor.impersonatorId,
          impersonator_email: channel.actor.impersonatorEmail,
        }),
        channel.load.reference,
        channel.load.stopSequenceNumber,
        channel.idempotencyKey,
        JSON.stringify(channel.sscAppointment),
      ]
    : [...common, input.link?.domain ?? null, input.link?.email ?? null, input.link?.name ?? null];
  const [name, text] = channel ? ['baywise_book_channel_slot_v1', BOOK_CHANNEL_SQL] : ['baywise_book_slot_v5', BOOK_SLOT_SQL];
  for (let attempt = 0; attempt < 12; attempt++) {
    try {
      const [row] = channel ? await runLocked<BookedRow>(database, channel.load.lockKey, name, text, values) : await run<BookedRow>(database, name, text, values);
      if (!row) return null;
      return {
        id: row.id,
        siteId: row.site_id,
        bayId: row.bay_id,
        bayName: row.bay_name,
        startTime: new Date(row.start_time),
        endTime: new Date(row.end_time),
        status: row.status,
        tenantId: row.tenant_id,
      };
    } catch (error) {
      const code = pgCode(error);
      const constraint = (error as { constraint?: string }).constraint;
      // Lost the bay to a concurrent booking (or a rare deadlock between two claimants): again,
      // with a fresh snapshot that sees the winner.
      if ((code === '23P01' && constraint !== 'bookings_vehicle_no_overlap') || code === '40P01') continue;
      throw error;
    }
  }
  return null;
}

// The full path: the day's grid decides the slot and its free bays (precise refusal messages), then
// claimBay takes the first bay the database accepts. Used by the portal's slow path (documents,
// stale rules), the manage link, staff reschedules and admin-created bookings.

export { NO_AVAILABLE_BAY, NO_COMPATIBLE_BAY } from '../../../domain/booking-messages';
export const noAvailableBay = () => conflict('no_available_bay', NO_AVAILABLE_BAY);
export const noCompatibleBay = () => new AppError(422, 'no_compatible_bay', NO_COMPATIBLE_BAY);
export const vehicleAlreadyBooked = (registration: string) =>
  conflict(
    'vehicle_already_booked',
    `Vehicle ${registration} already has a booking at an overlapping time. Choose another time or cancel the other booking first.`,
  );


function pgConstraint(error: unknown): string | undefined {
  const e = error as { constraint?: string; cause?: { constraint?: string } };
  return e?.constraint ?? e?.cause?.constraint;
}

/** The vehicle-overlap constraint fired: the same vehicle is already booked at that time. */
export const isVehicleOverlap = (error: unknown) =>
  pgCode(error) === '23P01' && pgConstraint(error) === 'bookings_vehicle_no_overlap';


/** The slot's free bays, best fit first, or the reason the slot cannot be booked. */
export async function candidatesFor(
  tx: Tx,
  now: Date,
  request: Pick<BookingRequest, 'orgId' | 'date' | 'slot' | 'expectedDurationMin' | 'vehicleHeightM' | 'vehicleLengthM' | 'specialAccessNeeds'> & { siteId?: string | null },
  excludeBookingId?: string,
  options: { ignoreMinAdvance?: boolean } = {},
): Promise<Candidate[]> {
  const day = await getDayAvailability(
    tx,
    {
      orgId: request.orgId,
      siteId: request.siteId ?? null,
      date: request.date,
      durationMin: request.expectedDurationMin,
      vehicleHeightM: request.vehicleHeightM,
      vehicleLengthM: request.vehicleLengthM ?? null,
      specialAccessNeeds: request.specialAccessNeeds ?? [],
    },
    now,
    { excludeBookingId, ignoreMinAdvance: options.ignoreMinAdvance },
  );
  if (day.compatibleBays === 0) throw new AppError(422, 'no_compatible_bay', day.notice ?? NO_COMPATIBLE_BAY);
  if (day.status === 'beyond_horizon') throw new AppError(400, 'beyond_horizon', day.notice!);
  if (day.isEmergencyStop) throw conflict('site_emergency', day.notice!);
  const slot = day.slots.find((s) => s.time === request.slot);
  if (!slot) {
    throw new AppError(400, 'invalid_slot', OUTSIDE_OPERATING_HOURS_MESSAGE);
  }
  if (!slot.bookable) throw new AppError(400, 'slot_unavailable', slotUnavailableMessage(slot.reason as never));
  if (slot.candidates.length === 0) throw noAvailableBay();
  return slot.candidates;
}

/**
 * Takes the first candidate bay the database accepts. The exclusion constraint is the final
 * guard: when a concurrent booking took a bay between our read and our insert (23P01), the
 * savepoint is rolled back and the next bay is tried.
 *
 * Two transactions inserting conflicting rows at the same instant can each see the other's
 * uncommitted row and deadlock inside the constraint check (40P01 after a one-second wait). A
 * transaction-scoped advisory lock on the bay, taken inside the savepoint, queues claimants of one
 * bay instead: the second waits for the first to commit and then fails fast with 23P01. Each
 * transaction holds at most one bay lock while waiting for another, so the locks cannot cycle.
 */
export async function claimBay<T>(
  tx: Tx,
  candidates: Candidate[],
  write: (sp: Tx, candidate: Candidate) => Promise<T>,
  vehicleRegistration?: string,
): Promise<T> {
  for (const candidate of candidates) {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        return await tx.transaction(async (sp) => {
          // The same key as the one-statement path (bay, UTC day): both paths queue on one lock.
          await sp.execute(sql`select pg_advisory_xact_lock(hashtextextended(${candidate.bayId}::text, floor(extract(epoch from ${candidate.start.toISOString()}::timestamptz) / 86400)::bigint))`);
          return write(sp, candidate);
        });
      } catch (error) {
        const code = pgCode(error);
        if (isVehicleOverlap(error)) throw vehicleAlreadyBooked(vehicleRegistration ?? 'this vehicle');
        if (code === '23P01') break; // taken: next bay
        if (code === '40P01' && attempt === 0) continue; // deadlock victim: the other may have rolled back, retry once
        if (code === '40P01') break;
        throw error;
      }
    }
  }
  throw noAvailableBay();
}

type MovableBooking = {
  id: string;
  orgId: string;
  expectedDurationMin: number;
  vehicleHeightM: number;
  vehicleLengthM: number | null;
  specialAccessNeeds: string[] | null;
};

/** The free bays for moving an existing booking to another day and slot: its own vehicle and duration, its own time not counted as busy. */
export function candidatesToMove(tx: Tx, now: Date, booking: MovableBooking, target: { date: string; slot: string }): Promise<Candidate[]> {
  return candidatesFor(
    tx,
    now,
    {
      orgId: booking.orgId,
      date: target.date,
      slot: target.slot,
      expectedDurationMin: booking.expectedDurationMin,
      vehicleHeightM: booking.vehicleHeightM,
      vehicleLengthM: booking.vehicleLengthM ?? undefined,
      specialAccessNeeds: (booking.specialAccessNeeds ?? []) as BookingRequest['specialAccessNeeds'],
    },
    booking.id,
  );
}
