// Cluster throughput (issue 23): booking commits/s through HAProxy and PgBouncer (transaction
// pooling) with 1 node and with 3 nodes, and the database's own ceiling for the same booking
// statement measured in the same run, so the figures read as a ratio on any machine.
// Each phase starts its own cluster (scripts/cluster/cluster.ts: the local PostgreSQL server, a
// fresh database, PgBouncer, HAProxy, N `npm start` nodes) and drives it with the load generator of
// bench/booking-throughput.ts (its own process). Rate limits are off; the real clock is used, so
// bookings go to the weekdays after today.
// Prints `cluster booking commits/s: 1 node N, 3 nodes M, database ceiling C (…)`.
// Run alone: npx tsx bench/cluster-throughput.ts
// Knobs: BENCH_CLUSTER_SECONDS (per phase, default 12), BENCH_BOOKING_CLIENTS (default 100).
import os from 'node:os';
import { formatTimeOfDay } from '../domain/slot-grid';
import { openDatabase } from '../server/db/client';
import { countOverlaps } from '../server/modules/availability/availability.repo';
import { missingParts, startCluster } from '../scripts/cluster/cluster';
import { createBenchOrg } from './lib/bench-data';
import { databaseCeiling, describeStatuses, spawnLoad, weekdaysAfter } from './lib/booking-bench';
import { envInt, ms } from './lib/stats';

const seconds = envInt('BENCH_CLUSTER_SECONDS', 12);
const clients = envInt('BENCH_BOOKING_CLIENTS', 100);
const today = new Date().toISOString().slice(0, 10);
// Within the default 60-day horizon, from the day after tomorrow (no minimum-notice refusals).
const dates = weekdaysAfter(today, 30).slice(1);
const slots = Array.from({ length: 32 }, (_, i) => formatTimeOfDay(6 * 60 + i * 30));

type Phase = { nodes: number; perS: number; committed: number; overlaps: number; serverErrors: number; ceiling?: number };

async function measure(nodes: number, withCeiling: boolean): Promise<Phase> {
  const started = performance.now();
  const cluster = await startCluster({ nodes, env: { RATE_LIMIT_DISABLED: 'true' } });
  console.log(`${nodes} node(s): cluster up in ${((performance.now() - started) / 1000).toFixed(1)} s at ${cluster.url}`);
  const database = await openDatabase({ databaseUrl: cluster.databaseUrl, poolSize: 10 });
  try {
    const org = await createBenchOrg(database, { name: `Cluster Freight ${nodes}`, sites: 2, baysPerSite: 12 });
    const report = await spawnLoad({ url: `${cluster.url}/api/public/bookings`, orgId: org.orgId, clients, dates, slots, durationS: seconds, seed: nodes, tag: `N${nodes}` });
    const committed = report.byStatus['201'] ?? 0;
    const perS = committed / (report.elapsedMs / 1000);
    const serverErrors = Object.entries(report.byStatus)
      .filter(([status]) => Number(status) >= 500)
      .reduce((n, [, count]) => n + count, 0);
    console.log(
      `${nodes} node(s): ${report.sent} requests in ${(report.elapsedMs / 1000).toFixed(1)} s → ${committed} committed (${describeStatuses(report)}); ` +
        `${perS.toFixed(0)}/s; latency of a 201: median ${ms(report.latency201.median, 1)}, p95 ${ms(report.latency201.p95, 1)}`,
    );
    const phase: Phase = { nodes, perS, committed, overlaps: await countOverlaps(database.db), serverErrors };
    if (withCeiling) {
      // The same statement straight on a pool of 10 direct connections, from 100 callers.
      const ceilingOrg = await createBenchOrg(database, { name: 'Cluster Ceiling', sites: 2, baysPerSite: 12 });
      const ceiling = await databaseCeiling(database, ceilingOrg.orgId, dates, slots, Math.min(seconds, 8), new Date());
      console.log(`database ceiling: ${ceiling.commits} bookings in ${(ceiling.elapsedMs / 1000).toFixed(1)} s with the same statement and no HTTP → ${ceiling.perS.toFixed(0)}/s`);
      phase.ceiling = ceiling.perS;
    }
    return phase;
  } finally {
    await database.close();
    await cluster.stop();
  }
}

const missing = await missingParts();
if (missing.length > 0) {
  console.error(`FAILED: the cluster needs: ${missing.join('; ')}`);
  process.exit(1);
}
console.log(`setup: ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}; ${clients} clients, ${seconds} s per phase, 2 sites × 12 bays, ${dates.length} weekdays × 32 slots`);
const one = await measure(1, false);
const three = await measure(3, true);
const ceiling = three.ceiling!;
const overlaps = one.overlaps + three.overlaps;
console.log(
  `cluster booking commits/s: 1 node ${one.perS.toFixed(0)}, 3 nodes ${three.perS.toFixed(0)}, database ceiling ${ceiling.toFixed(0)} ` +
    `(1 node/ceiling ${(one.perS / ceiling).toFixed(2)}, 3 nodes/ceiling ${(three.perS / ceiling).toFixed(2)}; overlaps ${overlaps}; 5xx ${one.serverErrors + three.serverErrors}; ` +
    `${os.cpus().length} cores shared by PostgreSQL, PgBouncer, HAProxy, the nodes and the load generator)`,
);
if (overlaps > 0 || one.serverErrors + three.serverErrors > 0) {
  console.error(`FAILED: overlaps ${overlaps}, server errors ${one.serverErrors + three.serverErrors}`);
  process.exit(1);
}
