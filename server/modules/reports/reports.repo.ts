import { RELEASED_BOOKING_STATUSES, WITHDRAWN_BOOKING_STATUSES } from '../../../domain/booking-lifecycle';
import {
  DWELL_OVERSTAY_MIN,
  LATE_MINUTE_BUCKETS,
  PUNCTUALITY_WINDOW_MIN,
  UNLINKED_TENANT_KEY_PREFIX,
  VOLUME_SOURCE_VALUES,
} from '../../../domain/reports';
import type { Database } from '../../db/client';
import { statusListText } from '../../db/sql-status';

// The reports' queries. Each one aggregates in the database over one organization's rows in the
// range (indexes of migration 0006 and bookings_org_start_idx / bookings_site_start_idx) and
// answers aggregates — at most one row per bay and day — never the bookings themselves.
//
// The calendar — each site's local days as instants, and its opening windows on each — is
// computed by the caller with the domain's slot-grid rules and passed in as arrays, so a report's
// days are exactly the ones the booking screens use, DST included: a booking's local day is found
// by a binary search of its site's day starts (width_bucket), not by converting every row. Only
// the volume's hour of day is read with AT TIME ZONE.

type Query = Database['query'];

/** The sites a report covers, and the range as site-local dates and as instants. */
export type ReportSlice = {
  orgId: string;
  /** Each site with the starts of its local days of the range and the end of the last one (days + 1 instants). */
  sites: Array<{ id: string; timeZone: string; dayStarts: Date[] }>;
  from: string;
  /** Days in the range. */
  days: number;
  /** The earliest local midnight of `from` and the latest local midnight after `to` over the sites. */
  lo: Date;
  hi: Date;
};

/** Each site's opening windows on each local day of the range, as instants. */
export type ReportWindows = Array<{ siteId: string; date: string; start: Date; end: Date }>;

/** A PostgreSQL array literal of values that need no quoting (uuids, dates, ISO instants, zone names). */
function pgArray(values: readonly string[]): string {
  for (const v of values) if (!/^[A-Za-z0-9_:+\-./]+$/.test(v)) throw new Error(`reports: unexpected array value ${JSON.stringify(v)}`);
  return `{${values.join(',')}}`;
}
const instants = (dates: readonly Date[]) => pgArray(dates.map((d) => d.toISOString()));
const sqlText = (value: string) => {
  if (!/^[a-z_]+$/.test(value)) throw new Error(`reports: unexpected literal ${value}`);
  return `'${value}'`;
};

const RELEASED = statusListText(RELEASED_BOOKING_STATUSES);
const WITHDRAWN = statusListText(WITHDRAWN_BOOKING_STATUSES);

/** Minutes covered by a multirange (bounded). */
const minutesOf = (multirange: string) =>
  `coalesce((select sum(extract(epoch from upper(r) - lower(r))) from unnest(${multirange}) as r), 0)::float8 / 60`;

/**
 * The slice's sites, each with its time zone and the array of its day starts (parameters $1–$8,
 * sliceParams): the first CTE of every report query.
 */
const SEL = `sel as materialized (
       select s.site_id, s.tz, ($6::timestamptz[])[(s.i - 1) * ($7::int + 1) + 1 : s.i * ($7::int + 1)] as day_starts,
              $8::date as first_date
         from unnest($2::uuid[], $3::text[]) with ordinality as s(site_id, tz, i)
     )`;

/** The local date of day number `index` (1 = the range's first day). */
const dateOfIndex = (index: string) => `($8::date + (${index} - 1))`;

/**
 * The bookings of the slice starting on one of its site-local days: alias `b`, with `l.day_index`
 * the number of that day (1 = the range's first). Needs SEL.
 */
const STARTING_IN_RANGE = `
  from bookings b
  join sel on sel.site_id = b.site_id
  cross join lateral (select width_bucket(b.start_time, sel.day_starts) as day_index) as l
 where b.org_id = $1
   and b.site_id = any($2::uuid[])
   and b.start_time >= $4::timestamptz and b.start_time < $5::timestamptz
   and l.day_index between 1 and $7::int`;

function sliceParams(slice: ReportSlice): unknown[] {
  return [
    slice.orgId,
    pgArray(slice.sites.map((s) => s.id)),
    pgArray(slice.sites.map((s) => s.timeZone)),
    slice.lo.toISOString(),
    slice.hi.toISOString(),
    instants(slice.sites.flatMap((s) => s.dayStarts)),
    slice.days,
    slice.from,
  ];
}

/** A booking's tenant: the linked tenant, else the company name typed on it (case and outer spaces ignored). */
const TENANT_KEY = `coalesce(b.tenant_id::text, '${UNLINKED_TENANT_KEY_PREFIX}' || lower(btrim(b.tenant_name)))`;
/** The name typed on the booking (a linked tenant's own name is looked up by the caller). */
const TENANT_LABEL = `btrim(b.tenant_name)`;

/** Which grouping set a row belongs to: the first column not rolled up, or 'total'. */
const dimensionOf = (columns: Array<[string, string]>) =>
  `case ${columns.map(([column, name]) => `when grouping(${column}) = 0 then '${name}'`).join(' ')} else 'total' end`;

// ── Utilisation ─────────────────────────────────────────────────────────────────────────────────

export type UtilisationCellRow = { bay_id: string; site_id: string; day: string; open_min: number; booked_min: number; occupied_min: number };

/**
 * Per bay in service in the range and site-local day: the open minutes (the site's windows that
 * day while the bay was active, minus the blackouts of the site or the bay), and the minutes of those held by bookings (every status but
 * declined, cancelled and no-show) and actually occupied (started → checked out, or `now` while
 * still at the bay). Time outside the open minutes is not counted.
 */
export async function utilisationCells(query: Query, slice: ReportSlice, windows: ReportWindows, now: Date): Promise<UtilisationCellRow[]> {
  const rows = await query<UtilisationCellRow>(
    `with ${SEL}, days as (
       select sel.site_id, i as idx, ${dateOfIndex('i')} as day, sel.day_starts[i] as day_start, sel.day_starts[i + 1] as day_end
         from sel cross join generate_series(1, $7::int) as i
     ), windows as (
       select w.site_id, w.day, range_agg(tstzrange(w.w_start, w.w_end, '[)')) as open_mr
         from unnest($9::uuid[], $10::date[], $11::timestamptz[], $12::timestamptz[]) as w(site_id, day, w_start, w_end)
        group by w.site_id, w.day
     ), bay_list as (
       -- The bays in service at some time in the range, with when (migration 0016): a bay
       -- deactivated since keeps its history; a bay made in the range counts from then on.
       select x.id, x.site_id, range_agg(tstzrange(p.active_from, p.active_until, '[)')) as active_mr
         from bays x
         join bay_active_periods p on p.org_id = x.org_id and p.bay_id = x.id
        where x.org_id = $1 and x.site_id = any($2::uuid[])
          and tstzrange(p.active_from, p.active_until, '[)') && tstzrange($4::timestamptz, $5::timestamptz, '[)')
        group by x.id, x.site_id
     ), closed as (
       select x.site_id, x.bay_id, tstzrange(x.start_time, x.end_time, '[)') as during
         from blackouts x
        where x.org_id = $1 and x.site_id = any($2::uuid[])
          and tstzrange(x.start_time, x.end_time, '[)') && tstzrange($4::timestamptz, $5::timestamptz, '[)')
     ), closed_days as (
       -- The blackouts of each site-local day: the whole site's (bay_id null) and each bay's.
       select d.site_id, c.bay_id, d.idx, range_agg(c.during) as closed_mr
         from days d
         join closed c on c.site_id = d.site_id and c.during && tstzrange(d.day_start, d.day_end, '[)')
        group by d.site_id, c.bay_id, d.idx
     ), site_open as (
       select d.site_id, d.idx, coalesce(w.open_mr, '{}'::tstzmultirange) - coalesce(cs.closed_mr, '{}'::tstzmultirange) as open_mr
         from days d
         left join windows w on w.site_id = d.site_id and w.day = d.day
         left join closed_days cs on cs.site_id = d.site_id and cs.bay_id is null and cs.idx = d.idx
     ), avail as materialized (
       select bl.id as bay_id, bl.site_id, so.idx, (so.open_mr * bl.active_mr) - coalesce(cb.closed_mr, '{}'::tstzmultirange) as avail_mr
         from bay_list bl
         join site_open so on so.site_id = bl.site_id
         left join closed_days cb on cb.bay_id = bl.id and cb.idx = so.idx
     ), live as materialized (
       -- Live bookings whose span meets the range (the span index; a fence, so that the join below
       -- cannot turn it into a scan of each site's whole history).
       select k.site_id, k.bay_id, k.start_time, k.end_time, k.started_at, k.completed_at,
              booking_bay_span(k.start_time, k.end_time, k.started_at, k.completed_at) as span
         from bookings k
        where k.org_id = $1 and k.site_id = any($2::uuid[])
          and k.status not in (${RELEASED})
          and booking_bay_span(k.start_time, k.end_time, k.started_at, k.completed_at) && tstzrange($4::timestamptz, $5::timestamptz, '[)')
     ), spans as (
       -- Each with the numbers of the first and last site-local day of its part inside the range
       -- (an unfinished visit runs to now).
       select k.bay_id, tstzrange(k.start_time, k.end_time, '[)') as booked,
              case when k.started_at is not null and coalesce(k.completed_at, $13::timestamptz) > k.started_at
                   then tstzrange(k.started_at, coalesce(k.completed_at, $13::timestamptz), '[)') end as occupied,
              width_bucket(greatest(lower(k.span), $4::timestamptz), sel.day_starts) as first_index,
              width_bucket(least(coalesce(upper(k.span), greatest($13::timestamptz, k.end_time)), $5::timestamptz) - interval '1 microsecond', sel.day_starts) as last_index
         from live k
         join sel on sel.site_id = k.site_id
     ), span_days as (
       -- Each booking on every local day of the range it touches: its first day, and the later
       -- ones of a booking over midnight (or a long visit).
       select s.bay_id, s.first_index as idx, s.booked, s.occupied from spans s where s.first_index between 1 and $7::int
       union all
       select s.bay_id, g.idx, s.booked, s.occupied
         from spans s
         cross join lateral generate_series(greatest(s.first_index + 1, 1), least(s.last_index, $7::int)) as g(idx)
        where s.last_index > s.first_index
     ), used as (
       select u.bay_id, u.idx, range_agg(u.booked) as booked_mr, range_agg(u.occupied) as occupied_mr
         from span_days u
        group by u.bay_id, u.idx
     )
     select a.bay_id, a.site_id, ${dateOfIndex('a.idx')}::text as day,
            ${minutesOf('a.avail_mr')} as open_min,
            ${minutesOf("a.avail_mr * coalesce(u.booked_mr, '{}'::tstzmultirange)")} as booked_min,
            ${minutesOf("a.avail_mr * coalesce(u.occupied_mr, '{}'::tstzmultirange)")} as occupied_min
       from avail a
       left join used u on u.bay_id = a.bay_id and u.idx = a.idx`,
    [
      ...sliceParams(slice),
      pgArray(windows.map((w) => w.siteId)),
      pgArray(windows.map((w) => w.date)),
      instants(windows.map((w) => w.start)),
      instants(windows.map((w) => w.end)),
      now.toISOString(),
    ],
  );
  return rows.map((r) => ({ ...r, open_min: Number(r.open_min), booked_min: Number(r.booked_min), occupied_min: Number(r.occupied_min) }));
}

// ── Punctuality ─────────────────────────────────────────────────────────────────────────────────

export type GroupKeys = {
  dimension: 'total' | 'site' | 'bay' | 'tenant' | 'vehicle_type' | 'booking_type';
  site_id: string | null;
  bay_id: string | null;
  tenant_key: string | null;
  tenant_label: string | null;
  vehicle_type: string | null;
  booking_type: string | null;
};

export type PunctualityGroupRow = GroupKeys & {
  arrivals: number;
  early: number;
  on_time: number;
  late: number;
  median_late: number | null;
  p90_late: number | null;
  late_buckets: number[];
};

/**
 * Arrivals (checked in at the gate) of bookings starting in the range: early (more than the window
 * before the start), on time (within it either side, inclusive), late (more than the window after),
 * with the late minutes' median, 90th percentile and buckets; overall and per tenant, site and
 * vehicle type in one pass (grouping sets).
 */
export async function punctualityGroups(query: Query, slice: ReportSlice): Promise<PunctualityGroupRow[]> {
  const w = PUNCTUALITY_WINDOW_MIN;
  const buckets = LATE_MINUTE_BUCKETS.map(
    (bucket) => `count(*) filter (where a.offset_min > ${bucket.after}${bucket.upTo === null ? '' : ` and a.offset_min <= ${bucket.upTo}`})::int`,
  );
  const rows = await query<PunctualityGroupRow & { late_percentiles: unknown }>(
    `with ${SEL}, a as (
       select b.site_id, ${TENANT_KEY} as tenant_key, ${TENANT_LABEL} as tenant_label, b.vehicle_type,
              extract(epoch from b.checked_in_at - b.start_time)::float8 / 60 as offset_min
         ${STARTING_IN_RANGE}
          and b.checked_in_at is not null
     )
     select ${dimensionOf([['a.tenant_key', 'tenant'], ['a.site_id', 'site'], ['a.vehicle_type', 'vehicle_type']])} as dimension,
            a.site_id, null as bay_id, a.tenant_key, min(a.tenant_label collate "C") as tenant_label, a.vehicle_type, null as booking_type,
            count(*)::int as arrivals,
            count(*) filter (where a.offset_min < -${w})::int as early,
            count(*) filter (where a.offset_min between -${w} and ${w})::int as on_time,
            count(*) filter (where a.offset_min > ${w})::int as late,
            percentile_cont(array[0.5, 0.9]::float8[]) within group (order by a.offset_min) filter (where a.offset_min > ${w}) as late_percentiles,
            array[${buckets.join(', ')}] as late_buckets
       from a
      group by grouping sets ((), (a.tenant_key), (a.site_id), (a.vehicle_type))`,
    sliceParams(slice),
  );
  return rows.map(({ late_percentiles, ...r }) => {
    const [median, p90] = parseNumberArray(late_percentiles);
    return { ...r, median_late: median ?? null, p90_late: p90 ?? null, late_buckets: parseNumberArray(r.late_buckets) as number[] };
  });
}

/** A numeric array as either driver answers it (an array, or the literal '{1,2}'); NULL elements are null. */
function parseNumberArray(value: unknown): Array<number | null> {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.replace(/[{}]/g, '').split(',').filter(Boolean) : [];
  return items.map((item) => (item === null || item === 'NULL' ? null : Number(item)));
}

// ── Dwell and turn time ─────────────────────────────────────────────────────────────────────────

type Stats = { n: number; median: number | null; p90: number | null; max: number | null };
export type DwellGroupRow = GroupKeys & { visits: number; overstays: number; gate_wait: Stats; at_bay: Stats; on_site: Stats };

const statsColumns = (column: string) => `
  count(v.${column})::int as ${column}_n,
  percentile_cont(array[0.5, 0.9]::float8[]) within group (order by v.${column}) as ${column}_percentiles,
  max(v.${column}) as ${column}_max`;

/**
 * Visits (checked in) of bookings starting in the range: gate wait (check-in → start at the bay),
 * time at the bay (start → check-out) and total on site (check-in → check-out), each over the
 * visits that have both timestamps (percentiles ignore the rest), and overstays (at the bay more
 * than the threshold past the booked end, checked out or, still there, at `now`); overall and per
 * site, bay, tenant, vehicle type and booking type.
 */
export async function dwellGroups(query: Query, slice: ReportSlice, now: Date): Promise<DwellGroupRow[]> {
  const rows = await query<Record<string, unknown>>(
    `with ${SEL}, v as (
       select b.site_id, b.bay_id, ${TENANT_KEY} as tenant_key, ${TENANT_LABEL} as tenant_label, b.vehicle_type, b.booking_type,
              extract(epoch from b.started_at - b.checked_in_at)::float8 / 60 as gate_wait,
              extract(epoch from b.completed_at - b.started_at)::float8 / 60 as at_bay,
              extract(epoch from b.completed_at - b.checked_in_at)::float8 / 60 as on_site,
              (b.started_at is not null
                 and coalesce(b.completed_at, $9::timestamptz) > b.end_time + interval '${DWELL_OVERSTAY_MIN} minutes') as is_overstay
         ${STARTING_IN_RANGE}
          and b.checked_in_at is not null
     )
     select ${dimensionOf([
       ['v.site_id', 'site'],
       ['v.bay_id', 'bay'],
       ['v.tenant_key', 'tenant'],
       ['v.vehicle_type', 'vehicle_type'],
       ['v.booking_type', 'booking_type'],
     ])} as dimension,
            v.site_id, v.bay_id, v.tenant_key, min(v.tenant_label collate "C") as tenant_label, v.vehicle_type, v.booking_type,
            count(*)::int as visits,
            count(*) filter (where v.is_overstay)::int as overstays,
            ${statsColumns('gate_wait')},
            ${statsColumns('at_bay')},
            ${statsColumns('on_site')}
       from v
      group by grouping sets ((), (v.site_id), (v.bay_id), (v.tenant_key), (v.vehicle_type), (v.booking_type))`,
    [...sliceParams(slice), now.toISOString()],
  );
  const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  const stats = (r: Record<string, unknown>, column: string): Stats => {
    const [median, p90] = parseNumberArray(r[`${column}_percentiles`]);
    return { n: Number(r[`${column}_n`]), median: median ?? null, p90: p90 ?? null, max: num(r[`${column}_max`]) };
  };
  return rows.map((r) => ({
    dimension: r.dimension as GroupKeys['dimension'],
    site_id: r.site_id as string | null,
    bay_id: r.bay_id as string | null,
    tenant_key: r.tenant_key as string | null,
    tenant_label: r.tenant_label as string | null,
    vehicle_type: r.vehicle_type as string | null,
    booking_type: r.booking_type as string | null,
    visits: Number(r.visits),
    overstays: Number(r.overstays),
    gate_wait: stats(r, 'gate_wait'),
    at_bay: stats(r, 'at_bay'),
    on_site: stats(r, 'on_site'),
  }));
}

// ── No-shows and cancellations ──────────────────────────────────────────────────────────────────

export type NoShowGroupRow = Omit<GroupKeys, 'dimension'> & { dimension: 'total' | 'tenant' | 'site' | 'day'; day: string | null; bookings: number; no_shows: number; cancellations: number };

/** Bookings starting in the range except declined ones, their no-shows and cancellations: overall, per tenant, per site and per site-local day. */
export async function noShowGroups(query: Query, slice: ReportSlice): Promise<NoShowGroupRow[]> {
  return query<NoShowGroupRow>(
    `with ${SEL}, k as (
       select b.site_id, ${TENANT_KEY} as tenant_key, ${TENANT_LABEL} as tenant_label, ${dateOfIndex('l.day_index')} as day, b.status
         ${STARTING_IN_RANGE}
          and b.status <> 'declined'
     )
     select ${dimensionOf([['k.tenant_key', 'tenant'], ['k.site_id', 'site'], ['k.day', 'day']])} as dimension,
            k.site_id, null as bay_id, k.tenant_key, min(k.tenant_label collate "C") as tenant_label, null as vehicle_type, null as booking_type,
            k.day::text as day,
            count(*)::int as bookings,
            count(*) filter (where k.status = 'no_show')::int as no_shows,
            count(*) filter (where k.status = 'cancelled')::int as cancellations
       from k
      group by grouping sets ((), (k.tenant_key), (k.site_id), (k.day))`,
    sliceParams(slice),
  );
}

// ── Volume ──────────────────────────────────────────────────────────────────────────────────────

export type VolumeGroupRow = {
  dimension: 'total' | 'day' | 'day_type' | 'day_source' | 'type' | 'source' | 'weekday_hour';
  day: string | null;
  booking_type: string | null;
  source: string | null;
  isodow: number | null;
  hour: number | null;
  bookings: number;
};

const SOURCE_KEY = `case ${Object.entries(VOLUME_SOURCE_VALUES)
  .map(([key, values]) => `when b.source in (${values.map(sqlText).join(', ')}) then '${key}'`)
  .join(' ')} else 'other' end`;

/**
 * Bookings starting in the range except declined and cancelled ones: per site-local day (and by
 * booking type and by source), in total, and per local weekday × hour of their start.
 */
export async function volumeGroups(query: Query, slice: ReportSlice): Promise<VolumeGroupRow[]> {
  const rows = await query<VolumeGroupRow>(
    `with ${SEL}, k as (
       select ${dateOfIndex('l.day_index')} as day, b.booking_type, ${SOURCE_KEY} as source,
              extract(isodow from ${dateOfIndex('l.day_index')})::int as isodow, extract(hour from b.start_time at time zone sel.tz)::int as hour
         ${STARTING_IN_RANGE}
          and b.status not in (${WITHDRAWN})
     )
     select case when grouping(k.day) = 0 and grouping(k.booking_type) = 0 then 'day_type'
                 when grouping(k.day) = 0 and grouping(k.source) = 0 then 'day_source'
                 when grouping(k.day) = 0 then 'day'
                 when grouping(k.booking_type) = 0 then 'type'
                 when grouping(k.source) = 0 then 'source'
                 when grouping(k.isodow) = 0 then 'weekday_hour'
                 else 'total' end as dimension,
            k.day::text as day, k.booking_type, k.source, k.isodow, k.hour, count(*)::int as bookings
       from k
      group by grouping sets ((), (k.day), (k.day, k.booking_type), (k.day, k.source), (k.booking_type), (k.source), (k.isodow, k.hour))`,
    sliceParams(slice),
  );
  return rows.map((r) => ({ ...r, isodow: r.isodow === null ? null : Number(r.isodow), hour: r.hour === null ? null : Number(r.hour) }));
}

// ── Lookups ─────────────────────────────────────────────────────────────────────────────────────

export type ReportSiteRow = { id: string; name: string; time_zone: string; operating_hours: unknown };

/**
 * The organization's sites (active or not: their history is reported), the active ones first (a
 * dockmaster's default is the first), each group by name.
 */
export function listSites(query: Query, orgId: string): Promise<ReportSiteRow[]> {
  return query<ReportSiteRow>(
    `select id, name, time_zone, operating_hours from sites where org_id = $1 order by active desc, lower(name), id`,
    [orgId],
  );
}

export type ReportBayRow = { id: string; site_id: string; name: string; active: boolean };

/** The organization's tenants' names, for the rows of linked tenants. */
export function listTenantNames(query: Query, orgId: string): Promise<Array<{ id: string; name: string }>> {
  return query<{ id: string; name: string }>(`select id, name from tenants where org_id = $1`, [orgId]);
}

/** The bays of the sites, active or not (a bay's history is reported), in natural name order. */
export function listBays(query: Query, orgId: string, siteIds: readonly string[]): Promise<ReportBayRow[]> {
  return query<ReportBayRow>(
    `select id, site_id, name, active from bays where org_id = $1 and site_id = any($2::uuid[]) order by sort_key, id`,
    [orgId, pgArray(siteIds)],
  );
}
