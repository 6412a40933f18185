import { useEffect } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import {
  REALTIME_HEARTBEAT_MS,
  REALTIME_RECONNECT_DELAYS_MS,
  realtimeEventSchema,
  type RealtimeClientMessage,
  type RealtimeEvent,
  type RealtimeServerMessage,
} from '../../domain/realtime';
import { currentAccessToken } from './api-client';

// The live-update socket (GET /api/realtime): events name what changed, screens refetch it.
//
// Query keys invalidated per event. Screens that show organization data must key their queries
// under these prefixes so a change anywhere refreshes them:
//   ['org', orgId, 'bookings']   booking lists, booking detail (…, 'bookings', bookingId)
//   ['org', orgId, 'dashboard']  counters and charts of the dashboard
//   ['org', orgId, 'schedule']   day and week schedules (…, 'schedule', siteId, date)
//   ['org', orgId, 'bays']       bay lists and bay detail
//   ['org', orgId, 'blackouts']  blackout lists
//   ['org', orgId, 'sites']      site lists and settings
//   ['org', orgId, 'tenants']    tenant lists and tenant pages
//   ['org', orgId, 'team']       members and invitations
//   ['org', orgId, 'settings']   the organization's profile and settings (and camera tokens)
//   ['org', orgId, 'plate-reads'] plate reads of a site (…, 'plate-reads', siteId, …)
// After a reconnect every ['org', orgId] query is invalidated: events sent while away are lost.
// After the first subscription every ['org', orgId] query read before it is refetched once (a
// query still loading, once it has loaded): an event sent between a screen's first read and the
// server's subscription would otherwise be lost.

type Entity = RealtimeEvent['entity'];

const KEYS_BY_ENTITY: Record<Entity, readonly string[]> = {
  booking: ['bookings', 'dashboard', 'schedule', 'tenants', 'bays'],
  bay: ['bays', 'schedule', 'dashboard'],
  blackout: ['blackouts', 'schedule', 'dashboard'],
  site: ['sites', 'bays', 'schedule', 'dashboard'],
  tenant: ['tenants', 'bookings'],
  member: ['team'],
  organization: ['settings', 'sites'],
  plate_read: ['plate-reads'],
  // A kiosk's walk-in request: the dock screens' queries live under ['org', orgId, 'dashboard', 'gate', siteId].
  walk_in_request: ['dashboard'],
};

/** The query-key prefixes an event makes stale (see the list above). */
export function queryKeysForEvent(event: RealtimeEvent): QueryKey[] {
  const keys: QueryKey[] = KEYS_BY_ENTITY[event.entity].map((area) => ['org', event.orgId, area]);
  // The site selector predates this list and keys its query ['orgs', orgId, 'sites'] (get-org-sites.ts).
  if (event.entity === 'site') keys.push(['orgs', event.orgId, 'sites']);
  return keys;
}

/** The part of the browser's WebSocket used here, so tests can pass a fake. */
export type WebSocketLike = {
  readonly readyState: number;
  send: (data: string) => void;
  close: (code?: number, reason?: string) => void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
};
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocketLike;

export type RealtimeClientOptions = {
  orgId: string;
  siteId?: string | null;
  onEvent: (event: RealtimeEvent) => void;
  /** Called once subscribed again after a lost connection: events sent meanwhile were missed. */
  onResync?: () => void;
  /** Called on the first subscription: events sent before it (while the screen first read) were missed. */
  onFirstSubscribed?: () => void;
  getToken?: () => string | null;
  WebSocket?: WebSocketConstructor;
  url?: string;
};

const OPEN = 1;

/** The wait before reconnect attempt `attempt` (0-based): 1, 2, 5, 10 s, then 10 s for ever. */
export function reconnectDelay(attempt: number): number {
  return REALTIME_RECONNECT_DELAYS_MS[Math.min(attempt, REALTIME_RECONNECT_DELAYS_MS.length - 1)];
}

function defaultUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/api/realtime`;
}

/**
 * One socket for one organization (and optionally one site), kept open until stop(): pings every
 * heartbeat, reconnects on the spec's schedule, and subscribes again after each reconnect. The
 * schedule restarts once a connection is subscribed, so a server that accepts and then closes
 * (a 4401 while the session refreshes) backs off instead of retrying every second.
 */
export class RealtimeClient {
  private socket: WebSocketLike | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private hasBeenSubscribed = false;
  private isStopped = true;

  constructor(private readonly options: RealtimeClientOptions) {}

  start(): void {
    if (!this.isStopped) return;
    this.isStopped = false;
    this.connect();
  }

  stop(): void {
    this.isStopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.stopHeartbeat();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.close(1000, 'Leaving');
    }
  }

  private connect(): void {
    const token = (this.options.getToken ?? currentAccessToken)();
    // Signed out (or not yet signed in): try again later, the token may be there by then.
    if (!token) return this.scheduleReconnect();
    const Socket = this.options.WebSocket ?? (globalThis.WebSocket as unknown as WebSocketConstructor);
    const socket = new Socket(this.options.url ?? defaultUrl(), [`bearer.${token}`]);
    this.socket = socket;
    socket.onopen = () => {
      this.send({ type: 'subscribe', orgId: this.options.orgId, siteId: this.options.siteId ?? null });
      this.heartbeat = setInterval(() => this.send({ type: 'ping' }), REALTIME_HEARTBEAT_MS);
    };
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = () => {
      this.stopHeartbeat();
      this.socket = null;
      if (!this.isStopped) this.scheduleReconnect();
    };
    // Always followed by close, which decides what happens next.
    socket.onerror = () => undefined;
  }

  private receive(data: unknown): void {
    let message: RealtimeServerMessage;
    try {
      message = JSON.parse(String(data)) as RealtimeServerMessage;
    } catch {
      return;
    }
    if (message.type === 'subscribed') {
      this.attempt = 0;
      if (this.hasBeenSubscribed) this.options.onResync?.();
      else this.options.onFirstSubscribed?.();
      this.hasBeenSubscribed = true;
    } else if (message.type === 'event') {
      const parsed = realtimeEventSchema.safeParse(message.event);
      if (parsed.success) this.options.onEvent(parsed.data);
    } else if (message.type === 'error') {
      console.warn(`Live updates: ${message.message} (${message.code})`);
    }
  }

  private scheduleReconnect(): void {
    if (this.isStopped || this.retry) return;
    const delay = reconnectDelay(this.attempt);
    this.attempt += 1;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect();
    }, delay);
  }

  private send(message: RealtimeClientMessage): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(message));
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}

/**
 * Once the first subscription holds: every query under ['org', orgId] read before it is refetched
 * (marked stale, refetched if on screen), and one still loading is refetched when it has loaded,
 * since its read may have come before the subscription. A fetch in flight is never cancelled, so
 * the screen shows its first data as soon as before.
 */
export function catchUpAfterSubscribing(queryClient: QueryClient, orgId: string): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ['org', orgId] })) {
    const refetch = () => void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true }, { cancelRefetch: false });
    if (query.state.fetchStatus === 'fetching') void query.promise?.then(refetch, () => undefined);
    else if (query.state.dataUpdatedAt > 0) refetch();
  }
}

/**
 * Keeps the screen's organization (and site) queries fresh: each event invalidates the keys of
 * queryKeysForEvent, a reconnect invalidates everything under ['org', orgId], and the first
 * subscription catches up (catchUpAfterSubscribing). Pass a null orgId to stay disconnected (no
 * organization chosen yet).
 */
export function useRealtimeInvalidation(orgId: string | null | undefined, siteId?: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!orgId) return;
    const client = new RealtimeClient({
      orgId,
      siteId,
      onEvent: (event) => {
        for (const queryKey of queryKeysForEvent(event)) void queryClient.invalidateQueries({ queryKey });
      },
      onResync: () => void queryClient.invalidateQueries({ queryKey: ['org', orgId] }),
      onFirstSubscribed: () => catchUpAfterSubscribing(queryClient, orgId),
    });
    client.start();
    return () => client.stop();
  }, [orgId, siteId, queryClient]);
}
