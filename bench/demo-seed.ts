// The demo seed (server/db/seed.ts, seedDemoDataIfEmpty) into a fresh, migrated database: two
// organizations, three sites, 24 bays, the demo accounts (one argon2 hash), ~500 bookings with
// their audit rows, invoices and the rest — what `npm start` does on its first run, without the
// migration and the server start (bench/startup.ts times those together). On PGlite (in memory) and
// on PostgreSQL (a throwaway database on BENCH_DATABASE_URL, TEST_DATABASE_URL or the local one).
// The budget was a unit test's (< 3 s, server/db/seed.test.ts); it is measured here.
// Prints `demo seed: PGlite N ms, PostgreSQL M ms (median of R; target < 3000 ms: met)`.
// Run alone: npx tsx bench/demo-seed.ts      Knobs: BENCH_SEED_RUNS (default 3 per database).
import os from 'node:os';
import type { DatabaseKind } from '../server/db/client';
import { seedDemoDataIfEmpty } from '../server/db/seed';
import { openBench } from './lib/bench-data';
import { envInt, ms, summarize } from './lib/stats';

const TARGET_MS = 3000;
const runs = envInt('BENCH_SEED_RUNS', 3);
// 11:00 on a Monday in Sydney: the demo's docks are busy (the unit test's clock).
const NOW = '2026-11-23T00:00:00Z';

async function seedTimes(kind: DatabaseKind): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = await openBench(kind, { now: NOW });
    try {
      const started = performance.now();
      if (!(await seedDemoDataIfEmpty(t.ctx))) throw new Error(`the fresh ${kind} database was not empty`);
      samples.push(performance.now() - started);
    } finally {
      await t.close();
    }
  }
  return samples;
}

const medians: Partial<Record<DatabaseKind, number>> = {};
for (const [kind, label] of [
  ['pglite', 'PGlite'],
  ['postgres', 'PostgreSQL'],
] as const) {
  const samples = await seedTimes(kind);
  const summary = summarize(samples);
  medians[kind] = summary.median;
  console.log(`${label}: ${samples.map((s) => ms(s, 0)).join(', ')} (median ${ms(summary.median, 0)}); load average ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs`);
}
const worst = Math.max(medians.pglite!, medians.postgres!);
console.log(
  `demo seed: PGlite ${medians.pglite!.toFixed(0)} ms, PostgreSQL ${medians.postgres!.toFixed(0)} ms (median of ${runs}; ` +
    `target < ${TARGET_MS} ms: ${worst < TARGET_MS ? 'met' : 'NOT met'})`,
);
