import type { Database } from './client';

// Start-up work that two nodes must not do at the same time on one database: migrations, the demo
// seed, the job runner's schema and queues. Nodes started in the same second each wait their turn.
//
// The lock is transaction-level (pg_advisory_xact_lock) on a connection of its own to the direct
// URL: nothing outlives the transaction, so it cannot leak onto a pooled connection (PgBouncer in
// transaction mode hands a session-level lock's connection to someone else), and a node killed
// while holding it releases it with its connection. The work itself runs on the pool as usual; the
// lock's transaction only waits beside it.

/** An arbitrary constant shared by every Baywise node. */
export const STARTUP_LOCK_KEY = 727_401_993;

export async function withStartupLock<T>(database: Database, work: () => Promise<T>): Promise<T> {
  if (database.kind !== 'postgres') return work(); // PGlite: one process owns the data directory
  const { default: pg } = await import('pg');
  const client = new pg.Client({
    connectionString: database.directUrl,
    ...(database.applicationName ? { application_name: `${database.applicationName}-startup` } : {}),
  });
  await client.connect();
  // A connection error while waiting must not crash the process from an 'error' event.
  client.on('error', () => undefined);
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [STARTUP_LOCK_KEY]);
    const result = await work();
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}
