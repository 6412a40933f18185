import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { projectRoot } from '../paths';
import type { Database } from './client';
import { withStartupLock } from './startup-lock';

export const migrationsFolder = path.join(projectRoot, 'server', 'db', 'migrations');

/** Applies pending migrations; idempotent, and one node at a time on a shared server (startup-lock.ts). */
export async function runMigrations(database: Database): Promise<void> {
  // Each driver's migrator loads only for the database in use (start-up time).
  if (database.kind === 'pglite') {
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await migratePglite(database.db as never, { migrationsFolder });
    return;
  }
  const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
  await withStartupLock(database, () => migratePg(database.db as never, { migrationsFolder }));
}

export type MigrationState = { applied: number; total: number; pending: number; latest: string | null };

export async function migrationState(database: Database): Promise<MigrationState> {
  const files = readMigrationFiles({ migrationsFolder });
  let applied = 0;
  try {
    const rows = await database.query<{ count: string | number }>(
      'select count(*)::int as count from drizzle.__drizzle_migrations',
    );
    applied = Number(rows[0]?.count ?? 0);
  } catch {
    applied = 0;
  }
  const total = files.length;
  return {
    applied,
    total,
    pending: Math.max(0, total - applied),
    latest: applied > 0 ? (files[applied - 1]?.hash ?? null) : null,
  };
}
