import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { utcDay, type UsageCounterKind } from '../../../domain/usage';
import type { AppContext } from '../../context';

// Counting API and webhook calls (usage_counters) without a database write per request: each call
// adds one to a counter in memory, keyed by organization, UTC day and kind; every few seconds, and
// when the app closes, the counts are added to their rows in one statement
// (count = count + n). Each API node keeps its own buffer; the additions commute, so several nodes
// count into the same rows. A crash loses at most the last few seconds of counts.

export const USAGE_FLUSH_INTERVAL_MS = 5_000;
/** Keys kept while the database cannot be written; beyond this new counts are dropped (and logged once). */
const MAX_PENDING_KEYS = 50_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type UsageRecorder = {
  /** Counts one call for the organization today (UTC). */
  record: (orgId: string, kind: UsageCounterKind) => void;
  /** Writes the counts gathered so far; resolves once they are stored (or put back after a failure). */
  flush: () => Promise<void>;
  /** Stops the timer and writes what is left. */
  close: () => Promise<void>;
};

export function createUsageRecorder(ctx: AppContext, options: { intervalMs?: number } = {}): UsageRecorder {
  let pending = new Map<string, number>();
  let isDropping = false;
  let running: Promise<void> = Promise.resolve();

  const record = (orgId: string, kind: UsageCounterKind) => {
    if (!UUID.test(orgId)) return;
    const key = `${orgId}|${utcDay(ctx.clock.now())}|${kind}`;
    if (!pending.has(key) && pending.size >= MAX_PENDING_KEYS) {
      if (!isDropping) ctx.log.warn({ keys: pending.size }, 'usage counters: buffer full, dropping new counts until the next flush');
      isDropping = true;
      return;
    }
    pending.set(key, (pending.get(key) ?? 0) + 1);
  };

  const write = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    isDropping = false;
    const values = [...batch].map(([key, n]) => {
      const [orgId, day, kind] = key.split('|');
      return sql`(${orgId}::uuid, ${day}::date, ${kind}, ${n}::int)`;
    });
    try {
      // Rows of an organization deleted meanwhile are skipped (the join), not a failed batch.
      await ctx.database.db.execute(sql`
        insert into usage_counters (org_id, day, kind, count)
        select v.org_id, v.day, v.kind, v.n
          from (values ${sql.join(values, sql`, `)}) as v(org_id, day, kind, n)
          join organizations o on o.id = v.org_id
        on conflict (org_id, day, kind) do update set count = usage_counters.count + excluded.count`);
    } catch (error) {
      ctx.log.error({ err: error, keys: batch.size }, 'usage counters: could not write; keeping the counts for the next flush');
      for (const [key, n] of batch) {
        if (pending.has(key) || pending.size < MAX_PENDING_KEYS) pending.set(key, (pending.get(key) ?? 0) + n);
      }
    }
  };

  // One write at a time: a flush waits for the one under way, then writes what came since.
  const flush = () => {
    running = running.then(write);
    return running;
  };

  const timer = setInterval(() => void flush(), options.intervalMs ?? USAGE_FLUSH_INTERVAL_MS);
  timer.unref();

  return {
    record,
    flush,
    close: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** API and webhook call counting (server/modules/usage/usage-recorder.ts). */
    usage: UsageRecorder;
  }
}

/**
 * The counting, registered on the app before the routes it counts (fastify-plugin: its hook and
 * decorator apply to the whole app): every admitted request to /api/orgs/:orgId/… or
 * /api/sites/:siteId/… counts one 'api_call' for its organization (the scope hooks set it; a
 * refused request has none); the ANPR webhook counts its accepted reads itself
 * (app.usage.record). What is left is written when the app closes.
 */
export const usageCountingPlugin = fp(async (app: FastifyInstance, opts: { ctx: AppContext }) => {
  const recorder = createUsageRecorder(opts.ctx);
  app.decorate('usage', recorder);
  app.addHook('onResponse', async (request) => {
    const orgId = request.orgScope?.orgId ?? request.siteScope?.orgId;
    if (orgId) recorder.record(orgId, 'api_call');
  });
  app.addHook('onClose', async () => {
    await recorder.close();
  });
});
