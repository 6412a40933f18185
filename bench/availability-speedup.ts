// Availability: our day grid (one request → organization, bays and busy intervals in a constant
// number of queries) against the spec's pattern (bays once, then two queries per slot, each its
// own round trip, awaited in turn), on the same data, side by side in one run.
// Data: one organization, 2 sites × 12 bays (clearances 3.80–5.45 m), up to 8 bookings per bay and
// day and a blackout per bay a month; measured first with 30 days of history, then with a year.
// Prints `availability speedup: N×` for PostgreSQL with the longest history (the key figure).
// Run alone: npx tsx bench/availability-speedup.ts
// Knobs: BENCH_SPEEDUP_HISTORY_DAYS (comma-separated, growing; default "30,365"),
//        BENCH_SPEEDUP_BUDGET_S (timed seconds per size and database, default 15),
//        BENCH_SKIP_PGLITE=true (PGlite is measured on the longest history only).
import { DEFAULT_OPERATING_HOURS } from '../domain/constants';
import { buildSlotGrid } from '../domain/slot-grid';
import type { Database, DatabaseKind } from '../server/db/client';
import * as repo from '../server/modules/availability/availability.repo';
import { getDayAvailability, type AvailabilityQuery } from '../server/modules/availability/availability.service';
import { createBenchOrg, formatCount, generateBlackouts, generateBookings, openBench, utcMidnight, type BenchOrg } from './lib/bench-data';
import { listBusyBookingsByRange, proposedDayFreeBays, proposedOneTripDayFreeBays } from './lib/proposed-availability';
import { specPatternDayGrid } from './lib/spec-pattern';
import { describeSummary, envInt, measureRounds, ms } from './lib/stats';

const DATE = '2026-12-01'; // a Tuesday: 06:00–22:00, 32 slots
const NOW = new Date('2026-11-30T00:00:00Z');
const TIME_ZONE = 'UTC';
const VEHICLE_HEIGHT_M = 3.9;
const FUTURE_DAYS = 14;
const historySizes = (process.env.BENCH_SPEEDUP_HISTORY_DAYS ?? '30,365')
  .split(',')
  .map((d) => Number(d.trim()))
  .filter((d) => Number.isInteger(d) && d > 0)
  .sort((a, b) => a - b);
if (historySizes.length === 0) throw new Error('BENCH_SPEEDUP_HISTORY_DAYS must list whole numbers of days');
const budgetMs = envInt('BENCH_SPEEDUP_BUDGET_S', 15) * 1000;

type Outcome = { historyDays: number; bookings: number; speedup: number; proposedSpeedup: number; oneTripSpeedup: number };

/** Measures ours, the spec's pattern and the proposed query on the data as it is now. */
async function compare(kind: DatabaseKind, database: Database, org: BenchOrg, historyDays: number): Promise<Outcome> {
  const label = `[${kind}, ${historyDays} days]`;
  const db = database.db;
  const [{ n: bookings }] = await database.query<{ n: number }>('select count(*)::int as n from bookings');
  const [{ n: blackouts }] = await database.query<{ n: number }>('select count(*)::int as n from blackouts');
  console.log(
    `${label} data: 2 sites × 12 bays, ${formatCount(bookings)} bookings and ${blackouts} blackouts ` +
      `(${historyDays} days before ${DATE} and ${FUTURE_DAYS} after); grid for ${DATE}, vehicle ${VEHICLE_HEIGHT_M} m, 30 min`,
  );
  const query: AvailabilityQuery = { orgId: org.orgId, date: DATE, durationMin: 30, vehicleHeightM: VEHICLE_HEIGHT_M };
  const ours = () => getDayAvailability(db, query, NOW);
  const spec = () => specPatternDayGrid(db, { orgId: org.orgId, date: DATE, timeZone: TIME_ZONE, vehicleHeightM: VEHICLE_HEIGHT_M });
  const proposed = () => proposedDayFreeBays(db, query, NOW);
  const oneTrip = () => proposedOneTripDayFreeBays(db, query, NOW);

  // Each computes a real grid. The spec's differs from ours where the spec is wrong: it reads only
  // the first compatible bay's site's bookings and ignores site-wide blackouts.
  const ourGrid = await ours();
  const specGrid = await spec();
  const proposedGrids = [await proposed(), await oneTrip()];
  const ourFree = ourGrid.slots.reduce((n, s) => n + (s.bookable ? s.freeBays : 0), 0);
  const specFree = specGrid.reduce((n, s) => n + s.freeBays, 0);
  const mismatches = ourGrid.slots.filter((s) =>
    proposedGrids.some((grid) => (grid.get(s.time) ?? -1) !== (s.bookable ? s.freeBays : 0)),
  ).length;
  console.log(
    `${label} grids: ours ${ourGrid.slots.length} slots, ${ourGrid.compatibleBays} compatible bays, ${ourFree} free bay-slots; ` +
      `spec pattern ${specGrid.length} slots, ${specFree} free bay-slots (it sees one site's bookings only); ` +
      `both proposed variants = ours on ${ourGrid.slots.length - mismatches}/${ourGrid.slots.length} slots`,
  );
  if (mismatches > 0) throw new Error('the proposed busy-interval query disagrees with getDayAvailability');

  const results = await measureRounds(
    [
      { name: 'ours', run: ours, perRound: 3 },
      { name: 'spec', run: spec },
      { name: 'proposed', run: proposed, perRound: 3 },
      { name: 'one-trip', run: oneTrip, perRound: 3 },
    ],
    { warmupRounds: 2, minRounds: 10, maxRounds: 150, budgetMs },
  );
  const o = results.get('ours')!;
  const s = results.get('spec')!;
  const p = results.get('proposed')!;
  const p2 = results.get('one-trip')!;
  console.log(`${label} ours, getDayAvailability (org, bays, then bookings ∥ blackouts): ${describeSummary(o)}`);
  console.log(`${label} spec pattern (bays, then 32 × [bookings, blackouts], one after another): ${describeSummary(s)}`);
  console.log(`${label} proposed 1, GiST-range busy query (bench/lib/proposed-availability.ts): ${describeSummary(p)}`);
  console.log(`${label} proposed 1 + 2, and all queries in one round trip: ${describeSummary(p2)}`);
  const outcome = {
    historyDays,
    bookings,
    speedup: s.median / o.median,
    proposedSpeedup: s.median / p.median,
    oneTripSpeedup: s.median / p2.median,
  };
  console.log(
    `${label} speedup: ${outcome.speedup.toFixed(1)}× (proposed 1: ${outcome.proposedSpeedup.toFixed(1)}×, ` +
      `proposed 1 + 2: ${outcome.oneTripSpeedup.toFixed(1)}×)`,
  );
  return outcome;
}

/** Where one getDayAvailability call spends its time (medians of its parts, run on their own). */
async function breakdown(database: Database, org: BenchOrg): Promise<void> {
  const db = database.db;
  const from = new Date(`${DATE}T06:00:00Z`);
  const to = new Date(`${DATE}T22:00:00Z`);
  const bayIds = org.bays.filter((bay) => bay.heightClearanceM >= VEHICLE_HEIGHT_M).map((bay) => bay.id);
  const grid = { date: DATE, timeZone: TIME_ZONE, operatingHours: DEFAULT_OPERATING_HOURS, durationMin: 30, now: NOW };
  const parts = await measureRounds(
    [
      { name: 'select 1 (a bare round trip)', run: () => database.query('select 1') },
      { name: 'organization lookup', run: () => repo.findBookableOrg(db, org.orgId) },
      { name: 'bays query', run: () => repo.listActiveBays(db, org.orgId) },
      { name: 'busy intervals, current', run: () => repo.listBusyIntervals(db, { orgId: org.orgId, siteIds: org.siteIds, bayIds }, from, to) },
      { name: 'busy bookings, proposed', run: () => listBusyBookingsByRange(db, bayIds, from, to) },
      { name: 'slot grid of one site (JS)', run: async () => buildSlotGrid(grid) },
    ],
    { warmupRounds: 10, minRounds: 50, maxRounds: 300, budgetMs: 5000 },
  );
  console.log(`[postgres] where the time goes (medians): ${[...parts].map(([name, sum]) => `${name} ${ms(sum.median)}`).join('; ')}`);
}

async function runOn(kind: DatabaseKind, sizes: number[]): Promise<Outcome[]> {
  const t = await openBench(kind, { now: NOW });
  try {
    const database = t.ctx.database;
    const org = await createBenchOrg(database, { name: 'Speedup Logistics', sites: 2, baysPerSite: 12, timeZone: TIME_ZONE });
    const anchor = utcMidnight(DATE);
    const outcomes: Outcome[] = [];
    let generatedFrom = FUTURE_DAYS + 1;
    for (const historyDays of sizes) {
      // Grow the history backwards: the measured day and the weeks after it stay as they were.
      const fromDay = -historyDays;
      await generateBookings(database, { orgId: org.orgId, anchor, now: NOW, fromDay, toDay: generatedFrom - 1 });
      await generateBlackouts(database, { orgId: org.orgId, anchor, fromDay, toDay: generatedFrom - 1 });
      generatedFrom = fromDay;
      await database.query(kind === 'postgres' ? 'vacuum analyze' : 'analyze');
      outcomes.push(await compare(kind, database, org, historyDays));
    }
    if (kind === 'postgres') await breakdown(database, org);
    return outcomes;
  } finally {
    await t.close();
  }
}

const pg = await runOn('postgres', historySizes);
if (process.env.BENCH_SKIP_PGLITE !== 'true') {
  const [lite] = await runOn('pglite', historySizes.slice(-1));
  console.log(
    `availability speedup on PGlite (in-process, no network round trips; ${lite!.historyDays} days): ${lite!.speedup.toFixed(1)}× ` +
      `(proposed 1: ${lite!.proposedSpeedup.toFixed(1)}×, proposed 1 + 2: ${lite!.oneTripSpeedup.toFixed(1)}×)`,
  );
}
const key = pg.at(-1)!;
const others = pg
  .slice(0, -1)
  .map((o) => `${o.historyDays} days of history: ${o.speedup.toFixed(1)}×`)
  .join(', ');
console.log(
  `availability speedup with the proposed changes (PostgreSQL): ` +
    pg.map((o) => `${o.historyDays} days: ${o.proposedSpeedup.toFixed(1)}× (1), ${o.oneTripSpeedup.toFixed(1)}× (1 + 2)`).join('; '),
);
console.log(
  `availability speedup: ${key.speedup.toFixed(1)}× (PostgreSQL, ${key.historyDays} days of history, ${formatCount(key.bookings)} bookings` +
    `${others ? `; ${others}` : ''}; target ≥ 30×: ${key.speedup >= 30 ? 'met' : 'NOT met'})`,
);
