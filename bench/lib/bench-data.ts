// Data for the benchmarks: throwaway databases (through the API test harness), a realistic
// organization (sites × bays with spread clearances) and bookings generated in SQL with
// INSERT … SELECT generate_series, never overlapping on a bay (the exclusion constraint holds).
import type { Database, DatabaseKind } from '../../server/db/client';
import { createBay, createOrg, createSite } from '../../server/test/fixtures';
import { createTestApp, type TestApp } from '../../server/test/harness';
import { SERVER_NODE_FLAGS } from '../../scripts/server-bundle.mjs';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** The PostgreSQL server the benchmarks create their throwaway databases on. */
export function benchDatabaseUrl(): string {
  return process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? DEFAULT_DATABASE_URL;
}

/**
 * A fresh, migrated database and the app over it (createTestApp): on 'postgres' a new database on
 * benchDatabaseUrl(), dropped by close(); on 'pglite' an in-memory instance.
 */
export async function openBench(
  kind: DatabaseKind,
  options: { now?: Date | string; env?: Record<string, string>; pgliteThread?: boolean } = {},
): Promise<TestApp> {
  process.env.TEST_DATABASE_URL = benchDatabaseUrl();
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const missing = SERVER_NODE_FLAGS.filter((flag) => !given.includes(flag));
  if (missing.length > 0) {
    console.log(`note: this process lacks the server's V8 flags (${missing.join(' ')}), which \`npm start\` and \`npm run bench\` give; alone: NODE_OPTIONS='${SERVER_NODE_FLAGS.join(' ')}' npx tsx bench/…`);
  }
  const t = await createTestApp(kind, options);
  // close() ends the pool, then drops the database WITH (FORCE); pg-pool's end() resolves before
  // the sockets are closed, so a backend being terminated (57P01) can still report on an ending
  // client, and a Pool without an 'error' listener throws that. Expected then; anything else is not.
  t.ctx.database.pool?.on('error', (error: Error & { code?: string }) => {
    if (error.code !== '57P01') console.error('database pool error:', error.message);
  });
  return t;
}

export type BenchOrg = {
  orgId: string;
  siteIds: string[];
  bays: Array<{ id: string; siteId: string; name: string; heightClearanceM: number }>;
};

/**
 * An organization with `sites` sites of `baysPerSite` bays each, clearances 3.80 m, 3.95 m … 5.45 m
 * (like the demo's North Terminal), all sites in `timeZone` with the default operating hours.
 */
export async function createBenchOrg(
  database: Database,
  options: { name: string; sites?: number; baysPerSite?: number; timeZone?: string },
): Promise<BenchOrg> {
  const org = await createOrg(database, { name: options.name });
  const result: BenchOrg = { orgId: org.id, siteIds: [], bays: [] };
  for (let s = 0; s < (options.sites ?? 2); s++) {
    const site = await createSite(database, org.id, { name: `${options.name} Site ${s + 1}`, timeZone: options.timeZone ?? 'UTC' });
    result.siteIds.push(site.id);
    for (let b = 0; b < (options.baysPerSite ?? 12); b++) {
      const heightClearanceM = Number((3.8 + b * 0.15).toFixed(2));
      const bay = await createBay(database, site, { name: `S${s + 1}-B${b + 1}`, heightClearanceM });
      result.bays.push({ id: bay.id, siteId: site.id, name: bay.name, heightClearanceM });
    }
  }
  return result;
}

const MINUTES_PER_DAY = 24 * 60;

/** Bookings a bay gets per day in generated data (90 % of BOOKINGS_PER_BAY_DAY slots are taken). */
export const BOOKINGS_PER_BAY_DAY = 8;
/** Approximate rows generateBookings writes per bay and day. */
export const ROWS_PER_BAY_DAY = BOOKINGS_PER_BAY_DAY * 0.9;

/**
 * Generated bookings for every bay of `orgId`, on days `fromDay`..`toDay` (whole days relative to
 * `anchor`, a UTC midnight): up to 8 a day per bay, starting 06:00, 08:00 … 20:00 (+0 or +30 min),
 * lasting 30–90 min, so they never overlap on one bay. Bookings before `now` are mostly completed
 * (5 % cancelled, 3 % no-show, 2 % declined); later ones approved or pending. Returns rows written.
 */
export async function generateBookings(
  database: Database,
  options: { orgId: string; anchor: Date; now: Date; fromDay: number; toDay: number },
): Promise<number> {
  const spacing = (16 * 60) / BOOKINGS_PER_BAY_DAY; // 120 min: the longest booking (90) + jitter (30) fits
  const rows = await database.query<{ n: number }>(
    `with inserted as (
       insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time,
                             window_start, window_end, vehicle_type, vehicle_registration, vehicle_height_mm,
                             vehicle_height_m, expected_duration_min, status, source, created_at, updated_at)
       select b.org_id, b.site_id, b.id,
              'TSR-' || d || '-' || k || '-' || b.idx,
              'Tenant ' || (h % 40), 'ops' || (h % 40) || '@tenant.example',
              t.start_at, t.start_at + make_interval(mins => t.dur), t.start_at, t.start_at + make_interval(mins => t.dur),
              (array['van', 'rigid', 'semi', 'b-double'])[1 + h % 4], 'BW' || lpad((h * 97 % 100000)::text, 5, '0'),
              3900, 3.9, t.dur,
              case when t.start_at >= $2::timestamptz then (case when h % 10 < 7 then 'approved' else 'pending' end)
                   when h % 100 < 5 then 'cancelled' when h % 100 < 8 then 'no_show' when h % 100 < 10 then 'declined'
                   else 'completed' end,
              'portal', t.start_at - interval '3 days', t.start_at - interval '3 days'
         from (select id, org_id, site_id, row_number() over (order by site_id, name) as idx from bays where org_id = $1) b
        cross join generate_series($4::int, $5::int) d
        cross join generate_series(0, ${BOOKINGS_PER_BAY_DAY - 1}) k
        cross join lateral (select ((d::bigint * 7919 + k * 104729 + b.idx * 15485863) % 1000)::int as h) hh
        cross join lateral (
          select $3::timestamptz + make_interval(mins => d * ${MINUTES_PER_DAY} + 360 + k * ${spacing} + (h % 2) * 30) as start_at,
                 (array[30, 45, 60, 90])[1 + (h / 7) % 4] as dur) t
        where h % 10 <> 0
       returning 1)
     select count(*)::int as n from inserted`,
    [options.orgId, options.now, options.anchor, options.fromDay, options.toDay],
  );
  return Number(rows[0]!.n);
}

/**
 * Blackouts on days `fromDay`..`toDay`: each bay is blacked out 12:00–14:00 one day in 30
 * (staggered by bay), and each site 00:00–24:00 one day in 90 (site-wide, bay_id null).
 */
export async function generateBlackouts(
  database: Database,
  options: { orgId: string; anchor: Date; fromDay: number; toDay: number },
): Promise<number> {
  const params = [options.orgId, options.anchor, options.fromDay, options.toDay];
  const [perBay] = await database.query<{ n: number }>(
    `with inserted as (
       insert into blackouts (org_id, site_id, bay_id, start_time, end_time, reason)
       select b.org_id, b.site_id, b.id, $2::timestamptz + make_interval(mins => d * ${MINUTES_PER_DAY} + 720),
              $2::timestamptz + make_interval(mins => d * ${MINUTES_PER_DAY} + 840), 'Maintenance'
         from (select id, org_id, site_id, row_number() over (order by site_id, name) as idx from bays where org_id = $1) b
        cross join generate_series($3::int, $4::int) d
        where (d - b.idx) % 30 = 0
       returning 1)
     select count(*)::int as n from inserted`,
    params,
  );
  const [siteWide] = await database.query<{ n: number }>(
    `with inserted as (
       insert into blackouts (org_id, site_id, bay_id, start_time, end_time, reason)
       select s.org_id, s.id, null, $2::timestamptz + make_interval(mins => d * ${MINUTES_PER_DAY}),
              $2::timestamptz + make_interval(mins => (d + 1) * ${MINUTES_PER_DAY}), 'Site closed'
         from sites s cross join generate_series($3::int, $4::int) d
        where s.org_id = $1 and d % 90 = 45
       returning 1)
     select count(*)::int as n from inserted`,
    params,
  );
  return Number(perBay!.n) + Number(siteWide!.n);
}

/** Whole-day offset of the UTC midnight `date` ('YYYY-MM-DD'). */
export const utcMidnight = (date: string) => new Date(`${date}T00:00:00Z`);

export const formatCount = (n: number) =>
  n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}M` : n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n);

/**
 * Runs a bulk load into bookings with its secondary indexes and constraints (all but the primary
 * key) dropped, then recreates each one from its own definition as read from the catalog — so the
 * table ends exactly as the migrations left it, the exclusion constraint re-checked over every row.
 * Building an index once is several times faster than maintaining it row by row. PostgreSQL only.
 */
export async function withBookingIndexesDropped<T>(database: Database, load: () => Promise<T>): Promise<T> {
  const constraints = await database.query<{ name: string; definition: string }>(
    `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid = 'bookings'::regclass and contype in ('u', 'x')`,
  );
  const indexes = await database.query<{ name: string; definition: string }>(
    `select i.relname as name, pg_get_indexdef(x.indexrelid) as definition
       from pg_index x join pg_class i on i.oid = x.indexrelid
      where x.indrelid = 'bookings'::regclass and not x.indisprimary
        and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)`,
  );
  for (const c of constraints) await database.query(`alter table bookings drop constraint "${c.name}"`);
  for (const i of indexes) await database.query(`drop index "${i.name}"`);
  try {
    return await load();
  } finally {
    for (const i of indexes) await database.query(i.definition);
    for (const c of constraints) await database.query(`alter table bookings add constraint "${c.name}" ${c.definition}`);
  }
}
