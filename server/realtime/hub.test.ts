import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeEvent } from '../../domain/realtime';
import { openDatabase, type Database } from '../db/client';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import { createRealtimeHub, LISTENER_APPLICATION_NAME, matchesFilter, REALTIME_CHANNEL, SESSION_ENDED_CHANNEL, type RealtimeHub } from './hub';

const ORG = randomUUID();
const OTHER_ORG = randomUUID();
const SITE = randomUUID();

const event = (values: Partial<RealtimeEvent> = {}): RealtimeEvent => ({
  entity: 'booking',
  action: 'created',
  id: randomUUID(),
  orgId: ORG,
  siteId: SITE,
  at: '2026-11-23T00:00:00.000Z',
  ...values,
});

/** Resolves with the next event the subscription hears that satisfies `match`. */
function nextEvent(hub: RealtimeHub, match: (e: RealtimeEvent) => boolean, timeoutMs = 2_000): Promise<RealtimeEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no matching event within ${timeoutMs} ms`));
    }, timeoutMs);
    const stop = hub.subscribe({ orgId: ORG, siteId: null }, (e) => {
      if (!match(e)) return;
      clearTimeout(timer);
      stop();
      resolve(e);
    });
  });
}

describe('matchesFilter', () => {
  it('matches the organization, and the site unless either side is organization-wide', () => {
    const other = randomUUID();
    expect(matchesFilter({ orgId: ORG, siteId: null }, event())).toBe(true);
    expect(matchesFilter({ orgId: ORG, siteId: SITE }, event())).toBe(true);
    expect(matchesFilter({ orgId: ORG, siteId: SITE }, event({ siteId: null }))).toBe(true);
    expect(matchesFilter({ orgId: ORG, siteId: other }, event())).toBe(false);
    expect(matchesFilter({ orgId: OTHER_ORG, siteId: null }, event())).toBe(false);
  });
});

describe.each(databaseKinds)('realtime hub on %s', (kind) => {
  let t: TestApp;
  let hub: RealtimeHub;

  beforeAll(async () => {
    t = await createTestApp(kind);
    hub = t.ctx.realtime as RealtimeHub;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('delivers to matching subscribers only, and stops after unsubscribe', async () => {
    const heard: string[] = [];
    const stop = hub.subscribe({ orgId: ORG, siteId: SITE }, (e) => heard.push(e.id));
    hub.subscribe({ orgId: OTHER_ORG, siteId: null }, (e) => heard.push(`other:${e.id}`));
    const first = event();
    const elsewhere = event({ siteId: randomUUID() });
    const marker = nextEvent(hub, (e) => e.action === 'marker-1');
    hub.publish(elsewhere);
    hub.publish(first);
    hub.publish(event({ action: 'marker-1', siteId: null }));
    await marker;
    expect(heard).toContain(first.id);
    expect(heard).not.toContain(elsewhere.id);
    expect(heard.some((h) => h.startsWith('other:'))).toBe(false);

    stop();
    const afterStop = event();
    const marker2 = nextEvent(hub, (e) => e.action === 'marker-2');
    hub.publish(afterStop);
    hub.publish(event({ action: 'marker-2' }));
    await marker2;
    expect(heard).not.toContain(afterStop.id);
  });

  it('tells the watchers of an ended session, and no one else', async () => {
    const signedOut = randomUUID();
    const stillIn = randomUUID();
    const heard: string[] = [];
    const ended = new Promise<void>((resolve) => hub.watchSession(signedOut, () => resolve()));
    hub.watchSession(signedOut, () => heard.push('second socket'));
    const stopOther = hub.watchSession(stillIn, () => heard.push('other session'));
    const stopGone = hub.watchSession(randomUUID(), () => heard.push('stopped watching'));
    stopGone();
    hub.endSession(signedOut);
    await ended;
    expect(heard).toEqual(['second socket']);
    // A malformed id is ignored, never thrown into the caller.
    expect(() => hub.endSession('not-a-session')).not.toThrow();
    stopOther();
  });

  it('never throws into the publisher: invalid events are dropped, a failing listener does not stop the others', async () => {
    expect(() => hub.publish({ ...event(), id: 'not-a-uuid' })).not.toThrow();
    expect(() => hub.publish({ ...event(), entity: 'invoice' } as unknown as RealtimeEvent)).not.toThrow();
    const stop = hub.subscribe({ orgId: ORG, siteId: null }, () => {
      throw new Error('listener bug');
    });
    const good = event();
    const heard = nextEvent(hub, (e) => e.id === good.id);
    hub.publish(good);
    expect((await heard).id).toBe(good.id);
    stop();
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('realtime hub across PostgreSQL connections', () => {
  let t: TestApp;
  let second: Database;
  let secondHub: RealtimeHub;
  const log = pino({ level: 'silent' });

  beforeAll(async () => {
    t = await createTestApp('postgres');
    // Another "process": its own pool and LISTEN connection on the same database.
    second = await openDatabase({ databaseUrl: (t.ctx.database.pool!.options.connectionString)! });
    secondHub = createRealtimeHub({ database: second, log });
    await secondHub.ready;
  });
  afterAll(async () => {
    await secondHub?.close();
    await second?.close();
    await t?.close();
  });

  it("delivers one hub's publish to the other hub, once", async () => {
    const e = event();
    const heard: string[] = [];
    const stop = secondHub.subscribe({ orgId: ORG, siteId: null }, (x) => heard.push(x.id));
    const arrived = nextEvent(secondHub, (x) => x.id === e.id);
    t.ctx.realtime!.publish(e);
    expect(await arrived).toEqual(e);
    const marker = event();
    const flushed = nextEvent(secondHub, (x) => x.id === marker.id);
    t.ctx.realtime!.publish(marker);
    await flushed;
    expect(heard.filter((id) => id === e.id)).toHaveLength(1);
    stop();
  });

  it("tells one hub's session watchers when the session is ended through the other (sign-out on another node)", async () => {
    const sessionId = randomUUID();
    const endedOnSecond = new Promise<string>((resolve) => secondHub.watchSession(sessionId, () => resolve('second')));
    const endedOnFirst = new Promise<string>((resolve) => t.ctx.realtime!.watchSession!(sessionId, () => resolve('first')));
    t.ctx.realtime!.endSession!(sessionId);
    expect(await Promise.all([endedOnSecond, endedOnFirst])).toEqual(['second', 'first']);
    // Garbage on the session channel is ignored.
    await second.query('select pg_notify($1, $2)', [SESSION_ENDED_CHANNEL, 'not a session id']);
  });

  it('ignores notifications that are not valid events', async () => {
    const heard: string[] = [];
    const stop = secondHub.subscribe({ orgId: ORG, siteId: null }, (x) => heard.push(x.action));
    await second.query('select pg_notify($1, $2)', [REALTIME_CHANNEL, 'not json']);
    await second.query('select pg_notify($1, $2)', [REALTIME_CHANNEL, JSON.stringify({ ...event(), orgId: 'x' })]);
    const good = event({ action: 'after-garbage' });
    const arrived = nextEvent(secondHub, (x) => x.id === good.id);
    t.ctx.realtime!.publish(good);
    await arrived;
    expect(heard).toEqual(['after-garbage']);
    stop();
  });

  it('listens again after its connection is killed', async () => {
    expect(await listenerCount(t.ctx.database)).toBe(2);
    await t.ctx.database.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()`, [
      LISTENER_APPLICATION_NAME,
    ]);
    // The first retry is after 1 s: publish until an event gets through on both hubs.
    const deadline = Date.now() + 8_000;
    let heardOnSecond = false;
    const stop = secondHub.subscribe({ orgId: ORG, siteId: null }, () => (heardOnSecond = true));
    while (!heardOnSecond && Date.now() < deadline) {
      t.ctx.realtime!.publish(event());
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    stop();
    expect(heardOnSecond).toBe(true);
    // And both hubs are back (each retries on its own timer).
    const listeners = () => listenerCount(t.ctx.database);
    while ((await listeners()) < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await listeners()).toBe(2);
  });

  it("reports through its self-test whether its LISTEN connection hears what the pool publishes", async () => {
    expect(await t.ctx.realtime!.probe!()).toMatchObject({ isReceiving: true });
    // A LISTEN that hears nothing of this database (what a LISTEN through a transaction pooler
    // does, silently): its direct URL names another database of the same server.
    const url = new URL(t.ctx.database.pool!.options.connectionString!);
    const elsewhere = new URL(process.env.TEST_DATABASE_URL!);
    const deaf = await openDatabase({ databaseUrl: url.toString(), databaseDirectUrl: elsewhere.toString() });
    const hub = createRealtimeHub({ database: deaf, log });
    try {
      await hub.ready;
      expect(await hub.probe(500)).toEqual({ isReceiving: false, roundTripMs: null });
    } finally {
      await hub.close();
      await deaf.close();
    }
  });

  it('does not throw into the publisher when the database is gone', async () => {
    const database = await openDatabase({ databaseUrl: (t.ctx.database.pool!.options.connectionString)! });
    const hub = createRealtimeHub({ database, log });
    await hub.ready;
    await hub.close();
    await database.close();
    expect(() => hub.publish(event())).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
});

async function listenerCount(database: Database): Promise<number> {
  const [row] = await database.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity where application_name = $1 and datname = current_database()`,
    [LISTENER_APPLICATION_NAME],
  );
  return row.n;
}
