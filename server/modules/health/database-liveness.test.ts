import { describe, expect, it } from 'vitest';
import { databaseLiveness } from './database-liveness';

// Readiness must not wait in a busy pool's queue (a balancer's check would time out and take the
// node out when it is busiest), yet must say "no" once the database stops answering.

function fakeDatabase() {
  const pending: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  return {
    pending,
    query: () => new Promise<never[]>((resolve, reject) => pending.push({ resolve: () => resolve([]), reject })),
  };
}

describe('database liveness for readiness', () => {
  it('answers at once from a recent answer while the next check waits in the queue, one check at a time', async () => {
    const database = fakeDatabase();
    let now = 0;
    const answers = databaseLiveness(database, () => now);
    const first = answers();
    database.pending[0]!.resolve();
    expect(await first).toBe(true);

    now = 1_000;
    // The pool is saturated: this check does not come back, yet readiness answers at once.
    expect(await answers()).toBe(true);
    expect(await answers()).toBe(true);
    expect(database.pending).toHaveLength(2); // the first, answered, and one check in flight
  });

  it('says no once the database failed after its last answer, and when no answer came for a while', async () => {
    const database = fakeDatabase();
    let now = 0;
    const answers = databaseLiveness(database, () => now);
    const first = answers();
    database.pending[0]!.resolve();
    expect(await first).toBe(true);

    now = 1_000;
    const second = answers(); // fresh: true at once; its check fails afterwards
    expect(await second).toBe(true);
    database.pending[1]!.reject(new Error('connection refused'));
    await Promise.resolve();
    await Promise.resolve();
    now = 1_100;
    const third = answers();
    database.pending[2]!.reject(new Error('connection refused'));
    expect(await third).toBe(false);

    // Answers again: ready again.
    now = 2_000;
    const fourth = answers();
    database.pending[3]!.resolve();
    expect(await fourth).toBe(true);

    // Nothing back for longer than the freshness window: the caller waits for the check, then no.
    now = 10_000;
    const stale = answers();
    database.pending[4]!.reject(new Error('timeout'));
    expect(await stale).toBe(false);
  });
});
