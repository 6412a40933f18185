// SSC schedule-appointment throughput: 50 concurrent carrier clients (autocannon, in its own
// process) call POST /api/ssc/appointments/v1/schedule-appointment with an API key, over the real
// HTTP app on PostgreSQL: key check, per-key rate limit, the standard's schema, then the channel's
// one-statement booking (tenant policy, best-fit bay under the advisory lock and the exclusion
// constraints, the SSC row, the audit entry, mail and webhook rows), falling back to the portal's
// full booking path whenever that statement cannot book (the refusals of the contention phase).
// Requests spread over 20 weekdays × 32 slots of one site with 12 bays, then a contention phase
// where every client asks for the same slot. Overlapping live bookings are then counted in SQL:
// there must be none.
// Prints `ssc schedule-appointment: N req/s (overlaps: 0)` (N: answered requests per second in the
// spread phase; the committed bookings per second beside it).
// Run alone: npx tsx bench/ssc-schedule.ts
// Knobs: BENCH_SSC_SECONDS (spread phase, default 10), BENCH_SSC_CLIENTS (default 50),
//        BENCH_SSC_CONTENTION_REQUESTS (default 300).
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { formatTimeOfDay, weekdayOf } from '../domain/slot-grid';
import { countOverlaps } from '../server/modules/availability/availability.repo';
import { createApiKey } from '../server/modules/api-keys/api-keys.service';
import { addMember, createUser } from '../server/test/fixtures';
import { createBenchOrg, openBench } from './lib/bench-data';
import { envInt, ms, summarize, type Summary } from './lib/stats';

type Plan = { url: string; key: string; siteId: string; clients: number; dates: string[]; slots: string[]; durationS?: number; requests?: number; tag: string };
type Report = { sent: number; elapsedMs: number; byStatus: Record<string, number>; byOutcome: Record<string, number>; latency: Summary; transportErrors: number };

/** The load generator (run in its own process): autocannon, keep-alive connections, a new body per request. */
async function load(plan: Plan): Promise<Report> {
  let issued = 0;
  let seed = 1;
  const next = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const byStatus: Record<string, number> = {};
  const byOutcome: Record<string, number> = {};
  const latency: number[] = [];
  const started = performance.now();
  // From the start to the last answer: autocannon calls back only on its next 1-second tick (booking-load.ts).
  let lastAnswerAt = started;
  const result = await autocannon({
    url: plan.url,
    connections: plan.clients,
    ...(plan.durationS !== undefined ? { duration: plan.durationS } : { amount: plan.requests }),
    timeout: 30,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${plan.key}` },
        setupRequest: (request, context) => {
          const n = ++issued;
          (context as { sentAt?: number }).sentAt = performance.now();
          return {
            ...request,
            body: JSON.stringify({
              identifiers: { primaryReferenceNumber: `LOAD-${plan.tag}-${n}`, stopSequenceNumber: 1, locationId: plan.siteId },
              preferredAppointment: { arrivalWindow: { startDateTime: `${pick(plan.dates)}T${pick(plan.slots)}:00Z`, duration: 'PT30M' }, loadingType: 'DROP' },
              equipment: { equipmentType: 'STRAIGHT_TRUCK', heightMeters: 3.5, registration: `${plan.tag}${n}` },
            }),
          };
        },
        onResponse: (status, body, context) => {
          lastAnswerAt = performance.now();
          latency.push(lastAnswerAt - ((context as { sentAt?: number }).sentAt ?? lastAnswerAt));
          byStatus[status] = (byStatus[status] ?? 0) + 1;
          let outcome = 'unreadable';
          try {
            const answer = JSON.parse(body) as { status?: string; problemDetails?: { title?: string }[] };
            outcome = answer.status === 'SUCCESS' ? 'SUCCESS' : `FAILURE ${answer.problemDetails?.[0]?.title ?? ''}`.trim();
          } catch {
            // not the standard's shape
          }
          byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
        },
      },
    ],
  });
  return {
    sent: Object.values(byStatus).reduce((a, b) => a + b, 0),
    elapsedMs: Math.max(lastAnswerAt - started, (plan.durationS ?? 0) * 1000),
    byStatus,
    byOutcome,
    latency: summarize(latency),
    transportErrors: result.errors + result.timeouts,
  };
}

function runLoad(plan: Plan): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/ssc-schedule.ts', '--load', JSON.stringify(plan)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Report);
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

/** The next `count` weekdays after `from` ('YYYY-MM-DD'). */
function weekdaysAfter(from: string, count: number): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`) + 86_400_000; days.length < count; t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    if (!['sat', 'sun'].includes(weekdayOf(date))) days.push(date);
  }
  return days;
}

const outcomes = (r: Report) => Object.entries(r.byOutcome).map(([o, n]) => `${o}: ${n}`).join(', ') + (r.transportErrors ? `, transport errors: ${r.transportErrors}` : '');

async function main() {
  const NOW = '2026-11-23T00:00:00Z';
  const seconds = envInt('BENCH_SSC_SECONDS', 10);
  const clients = envInt('BENCH_SSC_CLIENTS', 50);
  const contentionRequests = envInt('BENCH_SSC_CONTENTION_REQUESTS', 300);
  const t = await openBench('postgres', { now: NOW });
  let failed = false;
  try {
    const database = t.ctx.database;
    const org = await createBenchOrg(database, { name: 'SSC Freight', sites: 1, baysPerSite: 12 });
    const siteId = org.siteIds[0]!;
    const [tenant] = await database.query<{ id: string }>(`insert into tenants (org_id, name, contact_emails) values ($1, 'Carrier Co', '{tms@carrier.example}') returning id`, [org.orgId]);
    const admin = await createUser(database, { email: 'admin@sscbench.example' });
    await addMember(database, org.orgId, admin.id, 'org_admin');
    const scope = { orgId: org.orgId, userId: admin.id, role: 'org_admin', isPlatformAdmin: false, actor: 'org_admin' as const, auditActor: { id: admin.id, email: 'admin@sscbench.example', role: 'org_admin' } };
    const key = await createApiKey(t.ctx, scope, { name: 'Bench TMS', tenantId: tenant!.id, scopes: ['appointments:schedule'], expiresAt: null, rateLimitPerMinute: 100_000 }, null);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/api/ssc/appointments/v1/schedule-appointment`;
    const days = weekdaysAfter(NOW.slice(0, 10), 21);
    const slots = Array.from({ length: 32 }, (_, i) => formatTimeOfDay(6 * 60 + i * 30));
    console.log(`setup: 1 site × 12 bays, one API key (rate limit 100,000/min), app on 127.0.0.1:${port}, pg pool of 10, ${clients} clients in a separate process`);

    const spread = await runLoad({ url, key: key.secret, siteId, clients, dates: days.slice(0, 20), slots, durationS: seconds, tag: 'S' });
    const perS = spread.sent / (spread.elapsedMs / 1000);
    const booked = spread.byOutcome.SUCCESS ?? 0;
    console.log(
      `spread phase: ${spread.sent} requests in ${(spread.elapsedMs / 1000).toFixed(1)} s over 20 days × 32 slots (${outcomes(spread)}); ` +
        `latency median ${ms(spread.latency.median, 1)}, p95 ${ms(spread.latency.p95, 1)}`,
    );

    const contention = await runLoad({ url, key: key.secret, siteId, clients, dates: [days[20]!], slots: ['10:00'], requests: contentionRequests, tag: 'C' });
    const winners = Number((await database.query<{ n: number }>(`select count(*)::int as n from bookings where start_time = $1::timestamptz and status not in ('cancelled', 'declined')`, [`${days[20]}T10:00:00Z`]))[0]!.n);
    console.log(`contention phase: ${contention.sent} requests for ${days[20]} 10:00 → ${winners} booked for 12 bays (${outcomes(contention)}); latency median ${ms(contention.latency.median, 1)}, p95 ${ms(contention.latency.p95, 1)}`);

    const overlaps = await countOverlaps(database.db);
    const serverErrors = [spread, contention].reduce((n, r) => n + Object.entries(r.byStatus).filter(([s]) => Number(s) >= 500).reduce((m, [, c]) => m + c, 0), 0);
    if (overlaps !== 0 || winners !== 12 || serverErrors > 0 || spread.transportErrors + contention.transportErrors > 0) {
      failed = true;
      console.error(`FAILED: overlaps ${overlaps}, contention winners ${winners} (expected 12), server errors ${serverErrors}`);
    }
    console.log(`ssc schedule-appointment: ${perS.toFixed(0)} req/s (overlaps: ${overlaps}; ${(booked / (spread.elapsedMs / 1000)).toFixed(0)} bookings committed/s)`);
  } finally {
    await t.close();
  }
  if (failed) process.exitCode = 1;
}

if (process.argv[2] === '--load') {
  process.stdout.write(`${JSON.stringify(await load(JSON.parse(process.argv[3]!) as Plan))}\n`);
} else {
  await main();
}
