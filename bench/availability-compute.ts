// The day grid in memory (domain/availability.ts, computeDayAvailability) over a busy week: 100
// bays on two sites, 32 one-hour slots, 20,000 busy intervals of a quarter-hour each at random bays
// and minutes of the week around the day (one in a thousand closing a whole site) — the input of
// the unit test that checks it against the obvious definition (domain/availability.test.ts).
// The obvious definition compares every slot × bay × interval (~64M comparisons); ours indexes the
// intervals by bay and site once. The budget was a unit test's (< 1 s); it is measured here.
// Prints `availability compute: N ms p95 (…; target ≤ 1000 ms: met)`.
// Run alone: npx tsx bench/availability-compute.ts      Knobs: BENCH_COMPUTE_RUNS (default 50).
import os from 'node:os';
import { computeDayAvailability, type AvailabilityBay, type BusyInterval } from '../domain/availability';
import { DEFAULT_OPERATING_HOURS } from '../domain/constants';
import { buildSlotGrid } from '../domain/slot-grid';
import { envInt, ms, summarize } from './lib/stats';

const TARGET_MS = 1000;
const runs = envInt('BENCH_COMPUTE_RUNS', 50);

const DAY = '2026-06-01';
const dayStart = new Date(`${DAY}T00:00:00Z`).getTime();
const slots = buildSlotGrid({ date: DAY, timeZone: 'UTC', operatingHours: DEFAULT_OPERATING_HOURS, durationMin: 60, now: new Date('2026-01-01T00:00:00Z') });
const bays: AvailabilityBay[] = Array.from({ length: 100 }, (_, i) => ({
  id: `b${i}`,
  siteId: i % 2 ? 'north' : 'south',
  name: `B-${i}`,
  heightClearanceM: 3 + (i % 10) / 4,
}));
let seed = 1;
const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
const intervals: BusyInterval[] = Array.from({ length: 20_000 }, (_, i) => {
  const b = Math.floor(random() * 100);
  const start = dayStart + Math.floor((random() * 7 - 3) * 24 * 60) * 60_000;
  return { bayId: i % 1000 === 0 ? null : `b${b}`, siteId: b % 2 ? 'north' : 'south', start: new Date(start), end: new Date(start + 15 * 60_000) };
});

// Warm up (JIT), then time each run on its own.
for (let i = 0; i < 5; i++) computeDayAvailability({ slots, bays, busy: intervals });
const samples: number[] = [];
let freeBaySlots = 0;
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  const result = computeDayAvailability({ slots, bays, busy: intervals });
  samples.push(performance.now() - started);
  freeBaySlots = result.reduce((sum, slot) => sum + slot.freeBays, 0);
}
const summary = summarize(samples);
console.log(
  `${bays.length} bays × ${slots.length} slots × ${intervals.length.toLocaleString('en')} busy intervals (${freeBaySlots} free bay-slots): ` +
    `median ${ms(summary.median)}, p95 ${ms(summary.p95)}, max ${ms(summary.max)} (n=${runs}); load average ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs`,
);
console.log(
  `availability compute: ${summary.p95.toFixed(1)} ms p95 (${bays.length} bays × ${slots.length} slots × ${intervals.length.toLocaleString('en')} intervals, in memory; ` +
    `target ≤ ${TARGET_MS} ms: ${summary.p95 <= TARGET_MS ? 'met' : 'NOT met'})`,
);
