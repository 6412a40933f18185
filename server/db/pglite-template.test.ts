import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { migrationState, migrationsFolder } from './migrate';
import { buildTemplate, templateFile } from './pglite-template';

describe('embedded database template', () => {
  it('gives a new data directory the migrated schema without running migrations, and persists it', async () => {
    await buildTemplate(migrationsFolder, (pglite) => migrate(drizzle(pglite), { migrationsFolder }));
    expect(fs.existsSync(templateFile(migrationsFolder))).toBe(true);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-template-'));
    const first = await openDatabase({ dataDir: dir });
    expect((await migrationState(first)).pending).toBe(0);
    await first.query(`insert into plans (name) values ('Kept')`);
    await first.close();

    const again = await openDatabase({ dataDir: dir });
    expect(await again.query<{ name: string }>('select name from plans')).toEqual([{ name: 'Kept' }]);
    await again.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
