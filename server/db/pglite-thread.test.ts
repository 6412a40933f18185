import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bossExecutor } from '../jobs/job-runner';
import { run } from '../modules/bookings/prepared-statement';
import { addMember, createBay, createOrg, createSite, createUser } from '../test/fixtures';
import { createTestApp, type TestApp } from '../test/harness';
import { openDatabase, type Database } from './client';
import { runMigrations } from './migrate';
import { PGliteThread, type ThreadTransaction } from './pglite-thread';
import { organizations, sites } from './schema';

// The embedded database on its own thread (decision 052), as `npm start` runs it: the same answers,
// errors and transactions as PGlite in the calling thread, without holding up the event loop.

describe('PGlite on its own thread', () => {
  let threaded: Database;
  let inline: Database;

  beforeAll(async () => {
    [threaded, inline] = await Promise.all([openDatabase({ memory: true, thread: true }), openDatabase({ memory: true })]);
    await Promise.all([runMigrations(threaded), runMigrations(inline)]);
  });
  afterAll(async () => {
    await Promise.all([threaded?.close(), inline?.close()]);
  });

  it('answers drizzle and raw queries exactly as PGlite in this thread does', async () => {
    for (const database of [threaded, inline]) {
      const at = { createdAt: new Date('2026-11-23T00:00:00.123Z'), updatedAt: new Date('2026-11-23T00:00:00.456Z') };
      const org = await createOrg(database, { id: '00000000-0000-4000-8000-000000000001', name: 'Same Freight', ...at });
      await createSite(database, org.id, { id: '00000000-0000-4000-8000-000000000002', name: 'Dock One', timeZone: 'Australia/Sydney', ...at });
    }
    const select = (database: Database) =>
      database.db.select().from(sites).innerJoin(organizations, eq(organizations.id, sites.orgId)).where(eq(sites.name, 'Dock One'));
    const [mine, theirs] = await Promise.all([select(threaded), select(inline)]);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.organizations.createdAt).toBeInstanceOf(Date);
    expect(mine).toEqual(theirs);
    const raw = `select 12.50::numeric as amount, '2026-11-24T09:00:00Z'::timestamptz as at, array['a', 'b'] as tags, null::text as nothing`;
    expect(await threaded.query(raw)).toEqual(await inline.query(raw));
    expect((await threaded.query<{ amount: number }>(raw))[0]!.amount).toBe(12.5);
  });

  it('rejects with PostgreSQL’s error: code, constraint and detail, as callers read them', async () => {
    await threaded.query(`create table thread_unique (id int primary key)`);
    await threaded.query(`insert into thread_unique values (1)`);
    const error = await threaded.query(`insert into thread_unique values ($1)`, [1]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      message: 'duplicate key value violates unique constraint "thread_unique_pkey"',
      code: '23505',
      constraint: 'thread_unique_pkey',
      detail: 'Key (id)=(1) already exists.',
    });
    // The session is usable after an error.
    expect(await threaded.query(`select count(*)::int as n from thread_unique`)).toEqual([{ n: 1 }]);
  });

  it('commits a transaction that returns, rolls back one that throws', async () => {
    await threaded.query(`create table thread_tx (n int)`);
    await threaded.db.transaction(async (tx) => {
      await tx.execute(`insert into thread_tx values (1)`);
    });
    await expect(
      threaded.db.transaction(async (tx) => {
        await tx.execute(`insert into thread_tx values (2)`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(
      threaded.db.transaction(async (tx) => {
        await tx.execute(`insert into thread_tx values (3)`);
        tx.rollback();
      }),
    ).rejects.toThrow();
    // A failed statement inside aborts the transaction; the rollback leaves the session usable.
    await expect(
      threaded.db.transaction(async (tx) => {
        await tx.execute(`insert into thread_tx values (4)`);
        await tx.execute(`insert into thread_tx values ('four')`);
      }),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ code: '22P02' }) });
    expect(await threaded.query(`select n from thread_tx order by n`)).toEqual([{ n: 1 }]);
    // A handle kept past its transaction's end runs nothing (it would run outside the transaction).
    let kept!: ThreadTransaction;
    await (threaded.pglite as PGliteThread).transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept.query(`insert into thread_tx values (5)`)).rejects.toThrow('Transaction is closed');
    expect(await threaded.query(`select count(*)::int as n from thread_tx`)).toEqual([{ n: 1 }]);
  });

  it('makes statements from outside an open transaction wait for its end', async () => {
    await threaded.query(`create table thread_order (n int)`);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = threaded.db.transaction(async (tx) => {
      await tx.execute(`insert into thread_order values (1)`);
      inserted();
      await gate;
      await tx.execute(`insert into thread_order values (2)`);
    });
    await insertedOnce;
    // Sent while the transaction is open: it must neither see its rows half-way nor join it.
    const outside = threaded.query<{ n: number }>(`select count(*)::int as n from thread_order`);
    const outsideWrite = threaded.query(`insert into thread_order values (3)`);
    release();
    await transaction;
    expect(await outside).toEqual([{ n: 2 }]);
    await outsideWrite;
    expect(await threaded.query(`select n from thread_order order by n`)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('runs the prepared booking statement path and the job queue’s statements', async () => {
    expect(await run(threaded, 'thread_probe_v1', 'select $1::int + 1 as n', [41])).toEqual([{ n: 42 }]);
    expect(await run(threaded, 'thread_probe_v1', 'select $1::int + 1 as n', [1])).toEqual([{ n: 2 }]);
    for (const database of [threaded, inline]) {
      await bossExecutor(database).executeSql(`create table thread_boss (n int); insert into thread_boss values (7), (8);`, []);
    }
    const [mine, theirs] = await Promise.all(
      [threaded, inline].map((database) => bossExecutor(database).executeSql('update thread_boss set n = n + 1 where n > $1 returning n', [6])),
    );
    expect(mine).toEqual({ rows: [{ n: 8 }, { n: 9 }], rowCount: 2 });
    expect(mine).toEqual(theirs);
  });

  it('keeps the event loop running while a long statement runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      await threaded.query('select pg_sleep(0.3)');
    } finally {
      clearInterval(timer);
    }
    // On the calling thread, PGlite would hold the loop for the whole 300 ms: no tick at all.
    expect(ticks).toBeGreaterThanOrEqual(3);
  });

  it('refuses statements once closed, with a reason', async () => {
    const database = await openDatabase({ memory: true, thread: true });
    expect(await database.query('select 1 as one')).toEqual([{ one: 1 }]);
    await database.close();
    await expect(database.query('select 1')).rejects.toThrow(/embedded database's thread exited/);
  });

  it('says once that the thread was lost when it ends by itself, and never on close', async () => {
    // A worker that opens, then dies on its first statement (as on a crash or out of memory).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-dying-worker-'));
    const script = path.join(dir, 'worker.mjs');
    fs.writeFileSync(
      script,
      `import { parentPort } from 'node:worker_threads';\nparentPort.postMessage({ ready: true });\nparentPort.on('message', () => process.exit(3));\n`,
    );
    try {
      const lost: Error[] = [];
      const dying = await PGliteThread.open({ workerUrl: pathToFileURL(script), onLost: (error) => lost.push(error) });
      await expect(dying.query('select 1')).rejects.toThrow("the embedded database's thread exited (code 3)");
      await expect(dying.query('select 1')).rejects.toThrow('code 3');
      expect(lost.map((error) => error.message)).toEqual(["the embedded database's thread exited (code 3)"]);

      const closedLost: Error[] = [];
      const healthy = await PGliteThread.open({ onLost: (error) => closedLost.push(error) });
      await healthy.close();
      expect(closedLost).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the app on PGlite on its own thread', () => {
  let t: TestApp;
  let org: { id: string };

  beforeAll(async () => {
    t = await createTestApp('pglite', { now: '2026-11-23T00:00:00Z', pgliteThread: true });
    org = await createOrg(t.ctx.database, { name: 'Threaded Freight' });
    const site = await createSite(t.ctx.database, org.id, { name: 'Dock One', timeZone: 'Australia/Sydney' });
    await createBay(t.ctx.database, site, { name: 'B-1', heightClearanceM: 4.5 });
    const admin = await createUser(t.ctx.database, { email: 'admin@threaded.example' });
    await addMember(t.ctx.database, org.id, admin.id, 'org_admin');
  });
  afterAll(() => t?.close());

  it('books a slot once, refuses the second vehicle, and writes no half of a refused one', async () => {
    const body = (registration: string) => ({
      orgId: org.id,
      tsrNumber: `TSR-${registration}`,
      tsrSystemType: 'servicenow',
      tsrUrl: '',
      tenantName: 'Fast Freight Pty Ltd',
      contactName: 'Jo Driver',
      tenantEmail: 'jo@fastfreight.example',
      tenantPhone: '',
      bookingType: 'delivery',
      date: '2026-11-24',
      slot: '09:00',
      expectedDurationMin: 60,
      vehicleType: 'rigid',
      vehicleRegistration: registration,
      vehicleHeightM: 3.9,
      vehicleLengthM: 12,
      specialAccessNeeds: [],
      goodsDescription: 'Pallets',
      driverInductionCompleted: true,
      termsAccepted: true,
      notes: '',
    });
    const submit = (registration: string) => {
      const form = new FormData();
      form.append('data', JSON.stringify(body(registration)));
      return t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: form as never });
    };
    const [first, second] = await Promise.all([submit('ABC123'), submit('XYZ789')]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([201, 409]);
    const refused = first.statusCode === 409 ? first : second;
    expect(refused.json()).toMatchObject({ error: { code: 'no_available_bay' } });
    const counts = await t.ctx.database.query<{ bookings: number; audit: number; mail: number }>(
      `select (select count(*)::int from bookings) as bookings,
              (select count(*)::int from audit_log where action = 'booking.created') as audit,
              (select count(*)::int from mail_outbox) as mail`,
    );
    expect(counts).toEqual([{ bookings: 1, audit: 1, mail: 2 }]);
  });
});
