import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../domain/auth-schemas';
import type { RealtimeEvent, RealtimeServerMessage } from '../../domain/realtime';
import { hashToken } from '../auth/tokens';
import { manageTokenFor } from '../modules/bookings/manage-token';
import { addMember, bearer, createBay, createOrg, createSite, createUser, signIn } from '../test/fixtures';
import { createTestApp, databaseKinds, type TestApp } from '../test/harness';
import { openTestSocket, type TestSocket } from '../test/ws-client';

// The driver's socket (subprotocol `manage.<manage token>`, issue 26): one booking's own events,
// a bare queue nudge while it waits at the gate, and nothing of any other booking — another
// site's, another organization's, or the one next to it in the queue (no id, no data).

// Frozen at Monday 2026-11-23 10:00 UTC; the sites are in UTC.
const NOW = '2026-11-23T10:00:00Z';

const isEvent = (message: RealtimeServerMessage): message is Extract<RealtimeServerMessage, { type: 'event' }> => message.type === 'event';
const eventFor = (id: string) => (message: RealtimeServerMessage) => isEvent(message) && message.event.id === id;

describe.each(databaseKinds)('driver socket on %s', (kind) => {
  let t: TestApp;
  let url: string;
  let acme: { id: string };
  let harbour: { id: string };
  let north: { id: string; orgId: string };
  let south: { id: string; orgId: string };
  let quay: { id: string; orgId: string };
  let dockmaster: Session;
  const bayBySite = new Map<string, string[]>();
  const sockets: TestSocket[] = [];
  let seq = 0;

  type Booking = { id: string; token: string; orgId: string; siteId: string };
  /** A booking at `site` in `status`, starting at `start`, on bay `bay` of the site, with its manage token. */
  const booking = async (site: { id: string; orgId: string }, status: string, options: { start?: string; bay?: number; checkedInAt?: string } = {}) => {
    seq += 1;
    const id = randomUUID();
    const token = manageTokenFor(t.ctx.authSecret, id);
    const start = new Date(options.start ?? '2026-11-23T10:30:00Z');
    const end = new Date(start.getTime() + 30 * 60_000);
    await t.ctx.database.query(
      `insert into bookings (id, org_id, site_id, bay_id, tsr_number, tenant_name, tenant_email, start_time, end_time, window_start, window_end,
                             vehicle_type, vehicle_registration, vehicle_height_mm, vehicle_height_m, status, source, expected_duration_min, checked_in_at, manage_token_hash)
       values ($1, $2, $3, $4, $5, 'Haulier', 'haulier@example.test', $6, $7, $6, $7, 'rigid', $8, 3500, 3.5, $9, 'portal', 30, $10, $11)`,
      [id, site.orgId, site.id, bayBySite.get(site.id)![options.bay ?? 0], `TSR-DRV-${seq}`, start.toISOString(), end.toISOString(), `DRV${seq}`, status, options.checkedInAt ?? null, hashToken(token)],
    );
    return { id, token, orgId: site.orgId, siteId: site.id } satisfies Booking;
  };
  const follow = async (token: string) => {
    const socket = await openTestSocket(`${url}/api/realtime`, [`manage.${token}`]);
    sockets.push(socket);
    return socket;
  };
  const eventOf = (b: Booking, values: Partial<RealtimeEvent> = {}): RealtimeEvent => ({
    entity: 'booking',
    action: 'updated',
    id: b.id,
    orgId: b.orgId,
    siteId: b.siteId,
    at: new Date(NOW).toISOString(),
    ...values,
  });
  /** Publishes the events, then one of `own` last: once that has arrived, every earlier one has been handled. */
  const publishThenFlush = async (socket: TestSocket, own: Booking, events: RealtimeEvent[]) => {
    const marker = eventOf(own, { action: 'marker', id: own.id });
    for (const e of [...events, marker]) t.ctx.realtime!.publish(e);
    await socket.next((m) => isEvent(m) && m.event.action === 'marker');
  };
  const gate = (siteId: string, path: string) => `/api/sites/${siteId}/gate${path}`;
  const manageView = async (token: string) => (await t.app.inject({ method: 'GET', url: `/api/public/manage/${token}` })).json();

  beforeAll(async () => {
    t = await createTestApp(kind, { now: NOW });
    const db = t.ctx.database;
    acme = await createOrg(db, { name: 'Driver Acme' });
    harbour = await createOrg(db, { name: 'Driver Harbour' });
    north = await createSite(db, acme.id, { name: 'North', timeZone: 'UTC' });
    south = await createSite(db, acme.id, { name: 'South', timeZone: 'UTC' });
    quay = await createSite(db, harbour.id, { name: 'Quay', timeZone: 'UTC' });
    for (const site of [north, south, quay]) {
      const bays = [];
      for (let i = 1; i <= 4; i++) bays.push((await createBay(db, site, { name: `${site === north ? 'N' : site === south ? 'S' : 'Q'}-0${i}`, heightClearanceM: 5 })).id);
      bayBySite.set(site.id, bays);
    }
    const user = await createUser(db, { email: 'dock@drv-acme.example' });
    await addMember(db, acme.id, user.id, 'dockmaster');
    dockmaster = await signIn(t.app, 'dock@drv-acme.example');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t?.close();
  });

  it('refuses an unknown or malformed token with 4401, and a cancelled booking with 4404', async () => {
    const unknown = await follow('x'.repeat(43));
    expect((await unknown.closed).code).toBe(4401);
    const malformed = await follow('short');
    expect((await malformed.closed).code).toBe(4401);
    const cancelled = await booking(north, 'cancelled');
    expect((await (await follow(cancelled.token)).closed).code).toBe(4404);
  });

  it("sends the waiting booking its own events and a bare nudge for its site's others, never their ids", async () => {
    const a = await booking(north, 'checked_in', { checkedInAt: '2026-11-23T09:50:00Z', bay: 0 });
    const neighbour = await booking(north, 'checked_in', { checkedInAt: '2026-11-23T09:55:00Z', bay: 1 });
    const atSouth = await booking(south, 'approved');
    const otherOrg = await booking(quay, 'approved');
    const socket = await follow(a.token);
    expect(socket.protocol).toBe(`manage.${a.token}`);

    const own = eventOf(a, { action: 'checked_in' });
    await publishThenFlush(socket, a, [own, eventOf(neighbour), eventOf(atSouth), eventOf(otherOrg), eventOf(neighbour, { entity: 'bay', id: bayBySite.get(north.id)![1]! })]);
    expect(socket.received.find(eventFor(a.id))).toEqual({ type: 'event', event: own });
    expect(socket.received.filter((m) => m.type === 'queue')).toEqual([{ type: 'queue' }]);
    // Only A's id ever travels; the nudge carries nothing.
    expect(socket.received.every((m) => m.type === 'queue' || (isEvent(m) && m.event.id === a.id))).toBe(true);
    const text = JSON.stringify(socket.received);
    for (const other of [neighbour, atSouth, otherOrg]) expect(text).not.toContain(other.id);
  });

  it('another site and another organization receive nothing of the booking', async () => {
    const a = await booking(north, 'checked_in', { checkedInAt: '2026-11-23T09:40:00Z', bay: 2 });
    const atSouth = await booking(south, 'checked_in', { checkedInAt: '2026-11-23T09:40:00Z', bay: 1 });
    const atQuay = await booking(quay, 'checked_in', { checkedInAt: '2026-11-23T09:40:00Z', bay: 1 });
    const south$ = await follow(atSouth.token);
    const quay$ = await follow(atQuay.token);
    for (const e of [eventOf(a, { action: 'in_progress' }), eventOf(a, { action: 'completed' })]) t.ctx.realtime!.publish(e);
    await publishThenFlush(south$, atSouth, []);
    await publishThenFlush(quay$, atQuay, []);
    for (const socket of [south$, quay$]) {
      expect(socket.received.filter((m) => m.type !== 'event' || m.event.action !== 'marker')).toEqual([]);
      expect(JSON.stringify(socket.received)).not.toContain(a.id);
    }
  });

  it('a booking not waiting gets no nudge; it only pings and cannot subscribe to anything else', async () => {
    const a = await booking(south, 'approved', { bay: 3 });
    const other = await booking(south, 'checked_in', { checkedInAt: '2026-11-23T09:30:00Z', bay: 2 });
    const socket = await follow(a.token);
    await publishThenFlush(socket, a, [eventOf(other)]);
    expect(socket.received.some((m) => m.type === 'queue')).toBe(false);
    socket.send({ type: 'ping' });
    expect(await socket.next((m) => m.type === 'pong')).toEqual({ type: 'pong' });
    socket.send({ type: 'subscribe', orgId: acme.id });
    expect(await socket.next((m) => m.type === 'error')).toMatchObject({ type: 'error', code: 'bad_message' });
    expect(socket.received.some((m) => m.type === 'subscribed')).toBe(false);
  });

  it("live through the gate: the position in the dock queue's order, the nudge, then 'go to bay' with the driver's own event", async () => {
    const site = await createSite(t.ctx.database, acme.id, { name: 'Live Yard', timeZone: 'UTC' });
    bayBySite.set(site.id, [
      (await createBay(t.ctx.database, site, { name: 'L-01', heightClearanceM: 5 })).id,
      (await createBay(t.ctx.database, site, { name: 'L-02', heightClearanceM: 5 })).id,
    ]);
    const first = await booking(site, 'approved', { bay: 0 });
    const second = await booking(site, 'approved', { bay: 1, start: '2026-11-23T10:00:00Z' });
    // Before arriving: the day's live state, no place in the queue.
    expect((await manageView(second.token)).live).toEqual({ position: null, calledToBay: null, calledAt: null, checkedInAt: null });

    const checkIn = async (b: Booking) =>
      t.app.inject({ method: 'POST', url: gate(site.id, `/bookings/${b.id}/check-in`), headers: bearer(dockmaster), payload: {} });
    expect((await checkIn(first)).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await checkIn(second)).statusCode).toBe(200);

    // The dock screen's queue and the drivers' positions agree.
    const queue = (await t.app.inject({ method: 'GET', url: gate(site.id, '/queue'), headers: bearer(dockmaster) })).json();
    expect(queue.items.map((i: { id: string }) => i.id)).toEqual([first.id, second.id]);
    expect((await manageView(first.token)).live.position).toBe(1);
    const waiting = await manageView(second.token);
    expect(waiting.live).toMatchObject({ position: 2, calledToBay: null });
    expect(waiting.arrivalCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);

    const socket = await follow(second.token);
    const start = async (b: Booking) =>
      t.app.inject({ method: 'POST', url: gate(site.id, `/bookings/${b.id}/start`), headers: bearer(dockmaster), payload: {} });
    expect((await start(first)).statusCode).toBe(200);
    expect(await socket.next((m) => m.type === 'queue')).toEqual({ type: 'queue' });
    expect((await manageView(second.token)).live.position).toBe(1);

    expect((await start(second)).statusCode).toBe(200);
    const called = await socket.next(eventFor(second.id));
    expect(called).toMatchObject({ type: 'event', event: { id: second.id, action: 'in_progress' } });
    expect((await manageView(second.token)).live).toMatchObject({ position: null, calledToBay: 'L-02', calledAt: expect.any(String) });
    expect(JSON.stringify(socket.received)).not.toContain(first.id);
  });

  it('no live state on another day', async () => {
    const tomorrow = await booking(north, 'approved', { start: '2026-11-24T10:30:00Z', bay: 3 });
    expect((await manageView(tomorrow.token)).live).toBeNull();
  });
});
