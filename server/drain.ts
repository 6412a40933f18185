/**
 * How long a stopping node keeps serving after readiness starts failing (SIGTERM): at least
 * `minMs` (SHUTDOWN_DRAIN_MS — the balancer's checks need that long to take the node out), and then
 * until no request other than a health check has come for `quietMs` — proof the balancer has
 * stopped sending — but never past `maxMs`, so the shutdown still ends within its own limit.
 * A loaded machine answers checks late; a fixed wait would stop listening while requests still come.
 */
export async function drainUntilQuiet(options: {
  minMs: number;
  quietMs: number;
  maxMs: number;
  lastRequestAt: () => number | undefined;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}): Promise<{ waitedMs: number; quiet: boolean }> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const start = now();
  const maxMs = Math.max(options.minMs, options.maxMs);
  await sleep(options.minMs);
  for (;;) {
    const at = now();
    const sinceLast = at - (options.lastRequestAt() ?? Number.NEGATIVE_INFINITY);
    if (sinceLast >= options.quietMs) return { waitedMs: at - start, quiet: true };
    if (at - start >= maxMs) return { waitedMs: at - start, quiet: false };
    await sleep(Math.min(options.quietMs - sinceLast, maxMs - (at - start)));
  }
}
