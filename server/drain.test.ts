import { describe, expect, it } from 'vitest';
import { drainUntilQuiet } from './drain';

/** A clock that only moves when the drain sleeps, and requests that arrive at given times. */
function simulated(requestTimes: number[]) {
  let t = 0;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
    lastRequestAt: () => {
      const seen = requestTimes.filter((r) => r <= t);
      return seen.length > 0 ? Math.max(...seen) : undefined;
    },
  };
}

describe('the drain of a stopping node', () => {
  it('stops after the minimum when no request came', async () => {
    expect(await drainUntilQuiet({ minMs: 3000, quietMs: 1000, maxMs: 5000, ...simulated([]) })).toEqual({ waitedMs: 3000, quiet: true });
  });

  it('waits until the balancer has stopped sending for the quiet period', async () => {
    // The balancer keeps sending until 4.2 s (its checks were slow): the node listens until 5.2 s.
    const result = await drainUntilQuiet({ minMs: 3000, quietMs: 1000, maxMs: 8000, ...simulated([500, 2900, 3500, 4200]) });
    expect(result).toEqual({ waitedMs: 5200, quiet: true });
  });

  it('never waits past its limit', async () => {
    const steady = Array.from({ length: 200 }, (_, i) => i * 50);
    expect(await drainUntilQuiet({ minMs: 3000, quietMs: 1000, maxMs: 6000, ...simulated(steady) })).toEqual({ waitedMs: 6000, quiet: false });
  });
});
