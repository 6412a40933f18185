import type { Logger } from 'pino';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { REALTIME_RECONNECT_DELAYS_MS, realtimeEventSchema, type RealtimeEvent } from '../../domain/realtime';
import type { Database } from '../db/client';

// One hub per process. On PostgreSQL every process LISTENs on one channel and every publish is a
// NOTIFY, so a change committed on any node reaches the sockets of all nodes (its own included:
// the local subscribers are fed only from the channel, never twice). PGlite is one process, so
// the hub delivers in-process.

/** Fixed and lower-case: an unquoted identifier in LISTEN is folded to lower case. */
export const REALTIME_CHANNEL = 'baywise_events';
/**
 * Ended sessions (sign-out): the payload is the session id. Its own channel on the same LISTEN
 * connection, so the event contract stays as it is and a node that does not know it ignores it.
 */
export const SESSION_ENDED_CHANNEL = 'baywise_sessions_ended';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const LISTENER_APPLICATION_NAME = 'baywise-realtime';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; an event of ids is ~250. */
const MAX_PAYLOAD_BYTES = 7_900;

/** A socket's subscription: one organization, and optionally one of its sites. */
export type RealtimeFilter = { orgId: string; siteId: string | null };
export type RealtimeListener = (event: RealtimeEvent) => void;

export type RealtimeHub = {
  /** After commit. Never throws: live updates are a courtesy, the change itself is done. */
  publish: (event: RealtimeEvent) => void;
  /** Returns the unsubscribe function. */
  subscribe: (filter: RealtimeFilter, listener: RealtimeListener) => () => void;
  /**
   * After a session was ended (signed out): every process closes the sockets opened with it.
   * Never throws, like publish.
   */
  endSession: (sessionId: string) => void;
  /** Calls `onEnded` once the session is ended on any process; returns the function that stops watching. */
  watchSession: (sessionId: string, onEnded: () => void) => () => void;
  /** Resolves once events published from now on will be delivered (LISTEN is active). */
  ready: Promise<void>;
  /**
   * The self-test: a notification sent the way events are published, and heard back on this
   * node's LISTEN connection within `timeoutMs`. A LISTEN through a transaction pooler (silently
   * deaf) or a dropped connection answers false.
   */
  probe: (timeoutMs?: number) => Promise<{ isReceiving: boolean; roundTripMs: number | null }>;
  close: () => Promise<void>;
};

/** The self-test's channel (health checks), apart from the events' own. */
export const REALTIME_PROBE_CHANNEL = 'baywise_probe';

/** Org-wide events (no site) reach every subscriber of the organization. */
export function matchesFilter(filter: RealtimeFilter, event: RealtimeEvent): boolean {
  if (event.orgId !== filter.orgId) return false;
  return filter.siteId === null || event.siteId === null || event.siteId === filter.siteId;
}

type Subscriber = { filter: RealtimeFilter; listener: RealtimeListener };

/** The process's subscribers, indexed by organization so a publish touches only its tenant's sockets. */
function createLocalFanOut(log: Logger) {
  const byOrg = new Map<string, Set<Subscriber>>();
  return {
    subscribe(filter: RealtimeFilter, listener: RealtimeListener): () => void {
      const subscriber = { filter, listener };
      const set = byOrg.get(filter.orgId) ?? new Set<Subscriber>();
      byOrg.set(filter.orgId, set.add(subscriber));
      return () => {
        set.delete(subscriber);
        if (set.size === 0 && byOrg.get(filter.orgId) === set) byOrg.delete(filter.orgId);
      };
    },
    deliver(event: RealtimeEvent): void {
      for (const { filter, listener } of byOrg.get(event.orgId) ?? []) {
        if (!matchesFilter(filter, event)) continue;
        try {
          listener(event);
        } catch (error) {
          log.warn({ err: error }, 'realtime listener failed');
        }
      }
    },
    clear: () => byOrg.clear(),
  };
}

/** The process's sockets by the session they were opened with. */
function createSessionWatch(log: Logger) {
  const bySession = new Map<string, Set<() => void>>();
  return {
    watch(sessionId: string, onEnded: () => void): () => void {
      const set = bySession.get(sessionId) ?? new Set<() => void>();
      bySession.set(sessionId, set.add(onEnded));
      return () => {
        set.delete(onEnded);
        if (set.size === 0 && bySession.get(sessionId) === set) bySession.delete(sessionId);
      };
    },
    end(sessionId: string): void {
      const set = bySession.get(sessionId);
      if (!set) return;
      bySession.delete(sessionId);
      for (const onEnded of set) {
        try {
          onEnded();
        } catch (error) {
          log.warn({ err: error }, 'realtime session watcher failed');
        }
      }
    },
    clear: () => bySession.clear(),
  };
}

/** The event as it may travel, or null (logged) when it does not match the contract. */
function checkedEvent(event: unknown, log: Logger, source: string): RealtimeEvent | null {
  const parsed = realtimeEventSchema.safeParse(event);
  if (parsed.success) return parsed.data;
  log.warn({ source, issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) }, 'realtime event ignored: not a valid event');
  return null;
}

export function createRealtimeHub({ database, log }: { database: Database; log: Logger }): RealtimeHub {
  return database.kind === 'postgres' && database.pool ? createPostgresHub(database, log) : createInProcessHub(log);
}

function createInProcessHub(log: Logger): RealtimeHub {
  const local = createLocalFanOut(log);
  const sessions = createSessionWatch(log);
  let isClosed = false;
  return {
    publish(event) {
      const checked = checkedEvent(event, log, 'publish');
      // Delivered on a later tick, like a NOTIFY: the publisher's request is never held up by sockets.
      if (checked && !isClosed) setImmediate(() => local.deliver(checked));
    },
    subscribe: local.subscribe,
    endSession(sessionId) {
      if (!isClosed) setImmediate(() => sessions.end(sessionId));
    },
    watchSession: sessions.watch,
    ready: Promise.resolve(),
    probe: async () => ({ isReceiving: !isClosed, roundTripMs: isClosed ? null : 0 }),
    close: async () => {
      isClosed = true;
      local.clear();
      sessions.clear();
    },
  };
}

function createPostgresHub(database: Database, log: Logger): RealtimeHub {
  const pool = database.pool!;
  const local = createLocalFanOut(log);
  /** Probes waiting for their notification, by nonce. */
  const probes = new Map<string, () => void>();
  const sessions = createSessionWatch(log);
  // Events leave in the order they were published: the pool would send concurrent NOTIFYs on
  // different connections, in any order. What is published while a batch is on its way goes in the
  // next one, as one statement (unnest keeps the order), so a burst costs few round trips.
  let outgoing: string[] = [];
  let isSending = false;
  const sendOutgoing = () => {
    if (isSending || outgoing.length === 0) return;
    isSending = true;
    const batch = outgoing;
    outgoing = [];
    // Started on a later tick so even a synchronous throw of the driver lands in the catch.
    Promise.resolve()
      .then(() => pool.query('select pg_notify($1, payload) from unnest($2::text[]) with ordinality as e(payload, n) order by n', [REALTIME_CHANNEL, batch]))
      .catch((error: Error) => log.warn({ reason: error.message, events: batch.length }, 'realtime events not sent'))
      .finally(() => {
        isSending = false;
        sendOutgoing();
      });
  };
  // LISTEN needs a session of its own: on the direct URL, never through a transaction pooler.
  const listenerName = database.applicationName ? `${LISTENER_APPLICATION_NAME}-${database.applicationName}` : LISTENER_APPLICATION_NAME;
  const listener = startListener(database.directUrl ?? pool.options.connectionString, listenerName, log, (channel, payload) => {
    if (channel === REALTIME_PROBE_CHANNEL) {
      probes.get(payload)?.();
      return;
    }
    if (channel === SESSION_ENDED_CHANNEL) {
      if (UUID.test(payload)) sessions.end(payload);
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch {
      log.warn('realtime notification ignored: not JSON');
      return;
    }
    const event = checkedEvent(json, log, 'notification');
    if (event) local.deliver(event);
  });
  return {
    publish(event) {
      const checked = checkedEvent(event, log, 'publish');
      if (!checked) return;
      const payload = JSON.stringify(checked);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
        log.warn({ bytes: Buffer.byteLength(payload) }, 'realtime event not sent: payload too large for NOTIFY');
        return;
      }
      outgoing.push(payload);
      sendOutgoing();
    },
    subscribe: local.subscribe,
    endSession(sessionId) {
      if (!UUID.test(sessionId)) return;
      // Every process hears it, this one included (its sockets are closed when the NOTIFY comes back).
      Promise.resolve()
        .then(() => pool.query('select pg_notify($1, $2)', [SESSION_ENDED_CHANNEL, sessionId]))
        .catch((error: Error) => log.warn({ reason: error.message }, 'realtime session end not sent'));
    },
    watchSession: sessions.watch,
    ready: listener.ready,
    probe: async (timeoutMs = 2_000) => {
      const nonce = randomUUID();
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const heard = new Promise<boolean>((resolve) => {
        probes.set(nonce, () => resolve(true));
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      try {
        // Sent through the pool, as every event is: the whole path is tested.
        await pool.query('select pg_notify($1, $2)', [REALTIME_PROBE_CHANNEL, nonce]);
        const isReceiving = await heard;
        return { isReceiving, roundTripMs: isReceiving ? Math.round(performance.now() - started) : null };
      } catch {
        return { isReceiving: false, roundTripMs: null };
      } finally {
        clearTimeout(timer);
        probes.delete(nonce);
      }
    },
    close: async () => {
      local.clear();
      sessions.clear();
      await listener.stop();
    },
  };
}

/**
 * A dedicated connection (a pooled one would be handed to other queries and lose its LISTEN).
 * When it drops (server restart, failover, idle kill) it is opened again after 1, 2, 5, 10 s, then
 * every 10 s; a failure is a warning, never a crash. Notifications sent while it is down are lost.
 */
function startListener(
  connectionString: string | undefined,
  applicationName: string,
  log: Logger,
  onNotification: (channel: string, payload: string) => void,
) {
  let client: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let failures = 0;
  let isStopped = false;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const retryLater = (reason: string) => {
    if (isStopped || retryTimer) return;
    const delay = REALTIME_RECONNECT_DELAYS_MS[Math.min(failures, REALTIME_RECONNECT_DELAYS_MS.length - 1)];
    failures += 1;
    log.warn({ reason, retryInMs: delay }, 'realtime LISTEN connection lost; reconnecting');
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, delay);
  };

  const connect = async () => {
    const { default: pgModule } = await import('pg');
    // Named so operators (and the reconnect test) can tell it from the pool's connections.
    const next = new pgModule.Client({ connectionString, application_name: applicationName });
    client = next;
    // 'error' and 'end' both come when the connection dies: the first schedules the retry.
    next.on('error', (error) => {
      if (client === next) retryLater(error.message);
    });
    next.on('end', () => {
      if (client === next) retryLater('connection ended');
    });
    next.on('notification', (message) => {
      const isOurs = message.channel === REALTIME_CHANNEL || message.channel === SESSION_ENDED_CHANNEL || message.channel === REALTIME_PROBE_CHANNEL;
      if (isOurs && message.payload) onNotification(message.channel, message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${REALTIME_CHANNEL}; LISTEN ${SESSION_ENDED_CHANNEL}; LISTEN ${REALTIME_PROBE_CHANNEL}`);
    } catch (error) {
      next.end().catch(() => undefined);
      if (client === next) retryLater((error as Error).message);
      return;
    }
    if (isStopped) {
      await next.end().catch(() => undefined);
      return;
    }
    if (failures > 0) log.info('realtime LISTEN connection restored');
    failures = 0;
    markReady();
  };

  void connect();
  return {
    ready,
    stop: async () => {
      isStopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      const last = client;
      client = null;
      await last?.end().catch(() => undefined);
    },
  };
}
