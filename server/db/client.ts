import fs from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { migrationsFolder } from './migrate';
import { PGliteThread, type EmbeddedSession } from './pglite-thread';
import { findTemplate, templateFile } from './pglite-template';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle: anything that can run queries like the database itself. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type DatabaseKind = 'pglite' | 'postgres';

export type Database = {
  db: Db;
  kind: DatabaseKind;
  /** Raw SQL for the few places drizzle cannot express (tests, benchmarks, LISTEN/NOTIFY). */
  query: <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;
  /** The embedded database's session: PGlite in this thread, or on its own (PGliteThread). */
  pglite?: EmbeddedSession;
  pool?: pg.Pool;
  /**
   * A direct connection string to the same database (never through a pooler): LISTEN and the
   * start-up lock hold a session of their own. The pool's own URL when no pooler is in between.
   */
  directUrl?: string;
  /**
   * `transaction`: the pool goes through a transaction-pooling PgBouncer, so nothing may rely on
   * session state between transactions (named prepared statements, session advisory locks, SET).
   */
  poolMode: 'session' | 'transaction';
  /** The application_name every connection of this node carries (pg_stat_activity). */
  applicationName?: string;
  close: () => Promise<void>;
};

export type OpenOptions = {
  databaseUrl?: string;
  /** See Database.directUrl (default: databaseUrl). */
  databaseDirectUrl?: string;
  poolMode?: 'session' | 'transaction';
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** Names every connection (`application_name`), e.g. `baywise-<node id>`. */
  applicationName?: string;
  dataDir?: string;
  memory?: boolean;
  /** Told about errors of idle pooled connections (logged by the server). */
  onIdleError?: (error: Error) => void;
  /** Restore a new PGlite data directory from the migrated template when one exists (default). */
  template?: boolean;
  /**
   * Run PGlite on a thread of its own (pglite-thread.ts), as the server does, so statements do not
   * hold up HTTP and WebSockets. Tests run it in their own thread unless they ask.
   */
  thread?: boolean;
  /** With `thread`: told once if that thread ends by itself (PGliteThreadOptions.onLost). */
  onEmbeddedLost?: (error: Error) => void;
};

const PGLITE_SHARED_BUFFERS = '32MB';

/** Opens PostgreSQL or PGlite; only the driver in use is loaded (each costs start-up time). */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres')]);
    // numeric → JS number for the pg driver (drizzle's mode:'number' handles columns it selects;
    // this covers raw aggregates too). int8 counts stay strings unless cast.
    pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      ...(options.applicationName ? { application_name: options.applicationName } : {}),
    });
    // An idle client dropped by the server (restart, failover) must not crash the process: the
    // pool replaces it on the next checkout.
    pool.on('error', (error) => options.onIdleError?.(error));
    // Fail fast with the real reason when the server is not reachable.
    await pool.query('select 1');
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      pool,
      directUrl: options.databaseDirectUrl ?? options.databaseUrl,
      poolMode: options.poolMode ?? 'session',
      applicationName: options.applicationName,
      query: async (text, params) => (await pool.query(text, params as unknown[])).rows,
      close: () => pool.end(),
    };
  }
  let dataDir: string | undefined;
  let isNew = false;
  if (!options.memory) {
    if (!options.dataDir) throw new Error('openDatabase: dataDir or databaseUrl is required');
    dataDir = path.join(options.dataDir, 'pgdata');
    isNew = !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
    fs.mkdirSync(dataDir, { recursive: true });
  }
  const useTemplate = isNew && options.template !== false;
  // PostgreSQL's 128 MB buffer cache is most of an idle server's memory on the embedded database
  // (and a third of its start-up: the cache is set up at start). 32 MB holds the hot tables of a
  // site's bookings; the data files stay in the operating system's page cache behind it.
  // Measured in bench/RESULTS.md: idle RSS 375 → ~290 MB.
  const settings = { shared_buffers: PGLITE_SHARED_BUFFERS };
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
  if (options.thread) {
    const thread = await PGliteThread.open({
      dataDir,
      templateFile: useTemplate ? templateFile(migrationsFolder) : undefined,
      settings,
      onLost: options.onEmbeddedLost,
    });
    return {
      // drizzle's PGlite session calls query (with identity parsers) and transaction, which PGliteThread offers.
      db: drizzlePglite(thread as never, { schema }) as unknown as Db,
      kind: 'pglite',
      pglite: thread,
      poolMode: 'session',
      query: async (text, params) => (await thread.query(text, params as unknown[])).rows as never,
      close: () => thread.close(),
    };
  }
  const [{ PGlite, types }, { btree_gist }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/btree_gist')]);
  const pglite = await PGlite.create({
    dataDir,
    loadDataDir: useTemplate ? findTemplate(migrationsFolder) : undefined,
    startParams: [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])],
    extensions: { btree_gist },
    parsers: { [types.NUMERIC]: (value: string) => Number(value) },
  });
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite,
    poolMode: 'session',
    query: async (text, params) => (await pglite.query(text, params as unknown[])).rows as never,
    close: () => pglite.close(),
  };
}
