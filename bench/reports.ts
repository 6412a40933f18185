// Reports: the full 30-day report set of one organization (bay utilisation, punctuality, dwell,
// no-shows, volume — the five requests /org/reports makes, run in parallel as the page does) with
// 100k and then 1M bookings in the database (PostgreSQL), and on PGlite at 100k.
// The measured organization: 4 sites × 20 bays in Australia/Sydney, up to 8 bookings per bay and day
// (bench/lib/bench-data.ts), the ones in and around the range carrying check-in, start and
// check-out times, mixed sources and booking types, and its blackouts; about 17k of its bookings
// start in the 30 days. The table then grows the way availability-flatness.ts grows it: the
// organization's own history first (back to three years), then other organizations; steps above
// 50k rows load with the secondary indexes dropped and rebuilt from their catalog definitions.
// Prints `reports: N ms …` (PostgreSQL at the largest size, with the ratio to a tenth of it) and
// `reports (PGlite): N ms …`.
// Run alone: npx tsx bench/reports.ts
// Knobs: BENCH_REPORTS_BOOKINGS (largest size, default 1000000; also measured at a tenth of it),
//        BENCH_REPORTS_PGLITE_BOOKINGS (PGlite's size, default 100000),
//        BENCH_REPORTS_BUDGET_S (timed seconds per size, default 10),
//        BENCH_SKIP_PGLITE=true, BENCH_PGLITE_THREAD=0 (PGlite in this thread, not on its own as npm start runs it).
import type { Database, DatabaseKind } from '../server/db/client';
import type { OrgScope } from '../server/plugins/org-scope';
import { getDwell, getNoShows, getPunctuality, getUtilisation, getVolume, type ReportAccess } from '../server/modules/reports/reports.service';
import type { TestApp } from '../server/test/harness';
import {
  createBenchOrg,
  formatCount,
  generateBlackouts,
  generateBookings,
  openBench,
  ROWS_PER_BAY_DAY,
  utcMidnight,
  withBookingIndexesDropped,
  type BenchOrg,
} from './lib/bench-data';
import { describeSummary, envInt, measureRounds, ms, type Summary } from './lib/stats';

const NOW = new Date('2026-11-30T00:00:00Z'); // Monday 30 November, 11:00 in Sydney
const RANGE = { from: '2026-10-31', to: '2026-11-29' }; // the last 30 whole days
const TIME_ZONE = 'Australia/Sydney';
const SITES = 4;
const BAYS_PER_SITE = 20;
const HISTORY_DAYS = 3 * 365;
const FUTURE_DAYS = 14;
/** The measured organization's first rows: the range with a margin either side. */
const FIRST_DAY = -35;
const largest = envInt('BENCH_REPORTS_BOOKINGS', 1_000_000);
const pgliteSize = envInt('BENCH_REPORTS_PGLITE_BOOKINGS', 100_000);
const budgetMs = envInt('BENCH_REPORTS_BUDGET_S', 10) * 1000;
const skipPglite = process.env.BENCH_SKIP_PGLITE === 'true';
const pgliteInThisThread = process.env.BENCH_PGLITE_THREAD === '0';

const REPORTS = [
  ['utilisation', getUtilisation],
  ['punctuality', getPunctuality],
  ['dwell', getDwell],
  ['no-shows', getNoShows],
  ['volume', getVolume],
] as const;

/** One level's figures. */
type Level = { size: number; full: Summary; each: Map<string, Summary> };

/**
 * Gives the measured organization's bookings around the range what a real month has: arrivals
 * from 40 min early to 50 min late, a gate wait, time at the bay around the booked duration,
 * check-out; sources and booking types mixed (deterministic from the row's id).
 */
async function addLifecycle(database: Database, orgId: string, anchor: Date): Promise<void> {
  const params = [orgId, new Date(anchor.getTime() + FIRST_DAY * 86_400_000).toISOString(), new Date(anchor.getTime() + FUTURE_DAYS * 86_400_000).toISOString()];
  await database.query(
    `update bookings b
        set source = (array['portal', 'portal', 'portal', 'admin', 'gate', 'api'])[1 + x.h % 6],
            booking_type = (array['delivery', 'delivery', 'pickup', 'both'])[1 + (x.h / 7) % 4],
            vehicle_type = (array['van', 'rigid', 'semi', 'b-double'])[1 + (x.h / 29) % 4]
       from (select id, abs(hashtext(id::text)) as h from bookings where org_id = $1 and start_time >= $2 and start_time < $3) x
      where b.id = x.id`,
    params,
  );
  await database.query(
    `update bookings b
        set checked_in_at = b.start_time + make_interval(mins => x.h % 90 - 40),
            started_at = b.start_time + make_interval(mins => greatest(x.h % 90 - 40, 0) + 5 + x.h % 11),
            completed_at = b.start_time + make_interval(mins => greatest(x.h % 90 - 40, 0) + 5 + x.h % 11 + b.expected_duration_min + x.h % 37 - 10)
       from (select id, abs(hashtext(id::text || 'x')) as h from bookings where org_id = $1 and start_time >= $2 and start_time < $3 and status = 'completed') x
      where b.id = x.id`,
    params,
  );
}

async function measure(t: TestApp, org: BenchOrg, label: string): Promise<{ full: Summary; each: Map<string, Summary> }> {
  const scope: OrgScope = {
    orgId: org.orgId,
    userId: '00000000-0000-4000-8000-000000000000',
    role: 'org_admin',
    isPlatformAdmin: false,
    actor: 'org_admin',
    auditActor: { id: '00000000-0000-4000-8000-000000000000', email: 'bench@example.test', role: 'org_admin' },
  };
  const access: ReportAccess = { scope, sessionSiteId: null };
  const query = { ...RANGE };
  const fullSet = () => Promise.all(REPORTS.map(([, run]) => run(t.ctx, access, query)));
  // What the set reports, once, so a reader can see the figures are real.
  const [utilisation, punctuality, dwell, noShows, volume] = (await fullSet()) as [
    Awaited<ReturnType<typeof getUtilisation>>,
    Awaited<ReturnType<typeof getPunctuality>>,
    Awaited<ReturnType<typeof getDwell>>,
    Awaited<ReturnType<typeof getNoShows>>,
    Awaited<ReturnType<typeof getVolume>>,
  ];
  const pct = (share: number | null) => (share === null ? '–' : `${(share * 100).toFixed(1)} %`);
  console.log(
    `${label} the set covers ${volume.total.bookings} bookings in ${RANGE.from}..${RANGE.to}: utilisation booked ${pct(utilisation.total.bookedRate)}, ` +
      `occupied ${pct(utilisation.total.occupiedRate)} over ${utilisation.bays.length} bays (${utilisation.cells.length} bay-days); ` +
      `${punctuality.total.arrivals} arrivals, ${pct(punctuality.total.onTimeRate)} on time; median time at bay ${dwell.total.atBay.medianMinutes} min ` +
      `(${dwell.rows.length} dwell groups); no-shows ${pct(noShows.total.noShowRate)}, cancellations ${pct(noShows.total.cancellationRate)}`,
  );
  const results = await measureRounds(
    [{ name: 'full', run: fullSet }, ...REPORTS.map(([name, run]) => ({ name, run: () => run(t.ctx, access, query) }))],
    { warmupRounds: 3, minRounds: 10, maxRounds: 200, budgetMs },
  );
  const full = results.get('full')!;
  results.delete('full');
  console.log(`${label} full report set (5 reports in parallel): ${describeSummary(full)}`);
  console.log(`${label} each alone (medians): ${[...results].map(([name, s]) => `${name} ${ms(s.median)}`).join(', ')}`);
  return { full, each: results };
}

/** Loads one database up to each size in turn and measures the report set at each. */
async function runOn(kind: DatabaseKind, sizes: number[]): Promise<Level[]> {
  // PGlite on its own thread, as `npm start` runs it (decision 052); BENCH_PGLITE_THREAD=0: in this one.
  const t = await openBench(kind, { now: NOW, pgliteThread: kind === 'pglite' && !pgliteInThisThread });
  try {
    const database = t.ctx.database;
    const anchor = utcMidnight('2026-11-30');
    let total = 0;
    const started = performance.now();
    const measured = await createBenchOrg(database, { name: 'Report Org 0', sites: SITES, baysPerSite: BAYS_PER_SITE, timeZone: TIME_ZONE });
    total += await generateBookings(database, { orgId: measured.orgId, anchor, now: NOW, fromDay: FIRST_DAY, toDay: FUTURE_DAYS });
    await generateBlackouts(database, { orgId: measured.orgId, anchor, fromDay: -HISTORY_DAYS, toDay: FUTURE_DAYS });
    await addLifecycle(database, measured.orgId, anchor);
    type Filling = { org: BenchOrg; nextDay: number };
    const filling: Filling[] = [{ org: measured, nextDay: FIRST_DAY - 1 }];

    const addRows = async (target: number) => {
      while (total < target) {
        let current = filling.at(-1)!;
        if (current.nextDay < -HISTORY_DAYS) {
          const org = await createBenchOrg(database, { name: `Report Org ${filling.length}`, timeZone: TIME_ZONE });
          await generateBlackouts(database, { orgId: org.orgId, anchor, fromDay: -HISTORY_DAYS, toDay: FUTURE_DAYS });
          current = { org, nextDay: FUTURE_DAYS };
          filling.push(current);
        }
        const rowsPerDay = current.org.bays.length * ROWS_PER_BAY_DAY;
        const days = Math.min(120, Math.max(1, Math.ceil((target - total) / rowsPerDay)));
        const fromDay = Math.max(-HISTORY_DAYS, current.nextDay - days + 1);
        total += await generateBookings(database, { orgId: current.org.orgId, anchor, now: NOW, fromDay, toDay: current.nextDay });
        current.nextDay = fromDay - 1;
      }
    };

    const levels: Level[] = [];
    for (const size of sizes) {
      if (kind === 'postgres' && size - total > 50_000) await withBookingIndexesDropped(database, () => addRows(size));
      else await addRows(size);
      await database.query(kind === 'postgres' ? 'vacuum analyze bookings' : 'analyze bookings');
      const [{ own }] = await database.query<{ own: number }>('select count(*)::int as own from bookings where org_id = $1', [measured.orgId]);
      const label = `[${kind}, ${formatCount(size)}]`;
      console.log(
        `${label} ${total} bookings in the database (${filling.length} organizations; the measured one has ${own}: ${SITES} sites × ${BAYS_PER_SITE} bays, ` +
          `${TIME_ZONE}); data ready after ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
      levels.push({ size, ...(await measure(t, measured, label)) });
    }
    return levels;
  } finally {
    await t.close();
  }
}

const smaller = Math.max(1, Math.round(largest / 10));
const pg = await runOn('postgres', [smaller, largest]);
const [small, large] = [pg[0]!, pg.at(-1)!];
const ratio = large.full.median / small.full.median;
const lite = skipPglite ? null : (await runOn('pglite', [pgliteSize]))[0]!;
if (lite) {
  console.log(
    `reports (PGlite): ${lite.full.median.toFixed(0)} ms (full 30-day set of one organization, ${formatCount(lite.size)} bookings in the database; ` +
      `p95 ${lite.full.p95.toFixed(0)} ms; WebAssembly ${pgliteInThisThread ? 'in the calling thread (BENCH_PGLITE_THREAD=0)' : 'on a thread of its own as npm start runs it'}, one query at a time)`,
  );
}
console.log(
  `reports: ${large.full.median.toFixed(0)} ms (PostgreSQL, full 30-day set of one organization, ${formatCount(large.size)} bookings in the database; ` +
    `${formatCount(small.size)}: ${small.full.median.toFixed(0)} ms, ratio ${formatCount(large.size)}/${formatCount(small.size)}: ${ratio.toFixed(2)}×; ` +
    `targets ≤ 500 ms: ${large.full.median <= 500 ? 'met' : 'NOT met'}, ≤ 1.5×: ${ratio <= 1.5 ? 'met' : 'NOT met'})`,
);
