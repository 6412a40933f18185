import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import websocket from '@fastify/websocket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../domain/auth-schemas';
import type { RealtimeEvent, RealtimeServerMessage } from '../../domain/realtime';
import { buildApp } from '../app';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn } from '../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import { openTestSocket, type TestSocket } from '../test/ws-client';
import realtimeRoutes from './realtime.routes';

// Frozen at Monday 2026-11-23 00:00 UTC; the public booking goes to Tuesday.
const NOW = '2026-11-23T00:00:00Z';

const isEvent = (message: RealtimeServerMessage): message is Extract<RealtimeServerMessage, { type: 'event' }> => message.type === 'event';
const eventFor = (id: string) => (message: RealtimeServerMessage) => isEvent(message) && message.event.id === id;

describe.each(databaseKinds)('realtime socket on %s', (kind) => {
  let t: TestApp;
  let url: string;
  let acme: { id: string };
  let harbour: { id: string };
  let north: { id: string; orgId: string };
  let south: { id: string; orgId: string };
  let harbourSite: { id: string; orgId: string };
  const sessions: Record<'acmeAdmin' | 'harbourAdmin' | 'platform', Session> = {} as never;
  const sockets: TestSocket[] = [];

  const event = (values: Partial<RealtimeEvent> = {}): RealtimeEvent => ({
    entity: 'booking',
    action: 'created',
    id: randomUUID(),
    orgId: acme.id,
    siteId: north.id,
    at: new Date(NOW).toISOString(),
    ...values,
  });
  const connect = async (session: Session | null, how: 'protocol' | 'query' = 'protocol') => {
    const token = session?.access_token;
    const socket =
      how === 'protocol'
        ? await openTestSocket(`${url}/api/realtime`, token ? [`bearer.${token}`] : undefined)
        : await openTestSocket(`${url}/api/realtime?access_token=${encodeURIComponent(token ?? '')}`);
    sockets.push(socket);
    return socket;
  };
  const subscribed = async (session: Session, orgId: string, siteId?: string) => {
    const socket = await connect(session);
    socket.send({ type: 'subscribe', orgId, ...(siteId ? { siteId } : {}) });
    expect(await socket.next()).toEqual({ type: 'subscribed', orgId, siteId: siteId ?? null });
    return socket;
  };
  /** Publishes a marker last: once it has arrived, anything published before it has too. */
  const publishThenFlush = async (socket: TestSocket, events: RealtimeEvent[]) => {
    const marker = event({ siteId: null });
    for (const e of [...events, marker]) t.ctx.realtime!.publish(e);
    await socket.next(eventFor(marker.id));
    return socket.received.filter(isEvent).map((m) => m.event.id);
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    acme = await createOrg(db, { name: 'Realtime Acme' });
    harbour = await createOrg(db, { name: 'Realtime Harbour' });
    north = await createSite(db, acme.id, { name: 'North', timeZone: 'UTC' });
    south = await createSite(db, acme.id, { name: 'South', timeZone: 'UTC' });
    harbourSite = await createSite(db, harbour.id, { name: 'Quay', timeZone: 'UTC' });
    await createBay(db, north, { name: 'N-1', heightClearanceM: 5 });
    for (const [key, orgId, email] of [
      ['acmeAdmin', acme.id, 'admin@rt-acme.example'],
      ['harbourAdmin', harbour.id, 'admin@rt-harbour.example'],
    ] as const) {
      const user = await createUser(db, { email });
      await addMember(db, orgId, user.id, 'org_admin');
      sessions[key] = await signIn(t.app, email);
    }
    await createUser(db, { email: 'support@rt-platform.example', platformRole: 'platform_support' });
    sessions.platform = await signIn(t.app, 'support@rt-platform.example');
    url = `ws://127.0.0.1:${await listen(t)}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t?.close();
  });

  it("delivers its organization's events and never another organization's", async () => {
    const socket = await subscribed(sessions.acmeAdmin, acme.id);
    const mine = event();
    const theirs = event({ orgId: harbour.id, siteId: harbourSite.id });
    const delivered = await publishThenFlush(socket, [theirs, mine]);
    expect(delivered).toContain(mine.id);
    expect(delivered).not.toContain(theirs.id);
    expect(socket.received.find(eventFor(mine.id))).toEqual({ type: 'event', event: mine });
  });

  it('echoes the bearer subprotocol, and accepts the token in the query string too', async () => {
    const byProtocol = await connect(sessions.acmeAdmin);
    expect(byProtocol.protocol).toBe(`bearer.${sessions.acmeAdmin.access_token}`);
    const byQuery = await connect(sessions.acmeAdmin, 'query');
    byQuery.send({ type: 'subscribe', orgId: acme.id });
    expect(await byQuery.next()).toEqual({ type: 'subscribed', orgId: acme.id, siteId: null });
  });

  it("a site subscription gets that site's and the organization-wide events only", async () => {
    const socket = await subscribed(sessions.acmeAdmin, acme.id, north.id);
    const atNorth = event({ siteId: north.id });
    const atSouth = event({ siteId: south.id });
    const orgWide = event({ entity: 'site', siteId: null });
    const delivered = await publishThenFlush(socket, [atSouth, atNorth, orgWide]);
    expect(delivered).toEqual(expect.arrayContaining([atNorth.id, orgWide.id]));
    expect(delivered).not.toContain(atSouth.id);
  });

  it('replaces the subscription when the socket subscribes again', async () => {
    const socket = await subscribed(sessions.acmeAdmin, acme.id, north.id);
    socket.send({ type: 'subscribe', orgId: acme.id, siteId: south.id });
    expect(await socket.next()).toEqual({ type: 'subscribed', orgId: acme.id, siteId: south.id });
    const atNorth = event({ siteId: north.id });
    const atSouth = event({ siteId: south.id });
    const delivered = await publishThenFlush(socket, [atNorth, atSouth]);
    expect(delivered).toContain(atSouth.id);
    expect(delivered).not.toContain(atNorth.id);
  });

  it("answers not_found to another organization's admin, and delivers nothing", async () => {
    const socket = await connect(sessions.harbourAdmin);
    socket.send({ type: 'subscribe', orgId: acme.id });
    expect(await socket.next()).toEqual({ type: 'error', code: 'not_found', message: 'Organization not found' });
    // An organization that does not exist reads the same.
    socket.send({ type: 'subscribe', orgId: randomUUID() });
    expect(await socket.next()).toEqual({ type: 'error', code: 'not_found', message: 'Organization not found' });
    // A site of another organization under one's own is no way in either.
    socket.send({ type: 'subscribe', orgId: harbour.id, siteId: north.id });
    expect(await socket.next()).toEqual({ type: 'error', code: 'not_found', message: 'Site not found' });

    const observer = await subscribed(sessions.acmeAdmin, acme.id);
    const secret = event();
    await publishThenFlush(observer, [secret]);
    expect(socket.received.filter(isEvent)).toEqual([]);
  });

  it('lets a platform admin follow any organization', async () => {
    const socket = await subscribed(sessions.platform, harbour.id);
    const e = event({ orgId: harbour.id, siteId: harbourSite.id });
    t.ctx.realtime!.publish(e);
    expect(await socket.next(eventFor(e.id))).toEqual({ type: 'event', event: e });
  });

  it('closes with 4401 without a token, with a bad one, and once the session is signed out', async () => {
    expect((await (await connect(null)).closed).code).toBe(4401);
    expect((await (await openTestSocket(`${url}/api/realtime`, ['bearer.not-a-token'])).closed).code).toBe(4401);
    const forged = sessions.acmeAdmin.access_token.slice(0, -4) + 'AAAA';
    expect((await (await connect({ ...sessions.acmeAdmin, access_token: forged }, 'query')).closed).code).toBe(4401);

    const session = await signIn(t.app, 'admin@rt-acme.example');
    const socket = await connect(session);
    const signOut = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(session) });
    expect(signOut.statusCode).toBeLessThan(300);
    socket.send({ type: 'subscribe', orgId: acme.id });
    expect((await socket.closed).code).toBe(4401);
  });

  it('closes a subscribed socket with 4401 as soon as its session signs out, without waiting for a message', async () => {
    const session = await signIn(t.app, 'admin@rt-acme.example');
    const socket = await subscribed(session, acme.id);
    const before = event();
    await publishThenFlush(socket, [before]);
    const signOut = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(session) });
    expect(signOut.statusCode).toBe(204);
    expect(await within(socket.closed, 2_000)).toMatchObject({ code: 4401 });
    // Nothing published afterwards reaches it.
    const after = event();
    const observer = await subscribed(sessions.acmeAdmin, acme.id);
    await publishThenFlush(observer, [after]);
    expect(socket.received.filter(isEvent).map((m) => m.event.id)).not.toContain(after.id);
  });

  it('closes a socket with 4401 when its access token expires', async () => {
    const session = await signIn(t.app, 'admin@rt-acme.example');
    try {
      // 300 ms before the token's exp (the app's frozen clock): still valid when the socket opens.
      t.clock.set(new Date(session.expires_at * 1000 - 300));
      const socket = await subscribed(session, acme.id);
      await publishThenFlush(socket, [event()]);
      expect(await within(socket.closed, 3_000)).toMatchObject({ code: 4401, reason: 'Session expired: sign in again' });
      // A token already expired never gets a socket.
      t.clock.set(new Date(session.expires_at * 1000 + 1));
      expect((await within((await connect(session)).closed, 2_000)).code).toBe(4401);
    } finally {
      t.clock.set(NOW);
    }
  });

  it("closes a socket with 4401 when a periodic check finds its session ended another way (a member's sessions revoked)", async () => {
    const app = Fastify();
    await app.register(websocket);
    await app.register(realtimeRoutes, { prefix: '/api', ctx: t.ctx, sessionCheckMs: 100 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const session = await signIn(t.app, 'admin@rt-acme.example');
      const socket = await openTestSocket(`ws://127.0.0.1:${portOf(app)}/api/realtime`, [`bearer.${session.access_token}`]);
      socket.send({ type: 'subscribe', orgId: acme.id });
      expect(await socket.next()).toMatchObject({ type: 'subscribed' });
      // As suspending the organization or deactivating the member does: no sign-out message, only the row.
      await t.ctx.database.query(`update auth_sessions set revoked_at = now(), revoked_reason = 'test' where id = $1`, [sessionIdOf(session)]);
      expect(await within(socket.closed, 2_000)).toMatchObject({ code: 4401 });
    } finally {
      await app.close();
    }
  });

  it('answers ping with pong, and a malformed message with bad_message without closing', async () => {
    const socket = await connect(sessions.acmeAdmin);
    socket.send({ type: 'ping' });
    expect(await socket.next()).toEqual({ type: 'pong' });
    for (const bad of ['not json', '{"type":"subscribe","orgId":"nope"}', '{"type":"dance"}', '[]', 'null']) {
      socket.send(bad);
      expect(await socket.next(), bad).toMatchObject({ type: 'error', code: 'bad_message' });
    }
    socket.send({ type: 'ping' });
    expect(await socket.next()).toEqual({ type: 'pong' });
  });

  it('delivers the event of a real public booking to the organization', async () => {
    const socket = await subscribed(sessions.acmeAdmin, acme.id, north.id);
    const form = new FormData();
    form.append(
      'data',
      JSON.stringify({
        orgId: acme.id,
        tsrNumber: 'TSR-RT-1',
        tenantName: 'Live Freight',
        contactName: 'Lee Live',
        tenantEmail: 'lee@live.example',
        bookingType: 'delivery',
        date: '2026-11-24',
        slot: '09:00',
        expectedDurationMin: 30,
        vehicleType: 'rigid',
        vehicleRegistration: 'LIVE1',
        vehicleHeightM: 3,
        driverInductionCompleted: true,
        termsAccepted: true,
      }),
    );
    const response = await t.app.inject({ method: 'POST', url: '/api/public/bookings', payload: form as never });
    expect(response.statusCode, response.body).toBe(201);
    const { id } = response.json() as { id: string };
    expect(await socket.next(eventFor(id))).toEqual({
      type: 'event',
      event: { entity: 'booking', action: 'created', id, orgId: acme.id, siteId: north.id, at: new Date(NOW).toISOString() },
    });
  });

  it('drops a socket that sends nothing for the idle timeout, and keeps one that pings', async () => {
    const app = Fastify();
    await app.register(websocket);
    await app.register(realtimeRoutes, { prefix: '/api', ctx: t.ctx, idleTimeoutMs: 300 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const base = `ws://127.0.0.1:${portOf(app)}/api/realtime`;
      const protocols = [`bearer.${sessions.acmeAdmin.access_token}`];
      const silent = await openTestSocket(base, protocols);
      const chatty = await openTestSocket(base, protocols);
      const pinger = setInterval(() => chatty.send({ type: 'ping' }), 100);
      try {
        expect((await silent.closed).code).toBe(4408);
        await new Promise((resolve) => setTimeout(resolve, 400));
        chatty.send({ type: 'subscribe', orgId: acme.id });
        expect(await chatty.next((m) => m.type === 'subscribed')).toMatchObject({ type: 'subscribed' });
      } finally {
        clearInterval(pinger);
        chatty.close();
      }
    } finally {
      await app.close();
    }
  });

  it('closes sockets with 1012 when the server shuts down', async () => {
    const app = await buildApp(t.ctx);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const socket = await openTestSocket(`ws://127.0.0.1:${portOf(app)}/api/realtime`, [`bearer.${sessions.acmeAdmin.access_token}`]);
    socket.send({ type: 'ping' });
    await socket.next();
    await app.close();
    expect((await socket.closed).code).toBe(1012);
  });
});

async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return portOf(t.app);
}

function portOf(app: { server: { address: () => unknown } }): number {
  return (app.server.address() as { port: number }).port;
}

/** The promise, or a rejection after `ms` (so a socket that never closes fails the test, not the run). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))),
  ]);
}

/** The session id inside an access token (its `sid` claim). */
function sessionIdOf(session: Session): string {
  return (JSON.parse(Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString('utf8')) as { sid: string }).sid;
}
