import type { FastifyRateLimitOptions } from '@fastify/rate-limit';
import type { Config } from '../config';
import type { Database } from '../db/client';

// Per-IP limits that hold across a cluster (issue 23): every node counts in one shared place, so
// three nodes behind a balancer let through one limit's worth, not three. PostgreSQL by default
// (one upsert per limited request, on an unlogged table), Valkey/Redis when REDIS_URL is set (the
// store @fastify/rate-limit ships), the plugin's in-memory store on the embedded database (one
// process).

type IncrResult = { current: number; ttl: number };
type IncrCallback = (error: Error | null, result?: IncrResult) => void;
type RouteOptions = { routeInfo?: { method?: string | string[]; url?: string } };

const INCR_SQL = `
insert into rate_limit_hits as h (key, hits, reset_at)
values ($1, 1, clock_timestamp() + $2 * interval '1 millisecond')
on conflict (key) do update
   set hits = case when h.reset_at <= clock_timestamp() then 1 else h.hits + 1 end,
       reset_at = case when h.reset_at <= clock_timestamp() then excluded.reset_at else h.reset_at end
returning hits, greatest(0, ceil(extract(epoch from h.reset_at - clock_timestamp()) * 1000))::int as ttl`;

/**
 * Counts one hit of `key` in the shared table and answers the hits in its window so far and the
 * milliseconds left: for limits keyed by something the plugin cannot see before the body is read
 * (a haulier's e-mail address), holding across every process on one database, PGlite included.
 */
export async function countHit(database: Database, key: string, windowMs: number): Promise<{ hits: number; ttlMs: number }> {
  const [row] = await database.query<{ hits: number; ttl: number }>(INCR_SQL, [key, windowMs]);
  return { hits: Number(row!.hits), ttlMs: Number(row!.ttl) };
}

/** A fixed window per key, like the plugin's own stores. */
export function postgresRateLimitStore(database: Database) {
  class PostgresStore {
    private readonly prefix: string;
    /** The plugin constructs the root store with its options (unused here); children get their route's prefix. */
    constructor(_pluginOptions?: unknown, prefix = 'rl|') {
      this.prefix = prefix;
    }

    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      database
        .query<{ hits: number; ttl: number }>(INCR_SQL, [this.prefix + key, timeWindow])
        .then(([row]) => callback(null, { current: Number(row!.hits), ttl: Number(row!.ttl) }))
        .catch((error: Error) => callback(error));
    }

    child(routeOptions: RouteOptions): PostgresStore {
      const method = [routeOptions.routeInfo?.method ?? ''].flat().join(',');
      return new PostgresStore(undefined, `${this.prefix}${method}${routeOptions.routeInfo?.url ?? ''}|`);
    }
  }
  return PostgresStore;
}

/** The plugin's options for this node (where counts live), and what to close with the app. */
export async function rateLimitStore(
  config: Config,
  database: Database,
): Promise<{ options: Partial<FastifyRateLimitOptions>; close: () => Promise<void> }> {
  if (config.redisUrl) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    redis.on('error', () => undefined); // reported by the requests that fail; reconnects by itself
    return { options: { redis, nameSpace: 'baywise-rl|', skipOnError: true }, close: async () => void redis.disconnect() };
  }
  const close = async () => undefined;
  if (database.kind === 'postgres') return { options: { store: postgresRateLimitStore(database) as never, skipOnError: true }, close };
  return { options: {}, close };
}
