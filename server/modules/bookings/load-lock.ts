import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client';
import { run } from './prepared-statement';

// One load (a channel's TSR reference, at a site) is booked once. The lock is a transaction-scoped
// advisory lock, not a row lock: no booking row exists yet to lock.

/**
 * The advisory lock of a load at a site: taken by the channel's one statement (runLocked) and by
 * the full path's transaction (lockLoad) before either looks for the load's live booking, so the
 * second of two concurrent requests sees the first's booking.
 */
export function loadLockKey(load: { orgId: string; tenantId: string; siteId: string; reference: string }): string {
  return `load|${load.orgId}|${load.tenantId}|${load.siteId}|${load.reference}`;
}

const LOCK_LOAD_SQL = 'select pg_advisory_xact_lock(hashtextextended($1::text, 0))';

/** Takes the load's lock for the rest of the transaction (see loadLockKey). */
export async function lockLoad(tx: Tx, lockKey: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}::text, 0))`);
}

/**
 * The statement in a transaction that first takes the load's lock. On a server the statement's
 * snapshot is then taken after the lock, so it sees a booking committed by the lock's previous
 * holder. PGlite runs one statement or transaction at a time: nothing can come between.
 */
export async function runLocked<T>(database: Database, lockKey: string, name: string, text: string, values: unknown[]): Promise<T[]> {
  if (!database.pool) return run<T>(database, name, text, values);
  const client = await database.pool.connect();
  try {
    await client.query('begin');
    await client.query(LOCK_LOAD_SQL, [lockKey]);
    const { rows } = await client.query(database.poolMode === 'transaction' ? { text, values } : { name, text, values });
    await client.query('commit');
    return rows as T[];
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
