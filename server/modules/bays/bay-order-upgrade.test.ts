import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { naturalBayKey } from '../../../domain/bay-order';
import { openDatabase, type Database } from '../../db/client';
import { migrationsFolder } from '../../db/migrate';
import { databaseKinds } from '../../test/harness';

// Migration 0018 on a database that already has bays: a stored generated column keeps the values
// its old function computed, so the migration must recompute every existing key (it drops and
// re-adds sort_key). Migrates up to 0017, adds bays, then applies 0018.

const NAMES = ['Ä-1', 'B_1', 'b-10', 'B-2', '10', '2', 'A 1', `Dock ${'1'.repeat(25)}`];

/** A copy of the migrations folder whose journal stops before 0018. */
function migrationsBefore0018(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-migrations-'));
  fs.cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  journal.entries = journal.entries.filter((entry) => entry.tag < '0018');
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

async function migrate(database: Database, folder: string) {
  if (database.kind === 'pglite') {
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await migratePglite(database.db as never, { migrationsFolder: folder });
  } else {
    const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
    await migratePg(database.db as never, { migrationsFolder: folder });
  }
}

describe.each(databaseKinds)('migration 0018 on a database with bays (%s)', (kind) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  async function open(): Promise<Database> {
    if (kind === 'pglite') return openDatabase({ memory: true });
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `baywise_upgrade_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    cleanup.push(async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    });
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return openDatabase({ databaseUrl: url.toString() });
  }

  it('recomputes the key of every existing bay and collates it "C"', async () => {
    const database = await open();
    cleanup.push(() => database.close());
    const before = migrationsBefore0018();
    cleanup.push(async () => fs.rmSync(before, { recursive: true, force: true }));
    await migrate(database, before);
    const [org] = await database.query<{ id: string }>(`insert into organizations (name, slug) values ('Upgrade', 'upgrade') returning id`);
    const [site] = await database.query<{ id: string }>(`insert into sites (org_id, name) values ($1, 'Main') returning id`, [org!.id]);
    for (const name of NAMES) {
      await database.query(`insert into bays (org_id, site_id, name, height_clearance_m) values ($1, $2, $3, 4.5)`, [org!.id, site!.id, name]);
    }
    const old = await database.query<{ name: string; sort_key: string }>(`select name, sort_key from bays`);
    // The old key differs (so this test sees the recomputation).
    expect(old.some((row) => row.sort_key !== naturalBayKey(row.name))).toBe(true);

    await migrate(database, migrationsFolder);
    const rows = await database.query<{ name: string; sort_key: string }>(`select name, sort_key from bays order by sort_key, id`);
    expect(rows.map((row) => row.sort_key)).toEqual(rows.map((row) => naturalBayKey(row.name)));
    const [column] = await database.query<{ collation_name: string | null }>(
      `select collation_name from information_schema.columns where table_name = 'bays' and column_name = 'sort_key'`,
    );
    expect(column?.collation_name).toBe('C');
    const [index] = await database.query<{ indexdef: string }>(`select indexdef from pg_indexes where indexname = 'bays_best_fit_idx'`);
    expect(index?.indexdef).toContain('sort_key');
  });
});
