import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { cacheDir } from '../paths';

// A new PGlite data directory costs an initdb (≈2 s) plus the migrations. `npm install` makes a
// migrated template once (postinstall); the first `npm start` on an empty DATA_DIR restores it
// (≈0.4 s) instead. The template is keyed by the migrations' hashes: a new migration makes a new one,
// and without a matching template the server simply initialises the directory the slow way.

export function templateFile(migrationsFolder: string): string {
  const key = createHash('sha256')
    .update(readMigrationFiles({ migrationsFolder }).map((m) => m.hash).join(','))
    .digest('hex')
    .slice(0, 16);
  return path.join(cacheDir, `pgdata-template-${key}.tar`);
}

/** The template to restore into a new data directory, if one matching the migrations exists. */
export function findTemplate(migrationsFolder: string): Blob | undefined {
  const file = templateFile(migrationsFolder);
  return fs.existsSync(file) ? new Blob([new Uint8Array(fs.readFileSync(file))]) : undefined;
}

/** Builds the template: an in-memory database, migrated, dumped to a tar file. */
export async function buildTemplate(
  migrationsFolder: string,
  migrate: (pglite: PGlite) => Promise<void>,
): Promise<string> {
  const file = templateFile(migrationsFolder);
  if (fs.existsSync(file)) return file;
  const [{ PGlite }, { btree_gist }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/btree_gist'),
  ]);
  const pglite = await PGlite.create({ extensions: { btree_gist } });
  try {
    await migrate(pglite);
    const dump = await pglite.dumpDataDir('none');
    fs.mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file);
  } finally {
    await pglite.close();
  }
  return file;
}
