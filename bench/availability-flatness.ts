// Availability latency as the bookings table grows: our day grid for one organization (2 sites ×
// 12 bays, a normal day of bookings) with 10k, 100k and 1M bookings in the database (PostgreSQL).
// The table grows the way a real one does: first the organization's own history (back to three
// years), then other organizations with three years each; steps above 50k rows are loaded with the
// secondary indexes dropped and rebuilt from their catalog definitions afterwards. Prints
// `availability latency 10k: X ms, 100k: Y ms, 1M: Z ms (ratio 1M/10k: R×)` (medians).
// Run alone: npx tsx bench/availability-flatness.ts
// Knobs: BENCH_MAX_BOOKINGS (largest level, default 1000000; levels are 10k, 100k, 1M, … up to it),
//        BENCH_FLATNESS_BUDGET_S (timed seconds per level, default 10).
import { getDayAvailability, type AvailabilityQuery } from '../server/modules/availability/availability.service';
import * as repo from '../server/modules/availability/availability.repo';
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
import { listBusyBookingsBounded, listBusyBookingsByRange, proposedDayFreeBays } from './lib/proposed-availability';
import { describeSummary, envInt, measureRounds, ms, type Summary } from './lib/stats';

const DATE = '2026-12-01';
const NOW = new Date('2026-11-30T00:00:00Z');
const HISTORY_DAYS = 3 * 365;
const FUTURE_DAYS = 14;
const maxBookings = envInt('BENCH_MAX_BOOKINGS', 1_000_000);
const budgetMs = envInt('BENCH_FLATNESS_BUDGET_S', 10) * 1000;
const levels: number[] = [];
for (let level = 10_000; level <= maxBookings; level *= 10) levels.push(level);
if (levels.length === 0) throw new Error('BENCH_MAX_BOOKINGS must be at least 10000');

const t = await openBench('postgres', { now: NOW });
try {
  const database = t.ctx.database;
  const anchor = utcMidnight(DATE);
  let total = 0;
  const started = performance.now();

  // The measured organization: the weeks around the measured day first, then its history.
  const measured = await createBenchOrg(database, { name: 'Flat Org 0' });
  total += await generateBookings(database, { orgId: measured.orgId, anchor, now: NOW, fromDay: -7, toDay: FUTURE_DAYS });
  await generateBlackouts(database, { orgId: measured.orgId, anchor, fromDay: -HISTORY_DAYS, toDay: FUTURE_DAYS });
  type Filling = { org: BenchOrg; nextDay: number };
  const filling: Filling[] = [{ org: measured, nextDay: -8 }];

  /** Adds history, newest first, until the table holds at least `target` bookings. */
  async function growTo(target: number): Promise<void> {
    // Large steps load with the secondary indexes dropped and rebuilt after (same final schema).
    if (target - total > 50_000) await withBookingIndexesDropped(database, () => addRows(target));
    else await addRows(target);
    await database.query('vacuum analyze bookings');
  }

  async function addRows(target: number): Promise<void> {
    while (total < target) {
      let current = filling.at(-1)!;
      if (current.nextDay < -HISTORY_DAYS) {
        const org = await createBenchOrg(database, { name: `Flat Org ${filling.length}` });
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
  }

  const query: AvailabilityQuery = { orgId: measured.orgId, date: DATE, durationMin: 30, vehicleHeightM: 3.9 };
  const from = new Date(`${DATE}T06:00:00Z`);
  const to = new Date(`${DATE}T22:00:00Z`);
  const compatibleBayIds = measured.bays.filter((bay) => bay.heightClearanceM >= 3.9).map((bay) => bay.id);
  const medians: Array<{ level: number; summary: Summary; proposed: Summary }> = [];
  for (const level of levels) {
    await growTo(level);
    const [{ own }] = await database.query<{ own: number }>('select count(*)::int as own from bookings where org_id = $1', [measured.orgId]);
    console.log(
      `[${formatCount(level)}] ${total} bookings in the database (${filling.length} organizations; the measured one has ${own}, ` +
        `${Math.min(HISTORY_DAYS, -filling[0]!.nextDay - 1)} days of history); data ready after ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    const results = await measureRounds(
      [
        { name: 'ours', run: () => getDayAvailability(database.db, query, NOW) },
        { name: 'ours-proposed', run: () => proposedDayFreeBays(database.db, query, NOW) },
        { name: 'busy-current', run: () => repo.listBusyIntervals(database.db, { orgId: measured.orgId, siteIds: measured.siteIds, bayIds: compatibleBayIds }, from, to) },
        { name: 'busy-proposed', run: () => listBusyBookingsByRange(database.db, compatibleBayIds, from, to) },
        {
          name: 'busy-bounded',
          run: () => listBusyBookingsBounded(database.db, measured.orgId, measured.siteIds, from, to, 24 * 3_600_000),
        },
      ],
      { warmupRounds: 5, minRounds: 30, maxRounds: 300, budgetMs },
    );
    const ours = results.get('ours')!;
    const proposed = results.get('ours-proposed')!;
    medians.push({ level, summary: ours, proposed });
    console.log(`[${formatCount(level)}] getDayAvailability: ${describeSummary(ours)}`);
    console.log(`[${formatCount(level)}] same grid with the proposed busy-interval query (bench only): ${describeSummary(proposed)}`);
    console.log(
      `[${formatCount(level)}] busy-interval query alone: current ${ms(results.get('busy-current')!.median)}, ` +
        `proposed GiST-range query ${ms(results.get('busy-proposed')!.median)}, ` +
        `alternative with a 24 h lower bound ${ms(results.get('busy-bounded')!.median)} (medians)`,
    );
  }
  const first = medians[0]!;
  const last = medians.at(-1)!;
  const ratio = last.summary.median / first.summary.median;
  const proposedRatio = last.proposed.median / first.proposed.median;
  console.log(
    `availability latency with the proposed busy-interval query: ` +
      medians.map((m) => `${formatCount(m.level)}: ${m.proposed.median.toFixed(2)} ms`).join(', ') +
      ` (ratio ${formatCount(last.level)}/${formatCount(first.level)}: ${proposedRatio.toFixed(2)}×)`,
  );
  const parts = medians.map((m) => `${formatCount(m.level)}: ${m.summary.median.toFixed(2)} ms`).join(', ');
  console.log(
    `availability latency ${parts} (ratio ${formatCount(last.level)}/${formatCount(first.level)}: ${ratio.toFixed(2)}×; ` +
      `target ≤ 1.5×: ${ratio <= 1.5 ? 'met' : 'NOT met'})`,
  );
} finally {
  await t.close();
}
