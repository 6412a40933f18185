// Booking throughput: 100 concurrent clients submit bookings through the real HTTP app (Fastify
// listening on 127.0.0.1, PostgreSQL, the app's own pool of 10 connections, confirmation mail
// written to the outbox), first spread over many dates and slots so that most succeed, then all
// at one slot. Afterwards overlapping live bookings are counted in SQL: there must be none.
// The spread load first warms the process up (V8 compiles the hot path, and PGlite's WebAssembly
// is tiered up, over the first seconds of load: a server runs warm), then rounds alternate the
// HTTP load with the database ceiling, each on an organization of its own, and the medians count
// (this 2-core machine's throughput varies by 10-30 % from one run to the next).
// Prints `booking commits/s: N (overlaps: 0; …)` (the median HTTP round) and `slot storm: …`.
// Run alone: NODE_OPTIONS=--max-semi-space-size=32 npx tsx bench/booking-throughput.ts (the server's flags, scripts/server-bundle.mjs)
// Knobs: BENCH_BOOKING_SECONDS (each spread round, default 6), BENCH_ROUNDS (default 3),
//        BENCH_WARMUP_SECONDS (PostgreSQL, default 10), BENCH_PGLITE_WARMUP_SECONDS (default 20),
//        BENCH_BOOKING_CLIENTS (default 100), BENCH_WRK_THREADS (wrk's threads, default 1), BENCH_CONTENTION_REQUESTS (contention phase, default 1000),
//        BENCH_MAIL_WORKER=1 (deliver the queued mail during the spread phases, as `npm start` does,
//        to the local outbox folder; by default the mail stays queued).
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { formatTimeOfDay } from '../domain/slot-grid';
import type { AppContext } from '../server/context';
import { startMailWorker } from '../server/mail/outbox';
import { mailRenderers } from '../server/mail-renderers';
import { SERVER_NODE_FLAGS } from '../scripts/server-bundle.mjs';
import { countOverlaps } from '../server/modules/availability/availability.repo';
import { addMember, createUser } from '../server/test/fixtures';
import { createBenchOrg, openBench } from './lib/bench-data';
import { databaseCeiling, describeStatuses, spawnLoad as runLoad, weekdaysAfter } from './lib/booking-bench';
import { envInt, ms, summarize } from './lib/stats';
import type { LoadReport } from './lib/booking-load';

const median = (values: number[]) => summarize(values).median;
const committedPerS = (report: LoadReport) => (report.byStatus['201'] ?? 0) / (report.elapsedMs / 1000);

const NOW = '2026-11-23T00:00:00Z'; // Monday; bookings go to the weekdays after it
const seconds = envInt('BENCH_BOOKING_SECONDS', 6);
const rounds = envInt('BENCH_ROUNDS', 3);
const warmupS = envInt('BENCH_WARMUP_SECONDS', 10);
const pgliteWarmupS = envInt('BENCH_PGLITE_WARMUP_SECONDS', 20);
const clients = envInt('BENCH_BOOKING_CLIENTS', 100);
const contentionRequests = envInt('BENCH_CONTENTION_REQUESTS', 1000);
const mailWorker = process.env.BENCH_MAIL_WORKER === '1';
/** Issue 25's targets: commits over HTTP at least this share of the database's ceiling, and PGlite's rate. */
const RATIO_TARGET = 0.8;
const PGLITE_TARGET_PER_S = 500;

/** Runs `load` with the server's mail worker delivering (BENCH_MAIL_WORKER=1); says what it sent. */
async function withMail<T>(ctx: AppContext, label: string, load: () => Promise<T>): Promise<T> {
  if (!mailWorker) return load();
  const worker = startMailWorker(ctx, mailRenderers, 1_000);
  ctx.mailWorker = worker;
  try {
    return await load();
  } finally {
    await worker.stop();
    ctx.mailWorker = undefined;
    const counts = await ctx.database.query<{ status: string; n: number }>('select status, count(*)::int as n from mail_outbox group by 1 order by 1');
    console.log(`${label}: mail worker on; outbox ${counts.map((c) => `${c.status} ${c.n}`).join(', ')}`);
  }
}

const rssMb = () => Math.round(process.memoryUsage().rss / 1_048_576);

/** Runs `load` while sampling this process's RSS every 100 ms; adds the peak to its result. */
async function withPeakRss<T>(load: () => Promise<T>): Promise<T & { peakMb: number }> {
  let peak = rssMb();
  const timer = setInterval(() => (peak = Math.max(peak, rssMb())), 100);
  try {
    return { ...(await load()), peakMb: peak };
  } finally {
    clearInterval(timer);
  }
}

// The PGlite phase runs in a process of its own (pgliteInOwnProcess), as `npm start` would: not
// beside the PostgreSQL phases' app, pool and heap.
if (process.env.BENCH_THROUGHPUT_PHASE === 'pglite') {
  console.log(`PGLITE_RESULT ${JSON.stringify(await pgliteSpread())}`);
  process.exit(0);
}

const t = await openBench('postgres', { now: NOW, env: { RATE_LIMIT_DISABLED: 'true' } });
let failed = false;
try {
  const database = t.ctx.database;
  const org = await createBenchOrg(database, { name: 'Throughput Freight', sites: 2, baysPerSite: 12 });
  const admin = await createUser(database, { email: 'admin@throughput.example' });
  await addMember(database, org.orgId, admin.id, 'org_admin'); // so each booking also mails the admins (every organization here)
  if (t.ctx.database.pool && process.env.BENCH_POOL) (t.ctx.database.pool as unknown as { options: { max: number } }).options.max = Number(process.env.BENCH_POOL);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/api/public/bookings`;

  const days = weekdaysAfter(NOW.slice(0, 10), 41);
  const spreadDates = days.slice(0, 40);
  const contentionDate = days[40]!;
  const allSlots = Array.from({ length: 32 }, (_, i) => formatTimeOfDay(6 * 60 + i * 30));
  console.log(
    `setup: 1 organization, 2 sites × 12 bays (all fit the 3.5 m vehicle), app on 127.0.0.1:${port}, ` +
      `pg pool of 10, ${clients} clients in a separate process; rate limits off`,
  );

  // Warm-up: the same spread load, not counted (its rate is the cold process's, printed as such).
  const warm = await runLoad({ url, orgId: org.orgId, clients, dates: spreadDates, slots: allSlots, durationS: warmupS, seed: 1, tag: 'W' });
  console.log(`warm-up: ${warmupS} s of the spread load, not counted: ${committedPerS(warm).toFixed(0)} commits/s (${describeStatuses(warm)})`);

  // Phase 1, in rounds: the spread over 40 weekdays × 32 slots (24 bays each; most requests find a
  // free bay), then the database's own ceiling for the same SQL: the booking statement of
  // book-slot-sql.ts run straight on the pool by as many concurrent callers, with no HTTP,
  // validation or JSON. Each on a new organization, so every round starts from empty slots.
  const idleMb = rssMb();
  let peakMb = idleMb;
  const measured: Array<{ perS: number; ceilingPerS: number; serverMs: number; report: LoadReport }> = [];
  for (let round = 1; round <= rounds; round++) {
    const roundOrg = await createBenchOrg(database, { name: `Throughput Freight ${round}`, sites: 2, baysPerSite: 12 });
    await addMember(database, roundOrg.orgId, admin.id, 'org_admin');
    const cpuBefore = process.cpuUsage();
    const spread = await withMail(t.ctx, `spread round ${round}`, () =>
      withPeakRss(() => runLoad({ url, orgId: roundOrg.orgId, clients, dates: spreadDates, slots: allSlots, durationS: seconds, seed: 1 + round, tag: `S${round}` })),
    );
    const cpu = process.cpuUsage(cpuBefore);
    peakMb = Math.max(peakMb, spread.peakMb);
    const committed = spread.byStatus['201'] ?? 0; // in-flight requests at the deadline still commit after it
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const ceilingOrg = await createBenchOrg(database, { name: `Ceiling Freight ${round}`, sites: 2, baysPerSite: 12 });
    await addMember(database, ceilingOrg.orgId, admin.id, 'org_admin');
    const ceiling = await databaseCeiling(database, ceilingOrg.orgId, spreadDates, allSlots, seconds, new Date(NOW));
    const perS = committedPerS(spread);
    measured.push({ perS, ceilingPerS: ceiling.perS, serverMs: cpuMs / Math.max(1, committed), report: spread });
    console.log(
      `round ${round}: HTTP ${spread.sent} requests in ${(spread.elapsedMs / 1000).toFixed(1)} s → ${committed} committed (${describeStatuses(spread)}), ` +
        `${perS.toFixed(0)}/s, 201 latency median ${ms(spread.latency201.median, 1)}, p95 ${ms(spread.latency201.p95, 1)}; ` +
        `CPU per booking: server ${ms(cpuMs / Math.max(1, committed), 2)}, load generator ${ms(spread.generatorCpuMs / Math.max(1, committed), 2)}; ` +
        `database ceiling ${ceiling.commits} in ${(ceiling.elapsedMs / 1000).toFixed(1)} s → ${ceiling.perS.toFixed(0)}/s; ours/ceiling ${(perS / ceiling.perS).toFixed(2)}`,
    );
  }
  console.log(`server memory (PostgreSQL, this process's RSS): before the rounds ${idleMb} MB, peak under load ${peakMb} MB`);
  const commitsPerS = median(measured.map((m) => m.perS));
  const ceilingPerS = median(measured.map((m) => m.ceilingPerS));
  const ratio = median(measured.map((m) => m.perS / m.ceilingPerS));
  const serverMsPerBooking = median(measured.map((m) => m.serverMs));

  // Phase 2: every client at one slot: exactly one booking per compatible bay, the rest refused.
  const deadlocks = async () =>
    Number((await database.query<{ n: string }>('select deadlocks as n from pg_stat_database where datname = current_database()'))[0]!.n);
  await database.query('select pg_stat_clear_snapshot()');
  const deadlocksBefore = await deadlocks();
  const contention = await runLoad({
    url,
    orgId: org.orgId,
    clients,
    dates: [contentionDate],
    slots: ['10:00'],
    requests: contentionRequests,
    seed: 2,
    tag: 'C',
  });
  const winners = Number(
    (await database.query<{ n: number }>('select count(*)::int as n from bookings where start_time::date = $1::date', [contentionDate]))[0]!.n,
  );
  await new Promise((r) => setTimeout(r, 1000)); // statistics reach pg_stat_database within a second
  await database.query('select pg_stat_clear_snapshot()');
  const contentionDeadlocks = (await deadlocks()) - deadlocksBefore;
  const refused = contention.byErrorCode.no_available_bay ?? 0;
  console.log(
    `contention phase: ${contention.sent} requests for ${contentionDate} 10:00 in ${(contention.elapsedMs / 1000).toFixed(1)} s ` +
      `(${(contention.sent / (contention.elapsedMs / 1000)).toFixed(0)} req/s) → ${winners} booked for ${org.bays.length} bays, ` +
      `${refused} 'No Available Bay' (${describeStatuses(contention)}); latency median ${ms(contention.latencyAll.median, 1)}, p95 ${ms(contention.latencyAll.p95, 1)}`,
  );

  const overlaps = await countOverlaps(database.db);
  const serverErrors = [warm, ...measured.map((m) => m.report), contention].reduce(
    (n, r) => n + Object.entries(r.byStatus).filter(([status]) => Number(status) >= 500).reduce((m, [, c]) => m + c, 0),
    0,
  );
  console.log(`contention phase: PostgreSQL counted ${contentionDeadlocks} deadlocks (pg_stat_database.deadlocks)`);
  // Issue 25: a storm on one full slot must be answered at least as fast as the spread commits.
  const stormPerS = contention.sent / (contention.elapsedMs / 1000);
  console.log(
    `slot storm: ${stormPerS.toFixed(0)} req/s (${contention.sent} requests for one slot, ${winners} booked, ${refused} refused with 409, overlaps ${await countOverlaps(database.db)}; ` +
      `spread commits ${commitsPerS.toFixed(0)}/s; target ≥ the spread commit rate: ${stormPerS >= commitsPerS ? 'met' : 'NOT met'})`,
  );
  if (serverErrors > 0) {
    // Not a benchmark failure (no booking is wrong), but a defect to fix: say what the server logged.
    const events = await database.query<{ message: string; n: number }>(
      `select split_part(message, E'\n', 1) as message, count(*)::int as n from error_events group by 1 order by 2 desc`,
    );
    const summary = events.map((e) => `${e.n} × ${e.message.slice(0, 60)}…`).join('; ');
    console.log(
      `WARNING: ${serverErrors} requests answered 500 instead of 'No Available Bay' (${summary}); ` +
        `${contentionDeadlocks} deadlocks between concurrent exclusion-constraint checks (SQLSTATE 40P01), which claimBay does not handle`,
    );
  }
  const unexpected = Object.entries(Object.assign({}, warm.byErrorCode, ...measured.map((m) => m.report.byErrorCode), contention.byErrorCode)).filter(
    ([code]) => code !== 'no_available_bay' && code !== 'internal_error',
  );
  const transportErrors = [warm, ...measured.map((m) => m.report), contention].reduce((n, r) => n + r.transportErrors, 0);
  if (overlaps !== 0 || winners !== org.bays.length || transportErrors > 0 || unexpected.length > 0) {
    failed = true;
    console.error(
      `FAILED: overlaps ${overlaps}, contention winners ${winners} (expected ${org.bays.length}), transport errors ${transportErrors}, ` +
        `unexpected error codes ${JSON.stringify(Object.fromEntries(unexpected))}`,
    );
  }
  // A failing PGlite phase says why on the summary line; the PostgreSQL figures still print.
  let embeddedPart: string;
  let embeddedPerS = 0;
  try {
    const embedded = await pgliteInOwnProcess();
    embeddedPerS = embedded.perS;
    embeddedPart =
      `PGlite: ${embedded.perS.toFixed(0)}/s, median of ${rounds} rounds after a ${pgliteWarmupS} s warm-up ` +
      `(cold: ${embedded.coldPerS.toFixed(0)}/s), overlaps ${embedded.overlaps}`;
    if (embedded.overlaps !== 0) failed = true;
  } catch (error) {
    failed = true;
    embeddedPart = `PGlite: phase failed (${(error as Error).message})`;
  }
  console.log(
    `booking commits/s: ${commitsPerS.toFixed(0)} (overlaps: ${overlaps}; ${ms(serverMsPerBooking, 2)} CPU per booking in Node; ` +
      `database ceiling ${ceilingPerS.toFixed(0)}/s, ours/ceiling ${ratio.toFixed(3)}; medians of ${rounds} rounds after a ${warmupS} s warm-up ` +
      `(cold: ${committedPerS(warm).toFixed(0)}/s); ${embeddedPart}; targets ours/ceiling ≥ ${RATIO_TARGET} and PGlite ≥ ${PGLITE_TARGET_PER_S}/s: ` +
      `${ratio >= RATIO_TARGET && embeddedPerS >= PGLITE_TARGET_PER_S ? 'met' : 'NOT met'})`,
  );
} finally {
  await t.close();
}

/** Runs pgliteSpread in a new process of this file, passing its lines through; its result. */
function pgliteInOwnProcess(): Promise<{ perS: number; coldPerS: number; overlaps: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_THROUGHPUT_PHASE: 'pglite' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let result: { perS: number; coldPerS: number; overlaps: number } | undefined;
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        if (line.startsWith('PGLITE_RESULT ')) result = JSON.parse(line.slice('PGLITE_RESULT '.length)) as typeof result;
        else console.log(line);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`the PGlite phase exited with ${code}`))));
  });
}

/**
 * The same spread load on the embedded database (one process: PGlite is single-connection): warmed
 * up first (V8 tiers PGlite's WebAssembly up as it runs hot), then in rounds, each on an
 * organization of its own; the median round counts.
 */
async function pgliteSpread(): Promise<{ perS: number; coldPerS: number; overlaps: number }> {
  const e = await openBench('pglite', { now: NOW, env: { RATE_LIMIT_DISABLED: 'true' }, pgliteThread: process.env.BENCH_PGLITE_THREAD !== '0' });
  try {
    await e.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = e.app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/api/public/bookings`;
    const days = weekdaysAfter(NOW.slice(0, 10), 40);
    const slots = Array.from({ length: 32 }, (_, i) => formatTimeOfDay(6 * 60 + i * 30));
    const warmOrg = await createBenchOrg(e.ctx.database, { name: 'Embedded Warm-up', sites: 2, baysPerSite: 12 });
    const admin = await createUser(e.ctx.database, { email: 'admin@embedded.example' });
    await addMember(e.ctx.database, warmOrg.orgId, admin.id, 'org_admin');
    const warm = await runLoad({ url, orgId: warmOrg.orgId, clients, dates: days, slots, durationS: pgliteWarmupS, seed: 3, tag: 'PW' });
    console.log(`PGlite warm-up: ${pgliteWarmupS} s of the spread load, not counted: ${committedPerS(warm).toFixed(0)} commits/s (${describeStatuses(warm)})`);
    const idleMb = rssMb();
    let peakMb = idleMb;
    const rates: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const org = await createBenchOrg(e.ctx.database, { name: `Embedded Freight ${round}`, sites: 2, baysPerSite: 12 });
      await addMember(e.ctx.database, org.orgId, admin.id, 'org_admin'); // each booking mails the admins, as in the PostgreSQL rounds
      const report = await withMail(e.ctx, `PGlite round ${round}`, () =>
        withPeakRss(() => runLoad({ url, orgId: org.orgId, clients, dates: days, slots, durationS: seconds, seed: 3 + round, tag: `P${round}` })),
      );
      peakMb = Math.max(peakMb, report.peakMb);
      rates.push(committedPerS(report));
      console.log(`PGlite round ${round}: ${report.sent} requests in ${(report.elapsedMs / 1000).toFixed(1)} s → ${report.byStatus['201'] ?? 0} committed (${describeStatuses(report)}); ${rates.at(-1)!.toFixed(0)}/s`);
    }
    // This process is a PGlite server alone; the idle memory of a fresh one is measured by bench/startup.ts.
    console.log(`server memory (PGlite, a process of its own, after its warm-up): ${idleMb} MB RSS, peak under load ${peakMb} MB`);
    return { perS: median(rates), coldPerS: committedPerS(warm), overlaps: await countOverlaps(e.ctx.database.db) };
  } finally {
    await e.close();
  }
}
if (failed) process.exitCode = 1;
