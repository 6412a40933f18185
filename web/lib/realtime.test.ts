import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REALTIME_HEARTBEAT_MS, type RealtimeEvent } from '../../domain/realtime';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { catchUpAfterSubscribing, queryKeysForEvent, RealtimeClient, reconnectDelay, type WebSocketLike } from './realtime';

const ORG = '11111111-1111-4111-8111-111111111111';
const SITE = '22222222-2222-4222-8222-222222222222';

const event = (values: Partial<RealtimeEvent> = {}): RealtimeEvent => ({
  entity: 'booking',
  action: 'created',
  id: '33333333-3333-4333-8333-333333333333',
  orgId: ORG,
  siteId: SITE,
  at: '2026-11-23T00:00:00.000Z',
  ...values,
});

/** A socket the test opens, answers and closes by hand. */
class FakeSocket implements WebSocketLike {
  static created: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  onopen: WebSocketLike['onopen'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;
  closedWith: number | undefined;

  constructor(
    readonly url: string,
    readonly protocols?: string | string[],
  ) {
    FakeSocket.created.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
}

const latest = () => FakeSocket.created.at(-1)!;

describe('RealtimeClient', () => {
  let events: RealtimeEvent[];
  let resyncs: number;
  let firstSubscriptions: number;
  let token: string | null;
  let client: RealtimeClient;

  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.created = [];
    events = [];
    resyncs = 0;
    firstSubscriptions = 0;
    token = 'token-1';
    client = new RealtimeClient({
      orgId: ORG,
      siteId: SITE,
      onEvent: (e) => events.push(e),
      onResync: () => (resyncs += 1),
      onFirstSubscribed: () => (firstSubscriptions += 1),
      getToken: () => token,
      WebSocket: FakeSocket,
      url: 'ws://baywise.test/api/realtime',
    });
  });
  afterEach(() => {
    client.stop();
    vi.useRealTimers();
  });

  /** Fails the current socket and returns how long the client waited before opening the next. */
  const failAndMeasure = () => {
    const before = FakeSocket.created.length;
    latest().drop();
    let waited = 0;
    while (FakeSocket.created.length === before) {
      vi.advanceTimersByTime(100);
      waited += 100;
      if (waited > 60_000) throw new Error('never reconnected');
    }
    return waited;
  };

  it('connects with the token as the bearer subprotocol and subscribes on open', () => {
    client.start();
    expect(latest().url).toBe('ws://baywise.test/api/realtime');
    expect(latest().protocols).toEqual(['bearer.token-1']);
    latest().open();
    expect(latest().sent).toEqual([{ type: 'subscribe', orgId: ORG, siteId: SITE }]);
  });

  it('pings every heartbeat while open', () => {
    client.start();
    latest().open();
    vi.advanceTimersByTime(REALTIME_HEARTBEAT_MS * 3);
    expect(latest().sent.filter((m) => (m as { type: string }).type === 'ping')).toHaveLength(3);
  });

  it('reconnects after 1, 2, 5, 10 s and then every 10 s', () => {
    client.start();
    const waits = Array.from({ length: 7 }, () => failAndMeasure());
    expect(waits).toEqual([1_000, 2_000, 5_000, 10_000, 10_000, 10_000, 10_000]);
    expect([0, 1, 2, 3, 4, 9].map(reconnectDelay)).toEqual([1_000, 2_000, 5_000, 10_000, 10_000, 10_000]);
  });

  it('starts the schedule again after a successful connection, subscribes again and asks for a resync', () => {
    client.start();
    latest().open();
    latest().receive({ type: 'subscribed', orgId: ORG, siteId: SITE });
    expect([firstSubscriptions, resyncs]).toEqual([1, 0]);
    expect(failAndMeasure()).toBe(1_000);
    expect(failAndMeasure()).toBe(2_000);
    expect(resyncs).toBe(0);

    token = 'token-2';
    expect(failAndMeasure()).toBe(5_000);
    latest().open();
    expect(latest().protocols).toEqual(['bearer.token-2']);
    expect(latest().sent).toEqual([{ type: 'subscribe', orgId: ORG, siteId: SITE }]);
    latest().receive({ type: 'subscribed', orgId: ORG, siteId: SITE });
    expect([firstSubscriptions, resyncs]).toEqual([1, 1]);
    expect(failAndMeasure()).toBe(1_000);
  });

  it('hands valid events to the callback and ignores anything else', () => {
    client.start();
    latest().open();
    latest().receive({ type: 'event', event: event() });
    latest().receive({ type: 'event', event: { ...event(), orgId: 'not-a-uuid' } });
    latest().onmessage?.({ data: 'not json' });
    latest().receive({ type: 'pong' });
    expect(events).toEqual([event()]);
  });

  it('waits for a token instead of connecting without one', () => {
    token = null;
    client.start();
    expect(FakeSocket.created).toHaveLength(0);
    token = 'token-3';
    vi.advanceTimersByTime(1_000);
    expect(latest().protocols).toEqual(['bearer.token-3']);
  });

  it('stops for good: no reconnect, no ping', () => {
    client.start();
    const socket = latest();
    socket.open();
    client.stop();
    expect(socket.closedWith).toBe(1000);
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.created).toHaveLength(1);
    expect(socket.sent).toHaveLength(1);
  });
});

describe('catchUpAfterSubscribing', () => {
  const OTHER_ORG = '44444444-4444-4444-8444-444444444444';

  it("refetches the organization's queries read before the subscription, and a loading one once it has loaded, without cancelling it", async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    const calls = { gate: 0, bookings: 0, other: 0 };
    let answerFirst!: (value: string) => void;
    // Queries on screen, as a page's useQuery keeps them (an observer each).
    const onScreen = (queryKey: unknown[], queryFn: () => Promise<string>) => {
      const observer = new QueryObserver(queryClient, { queryKey, queryFn });
      const stop = observer.subscribe(() => undefined);
      return { observer, stop };
    };
    const gate = onScreen(['org', ORG, 'dashboard', 'gate', SITE], async () => `gate ${++calls.gate}`);
    const other = onScreen(['org', OTHER_ORG, 'bookings'], async () => `other ${++calls.other}`);
    await vi.waitFor(() => expect(gate.observer.getCurrentResult().data).toBe('gate 1'));
    await vi.waitFor(() => expect(other.observer.getCurrentResult().data).toBe('other 1'));
    const bookings = onScreen(['org', ORG, 'bookings'], () =>
      ++calls.bookings === 1 ? new Promise<string>((resolve) => (answerFirst = resolve)) : Promise.resolve(`bookings ${calls.bookings}`),
    );
    expect(bookings.observer.getCurrentResult().fetchStatus).toBe('fetching');

    catchUpAfterSubscribing(queryClient, ORG);
    await vi.waitFor(() => expect(gate.observer.getCurrentResult().data).toBe('gate 2'));
    // The read in flight lands (not cancelled), then is made again.
    expect(calls.bookings).toBe(1);
    answerFirst('bookings 1');
    await vi.waitFor(() => expect(bookings.observer.getCurrentResult().data).toBe('bookings 2'));
    expect(calls).toEqual({ gate: 2, bookings: 2, other: 1 });
    for (const query of [gate, other, bookings]) query.stop();
  });
});

describe('queryKeysForEvent', () => {
  it('maps each entity to the query-key prefixes screens use', () => {
    // A booking also moves a tenant's figures and a bay's count of upcoming bookings.
    expect(queryKeysForEvent(event())).toEqual([
      ['org', ORG, 'bookings'],
      ['org', ORG, 'dashboard'],
      ['org', ORG, 'schedule'],
      ['org', ORG, 'tenants'],
      ['org', ORG, 'bays'],
    ]);
    expect(queryKeysForEvent(event({ entity: 'bay' }))).toEqual([
      ['org', ORG, 'bays'],
      ['org', ORG, 'schedule'],
      ['org', ORG, 'dashboard'],
    ]);
    expect(queryKeysForEvent(event({ entity: 'blackout' }))).toEqual([
      ['org', ORG, 'blackouts'],
      ['org', ORG, 'schedule'],
      ['org', ORG, 'dashboard'],
    ]);
    expect(queryKeysForEvent(event({ entity: 'site', siteId: null }))).toEqual([
      ['org', ORG, 'sites'],
      ['org', ORG, 'bays'],
      ['org', ORG, 'schedule'],
      ['org', ORG, 'dashboard'],
      ['orgs', ORG, 'sites'],
    ]);
    expect(queryKeysForEvent(event({ entity: 'plate_read' }))).toEqual([['org', ORG, 'plate-reads']]);
  });
});
