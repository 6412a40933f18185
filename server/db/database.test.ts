import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBay, createOrg, createSite } from '../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock';
import { migrationState, runMigrations } from './migrate';

describe.each(databaseKinds)('database on %s', (kind) => {
  let t: TestApp;
  let bayId: string;
  let ids: { orgId: string; siteId: string };

  beforeAll(async () => {
    t = await createTestApp(kind);
    const org = await createOrg(t.ctx.database);
    const site = await createSite(t.ctx.database, org.id);
    bayId = (await createBay(t.ctx.database, site)).id;
    ids = { orgId: org.id, siteId: site.id };
  });
  afterAll(() => t.close());

  const book = (start: string, end: string, status = 'pending') =>
    t.ctx.database.query(
      `insert into bookings (org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time,
         window_start, window_end, vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status)
       values ($1, $2, $3, 'TSR-1', 'T', 't@example.test', $4, $5, $4, $5, 'van', 'ABC1', 2500, 2.5, $6)`,
      [ids.orgId, ids.siteId, bayId, start, end, status],
    );
  const sqlState = async (promise: Promise<unknown>) => {
    try {
      await promise;
      return 'ok';
    } catch (error) {
      const e = error as { code?: string; cause?: { code?: string } };
      return e.code ?? e.cause?.code;
    }
  };

  it('applies migrations idempotently and reports them all applied', async () => {
    await runMigrations(t.ctx.database);
    const state = await migrationState(t.ctx.database);
    expect(state.pending).toBe(0);
    expect(state.applied).toBe(state.total);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toMatchObject({ status: 'ok', database: { kind, reachable: true, migrations: { pending: 0 } } });
  });

  it('refuses overlapping live bookings on one bay with SQLSTATE 23P01, allows back-to-back ones', async () => {
    expect(await sqlState(book('2026-12-01T10:00Z', '2026-12-01T11:00Z'))).toBe('ok');
    expect(await sqlState(book('2026-12-01T11:00Z', '2026-12-01T12:00Z', 'approved'))).toBe('ok');
    expect(await sqlState(book('2026-12-01T10:30Z', '2026-12-01T10:45Z'))).toBe('23P01');
    expect(await sqlState(book('2026-12-01T09:00Z', '2026-12-01T13:00Z', 'checked_in'))).toBe('23P01');
  });

  it('ignores declined, cancelled and no-show bookings in the overlap rule', async () => {
    for (const status of ['declined', 'cancelled', 'no_show']) {
      expect(await sqlState(book('2026-12-01T10:00Z', '2026-12-01T11:00Z', status))).toBe('ok');
    }
    // …and a declined booking cannot be brought back to life on top of a live one.
    await t.ctx.database.query(`delete from bookings where status = 'pending'`);
    expect(await sqlState(book('2026-12-01T10:00Z', '2026-12-01T11:00Z'))).toBe('ok');
    expect(await sqlState(t.ctx.database.query(`update bookings set status = 'pending' where status = 'declined'`))).toBe('23P01');
  });

  it('refuses a booking that ends before it starts', async () => {
    expect(await sqlState(book('2026-12-02T11:00Z', '2026-12-02T10:00Z'))).toBe('23514');
  });
});

describe('data directory lock', () => {
  it('refuses a second process on the same data directory and takes over a dead one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-lock-'));
    const holder = spawn(
      process.execPath,
      ['--import', 'tsx', '-e', `import('./server/db/data-dir-lock.ts').then((m) => { m.acquireDataDirLock(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000); })`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (chunk) => String(chunk).includes('locked') && resolve());
        holder.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
      });
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      expect(() => acquireDataDirLock(dir)).toThrow(/already in use by another Baywise process \(pid \d+\)/);
    } finally {
      const exited = new Promise((r) => holder.once('exit', r));
      holder.kill('SIGKILL');
      await exited;
    }
    // The holder died without releasing: its lock is stale and is taken over.
    const lock = acquireDataDirLock(dir);
    expect(fs.readFileSync(lock.file, 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(lock.file)).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
