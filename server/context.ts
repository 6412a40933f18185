import type { Logger } from 'pino';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Mailer } from './mail/mailer';
import type { Storage } from './storage/storage';
import type { RealtimeEvent } from '../domain/realtime';

/** A clock the tests can freeze. */
export type Clock = { now: () => Date };
export const systemClock: Clock = { now: () => new Date() };

/** What every module receives: the parsed config, the database, mail, and the clock. */
export type AppContext = {
  config: Config;
  database: Database;
  mailer: Mailer;
  /** Booking documents: local folder under DATA_DIR/storage, or S3 when configured. */
  storage: Storage;
  clock: Clock;
  /** For work outside a request (mail after commit, background jobs). */
  log: Logger;
  /** HMAC key for access tokens (HS256), shared by every API node through the database. */
  authSecret: Uint8Array;
  /** When the process started serving (login-page uptime figure). */
  startedAt: Date;
  /** Wakes the mail-outbox worker after a commit that queued mail (absent in API tests, which drain it). */
  mailWorker?: { kick: () => void };
  /** Wakes the SMS-outbox worker (running only when SMS is configured, server/sms/sms-outbox.ts). */
  smsWorker?: { kick: () => void };
  /**
   * Live updates: call after the change has committed. Fans out to every server process (LISTEN/
   * NOTIFY on PostgreSQL, in-process on PGlite) and on to the subscribed WebSocket clients.
   */
  realtime?: {
    publish: (event: RealtimeEvent) => void;
    /** Used by the WebSocket route; optional so a test may hand services a publish-only fake. */
    subscribe?: (filter: { orgId: string; siteId: string | null }, listener: (event: RealtimeEvent) => void) => () => void;
    /** The hub's self-test (health check): a notification sent and heard back. */
    probe?: (timeoutMs?: number) => Promise<{ isReceiving: boolean; roundTripMs: number | null }>;
    /** After a sign-out: every process closes the sockets opened with that session. */
    endSession?: (sessionId: string) => void;
    /** Used by the WebSocket route: `onEnded` runs once the session is ended on any process. */
    watchSession?: (sessionId: string, onEnded: () => void) => () => void;
  };
  /**
   * Set when the process is shutting down (SIGTERM): readiness answers 503 at once so a balancer
   * stops sending new requests while in-flight ones finish.
   */
  lifecycle?: {
    isDraining: boolean;
    /** When this node last took a request other than a health check (ms since the epoch): the drain waits for quiet. */
    lastRequestAt?: number;
  };
};

/** What every module's routes plugin receives from app.ts. */
export type ModuleOptions = { ctx: AppContext };
