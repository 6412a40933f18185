// Password recovery timing (issue 21): does `POST /api/auth/recover` answer measurably later for
// an address that has an account than for one that has not? Alternating requests (known, unknown,
// known, …) through the app on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set; medians
// and 90th percentiles of each, and the difference of medians with the spread of the
// differences between halves of the run (noise), in milliseconds.
// Run alone: TZ=UTC npx tsx bench/recovery-timing.ts
//   (PostgreSQL too: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test TZ=UTC npx tsx bench/recovery-timing.ts)
// Knobs: BENCH_RECOVERY_RUNS (default 400 requests of each).
import { createTestApp, type TestApp } from '../server/test/harness';
import { createUser } from '../server/test/fixtures';
import type { DatabaseKind } from '../server/db/client';
import { envInt } from './lib/stats';

const runs = envInt('BENCH_RECOVERY_RUNS', 400);

async function timeOne(t: TestApp, email: string): Promise<number> {
  const started = performance.now();
  const response = await t.app.inject({ method: 'POST', url: '/api/auth/recover', payload: { email } });
  const ms = performance.now() - started;
  if (response.statusCode !== 200) throw new Error(`recover answered ${response.statusCode}: ${response.body}`);
  return ms;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1]!;
}
const median = (values: number[]) => percentile(values, 50);

async function run(kind: DatabaseKind): Promise<string> {
  const t = await createTestApp(kind, { env: { RATE_LIMIT_DISABLED: 'true' } });
  try {
    const user = await createUser(t.ctx.database, { email: 'bench-known@acme.example' });
    // Warm-up: compile the route, fill caches.
    for (let i = 0; i < 30; i++) {
      await timeOne(t, user.email);
      await timeOne(t, `bench-unknown-${i}@acme.example`);
    }
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Alternate which goes first, so drift affects both alike.
      if (i % 2 === 0) {
        known.push(await timeOne(t, user.email));
        unknown.push(await timeOne(t, `bench-unknown-${i}@acme.example`));
      } else {
        unknown.push(await timeOne(t, `bench-unknown-${i}@acme.example`));
        known.push(await timeOne(t, user.email));
      }
      // The mail worker's work (absent from the test app) is not what is measured: empty the outbox now and then.
      if (i % 100 === 99) await t.ctx.database.query(`delete from mail_outbox`);
    }
    const half = Math.floor(runs / 2);
    const diff = median(known) - median(unknown);
    const noise = Math.abs(median(known.slice(0, half)) - median(known.slice(half)));
    return (
      `recovery timing (${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${runs} of each): known ${median(known).toFixed(2)} ms (p90 ${percentile(known, 90).toFixed(2)}), ` +
      `unknown ${median(unknown).toFixed(2)} ms (p90 ${percentile(unknown, 90).toFixed(2)}); difference of medians ${diff >= 0 ? '+' : ''}${diff.toFixed(2)} ms ` +
      `(between halves of the known runs alone: ${noise.toFixed(2)} ms)`
    );
  } finally {
    await t.close();
  }
}

const lines = [await run('pglite')];
if (process.env.TEST_DATABASE_URL) lines.push(await run('postgres'));
for (const line of lines) console.log(line);
