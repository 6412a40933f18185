// Timing helpers shared by the benchmarks: wall-clock samples, median and percentiles.

export type Summary = { n: number; median: number; p95: number; mean: number; min: number; max: number };

/** The p-th percentile (0..100) of already sorted samples, nearest-rank. */
function percentileOfSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = sorted.reduce((sum, x) => sum + x, 0);
  return {
    n: sorted.length,
    median: percentileOfSorted(sorted, 50),
    p95: percentileOfSorted(sorted, 95),
    mean: total / sorted.length,
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** Milliseconds one call of `fn` takes. */
export async function timeOnce(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

export type Contender = {
  name: string;
  run: () => Promise<unknown>;
  /** Timed calls per round (a fast contender can take several per round of a slow one). */
  perRound?: number;
};

/**
 * Runs the contenders in rounds, interleaved (A, B, A, B …) so that drift of the machine (other
 * load, cache state) hits each alike: `warmupRounds` untimed, then timed rounds until `maxRounds`,
 * or until `budgetMs` has passed once `minRounds` are done. Returns each contender's summary.
 */
export async function measureRounds(
  contenders: Contender[],
  options: { warmupRounds: number; minRounds: number; maxRounds: number; budgetMs: number },
): Promise<Map<string, Summary>> {
  for (let i = 0; i < options.warmupRounds; i++) for (const c of contenders) await c.run();
  const samples = new Map(contenders.map((c) => [c.name, [] as number[]]));
  const started = performance.now();
  for (let round = 0; round < options.maxRounds; round++) {
    if (round >= options.minRounds && performance.now() - started > options.budgetMs) break;
    for (const c of contenders) {
      for (let i = 0; i < (c.perRound ?? 1); i++) samples.get(c.name)!.push(await timeOnce(c.run));
    }
  }
  return new Map([...samples].map(([name, list]) => [name, summarize(list)]));
}

export const ms = (value: number, digits = 2) => `${value.toFixed(digits)} ms`;
export const describeSummary = (s: Summary) => `median ${ms(s.median)}, p95 ${ms(s.p95)} (n=${s.n})`;

/** A positive integer from the environment, or the default. */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got '${raw}'`);
  return value;
}
