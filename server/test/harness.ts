import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import pg from 'pg';
import pino from 'pino';
import { buildApp, type App } from '../app';
import { loadConfig, type Config } from '../config';
import type { AppContext } from '../context';
import { openDatabase, type DatabaseKind } from '../db/client';
import { runMigrations } from '../db/migrate';
import { createMailer } from '../mail/mailer';
import { drainMail } from '../mail/outbox';
import { mailRenderers } from '../mail-renderers';
import { createRealtimeHub } from '../realtime/hub';
import { createLocalStorage } from '../storage/storage';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set (spec: both databases). */
export const databaseKinds: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export type FrozenClock = { now: () => Date; set: (at: Date | string) => void; advance: (ms: number) => void };

export function frozenClock(start: Date | string = '2026-11-23T00:00:00Z'): FrozenClock {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (at) => {
      current = new Date(at);
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}

export type TestApp = {
  app: App;
  ctx: AppContext;
  clock: FrozenClock;
  config: Config;
  dataDir: string;
  /** Delivers every due message of the mail outbox now (the server's worker does it in the background). */
  deliverMail: () => Promise<void>;
  /** Every message delivered so far, parsed, oldest first (due mail is delivered first). */
  outbox: () => Promise<ParsedMail[]>;
  close: () => Promise<void>;
};

/**
 * A fresh, migrated database (in-memory PGlite, or a new database on the PostgreSQL server named
 * by TEST_DATABASE_URL, dropped afterwards) and the app built over it, ready for app.inject.
 */
export async function createTestApp(
  kind: DatabaseKind = 'pglite',
  options: { now?: Date | string; env?: Record<string, string>; /** PGlite on its own thread, as the server runs it. */ pgliteThread?: boolean } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    // app.inject comes from 127.0.0.1; tests of the per-IP limits use another address.
    RATE_LIMIT_ALLOW_LIST: '127.0.0.1',
    ...options.env,
  });
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  if (kind === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
    const name = `baywise_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const database = await openDatabase(databaseUrl ? { databaseUrl } : { memory: true, thread: options.pgliteThread });
  await runMigrations(database);
  const clock = frozenClock(options.now);
  const outboxDir = path.join(dataDir, 'outbox');
  const ctx: AppContext = {
    config,
    database,
    clock,
    log: pino({ level: 'silent' }),
    startedAt: clock.now(),
    authSecret: new TextEncoder().encode('test-secret-test-secret-test-secret-0123'),
    storage: createLocalStorage(path.join(dataDir, 'storage')),
    mailer: createMailer({ from: config.mailFrom, outboxDir, log: pino({ level: 'silent' }) }),
  };
  // Live events as in the server, so API tests can subscribe to what services publish.
  const realtime = createRealtimeHub({ database, log: ctx.log });
  ctx.realtime = realtime;
  await realtime.ready;
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    clock,
    config,
    dataDir,
    deliverMail: async () => {
      await drainMail(ctx, mailRenderers);
    },
    outbox: async () => {
      await drainMail(ctx, mailRenderers);
      if (!fs.existsSync(outboxDir)) return [];
      const files = fs.readdirSync(outboxDir).sort();
      return Promise.all(files.map((f) => simpleParser(fs.readFileSync(path.join(outboxDir, f)))));
    },
    close: async () => {
      await app.close();
      await realtime.close();
      await database.close();
      await dropDatabase?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
