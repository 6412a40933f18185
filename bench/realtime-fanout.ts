// Realtime fan-out (issue 25): 2,000 sockets of one organization on one node (the real app on
// PostgreSQL, listening on 127.0.0.1) receive a booking change; each change is timed from just
// before the booking request to the moment the last socket has its event.
// The sockets live in a process of their own (bench/lib/socket-swarm.ts).
// Prints `realtime fan-out: N sockets, p99 M ms (…)`; target p99 ≤ 500 ms.
// Run alone: npx tsx bench/realtime-fanout.ts
// Knobs: BENCH_FANOUT_SOCKETS (default 2000), BENCH_FANOUT_CHANGES (default 6, the first a warm-up).
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import readline from 'node:readline';
import { addMember, createUser, signIn } from '../server/test/fixtures';
import { createBenchOrg, openBench } from './lib/bench-data';
import { weekdaysAfter } from './lib/booking-bench';
import { envInt, ms, summarize } from './lib/stats';

const TARGET_P99_MS = 500;
const NOW = '2026-11-23T00:00:00Z';
const socketCount = envInt('BENCH_FANOUT_SOCKETS', 2000);
const changes = envInt('BENCH_FANOUT_CHANGES', 6);
const now = () => performance.timeOrigin + performance.now();

const t = await openBench('postgres', { now: NOW, env: { RATE_LIMIT_DISABLED: 'true' } });
let failed = false;
try {
  const org = await createBenchOrg(t.ctx.database, { name: 'Fan-out Freight', sites: 1, baysPerSite: 12 });
  const admin = await createUser(t.ctx.database, { email: 'admin@fanout.example' });
  await addMember(t.ctx.database, org.orgId, admin.id, 'org_admin');
  const session = await signIn(t.app, 'admin@fanout.example');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;

  const started = performance.now();
  const swarm = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/lib/socket-swarm.ts', `ws://127.0.0.1:${port}/api/realtime`, session.access_token, org.orgId, String(socketCount)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = readline.createInterface({ input: swarm.stdout! })[Symbol.asyncIterator]();
  const nextLine = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`socket swarm exited (${swarm.exitCode})`);
    return value as string;
  };
  if ((await nextLine()) !== 'ready') throw new Error('socket swarm did not get ready');
  console.log(`${socketCount} sockets subscribed in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const dates = weekdaysAfter(NOW.slice(0, 10), 5);
  const lastArrivals: number[] = [];
  const allArrivals: number[] = [];
  for (let i = 0; i < changes; i++) {
    const sentAt = now();
    const res = await fetch(`http://127.0.0.1:${port}/api/public/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        orgId: org.orgId,
        tsrNumber: `TSR-FANOUT-${i}`,
        tsrSystemType: 'servicenow',
        tenantName: 'Fan-out Haulage',
        contactName: 'Fay Out',
        tenantEmail: 'fay@fanout.example',
        bookingType: 'delivery',
        date: dates[i % dates.length],
        slot: `${String(8 + i).padStart(2, '0')}:00`,
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: `FAN${i}`,
        vehicleHeightM: 3,
        goodsDescription: 'Pallets',
        driverInductionCompleted: true,
        termsAccepted: true,
      }),
    });
    if (res.status !== 201) throw new Error(`booking answered ${res.status}: ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    swarm.stdin!.write(`expect ${id}\n`);
    const result = JSON.parse(await nextLine()) as { times: number[]; missed: number };
    if (result.missed > 0) {
      failed = true;
      console.error(`FAILED: ${result.missed} of ${socketCount} sockets did not receive change ${i}`);
    }
    if (i === 0) continue; // warm-up
    const delays = result.times.map((at) => at - sentAt);
    allArrivals.push(...delays);
    lastArrivals.push(Math.max(...delays));
  }
  swarm.stdin!.write('quit\n');
  const all = summarize(allArrivals);
  const p99 = [...allArrivals].sort((a, b) => a - b)[Math.floor(allArrivals.length * 0.99)]!;
  const last = summarize(lastArrivals);
  console.log(
    `realtime fan-out: ${socketCount} sockets, p99 ${ms(p99, 0)} (median ${ms(all.median, 0)}, last socket median ${ms(last.median, 0)}, ` +
      `max ${ms(last.max, 0)} over ${lastArrivals.length} changes; target p99 ≤ ${TARGET_P99_MS} ms: ${p99 <= TARGET_P99_MS ? 'met' : 'NOT met'}; ` +
      `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs)`,
  );
} catch (error) {
  failed = true;
  console.error(`FAILED: ${(error as Error).message}`);
} finally {
  await t.close();
}
process.exit(failed ? 1 : 0);
