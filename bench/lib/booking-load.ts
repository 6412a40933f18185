// The load generator of bench/booking-throughput.ts, run as its own process so that the clients do
// not share the server's event loop: N concurrent clients POST JSON booking requests to the
// public API, for a duration (spread over many dates and slots) or a fixed count (all for one slot),
// through autocannon.
// Usage: tsx bench/lib/booking-load.ts '<LoadPlan as JSON>'   → prints a LoadReport as JSON.
import autocannon from 'autocannon';
import { summarize, type Summary } from './stats';

export type LoadPlan = {
  url: string;
  orgId: string;
  clients: number;
  /** Where the requests go: each picks a date and a slot at random from these lists. */
  dates: string[];
  slots: string[];
  /** Run for this long … */
  durationS?: number;
  /** … or until this many requests have been sent. */
  requests?: number;
  seed: number;
  tag: string;
};

export type LoadReport = {
  sent: number;
  elapsedMs: number;
  byStatus: Record<string, number>;
  /** Error codes of the non-2xx answers (error.code in our error shape). */
  byErrorCode: Record<string, number>;
  latency201: Summary;
  latencyAll: Summary;
  transportErrors: number;
  /** CPU the load generator itself used (it shares the machine with the server). */
  generatorCpuMs: number;
};

/** mulberry32: a small seeded PRNG, so runs are repeatable. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Request n of a load: what every client sends, and what the database ceiling books (booking-bench.ts). */
export function requestBody(orgId: string, tag: string, n: number, date: string, slot: string) {
  return {
    orgId,
    tsrNumber: `TSR-${tag}-${n}`,
    tsrSystemType: 'servicenow',
    tenantName: `Bench Freight ${n % 50}`,
    contactName: 'Load Tester',
    tenantEmail: `load${n % 50}@bench.example`,
    bookingType: 'delivery',
    date,
    slot,
    expectedDurationMin: 30,
    vehicleType: 'rigid',
    vehicleRegistration: `${tag}${n}`,
    vehicleHeightM: 3.5,
    vehicleLengthM: 12,
    specialAccessNeeds: [],
    goodsDescription: 'Pallets',
    driverInductionCompleted: true,
    termsAccepted: true,
  };
}

/**
 * autocannon drives the clients (keep-alive connections, pipelining 1): far lighter than fetch, so
 * the generator does not eat the CPU the server is measured on. Bodies vary per request.
 */
export async function runLoad(plan: LoadPlan): Promise<LoadReport> {
  const next = random(plan.seed);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  let issued = 0;
  const byStatus: Record<string, number> = {};
  const byErrorCode: Record<string, number> = {};
  const latencyAll: number[] = [];
  const latency201: number[] = [];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  // autocannon calls back only on its next 1-second sample tick after the last response: with a
  // fixed number of requests a storm done in 1.05 s came back after 2 s and read as half its rate.
  // A fixed number of requests takes from the start to its last answer; a load for a duration
  // takes at least that duration (a stall near its end must not shorten it).
  let lastAnswerAt = started;
  const result = await autocannon({
    url: plan.url,
    connections: plan.clients,
    ...(plan.durationS !== undefined ? { duration: plan.durationS } : { amount: plan.requests }),
    timeout: 30,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request, context) => {
          const n = ++issued;
          (context as { sentAt?: number }).sentAt = performance.now();
          return {
            ...request,
            body: JSON.stringify(requestBody(plan.orgId, plan.tag, n, pick(plan.dates), pick(plan.slots))),
          };
        },
        onResponse: (status, body, context) => {
          lastAnswerAt = performance.now();
          const took = lastAnswerAt - ((context as { sentAt?: number }).sentAt ?? lastAnswerAt);
          latencyAll.push(took);
          byStatus[status] = (byStatus[status] ?? 0) + 1;
          if (status === 201) latency201.push(took);
          else {
            let code = 'unreadable';
            try {
              code = (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? 'no code';
            } catch {
              // not our error shape
            }
            byErrorCode[code] = (byErrorCode[code] ?? 0) + 1;
          }
        },
      },
    ],
  });
  const cpu = process.cpuUsage(cpuBefore);
  return {
    sent: Object.values(byStatus).reduce((a, b) => a + b, 0),
    elapsedMs: Math.max(lastAnswerAt - started, (plan.durationS ?? 0) * 1000),
    byStatus,
    byErrorCode,
    latency201: summarize(latency201),
    latencyAll: summarize(latencyAll),
    transportErrors: result.errors + result.timeouts,
    generatorCpuMs: (cpu.user + cpu.system) / 1000,
  };
}

if (process.argv[1]?.endsWith('booking-load.ts') && process.argv[2]) {
  const report = await runLoad(JSON.parse(process.argv[2]) as LoadPlan);
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
