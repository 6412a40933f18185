import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';

// Measured uptime: every running server writes the current minute once a minute; uptime over a
// window is the share of its minutes (since the first one recorded) that have a row.

const MINUTE_MS = 60_000;
export const UPTIME_WINDOW_DAYS = 30;

/** Records that the platform is up this minute (idempotent across nodes). */
export async function recordHeartbeat(ctx: AppContext): Promise<void> {
  const minute = new Date(Math.floor(ctx.clock.now().getTime() / MINUTE_MS) * MINUTE_MS);
  await ctx.database.db.execute(sql`insert into uptime_checks (minute) values (${minute.toISOString()}::timestamptz) on conflict do nothing`);
}

/** Percentage of minutes up over the window, one decimal; null while there is no history. */
export async function measuredUptimePercent(ctx: AppContext): Promise<number | null> {
  const now = ctx.clock.now();
  const currentMinute = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  const windowStart = new Date(currentMinute - UPTIME_WINDOW_DAYS * 86_400_000);
  const result = await ctx.database.db.execute(sql`
    select count(*)::int as up, min(minute) as first
      from uptime_checks where minute > ${windowStart.toISOString()}::timestamptz and minute <= ${new Date(currentMinute).toISOString()}::timestamptz`);
  const row = (result as unknown as { rows: { up: number; first: string | Date | null }[] }).rows[0];
  if (!row?.first || !row.up) return null;
  const minutes = Math.round((currentMinute - new Date(row.first).getTime()) / MINUTE_MS) + 1;
  return Math.min(100, Math.round((row.up / minutes) * 1000) / 10);
}

/** Writes a heartbeat now and every minute until stopped. */
export function startHeartbeat(ctx: AppContext): () => void {
  const beat = () => recordHeartbeat(ctx).catch((error: unknown) => ctx.log.warn({ err: error }, 'uptime heartbeat failed'));
  void beat();
  const timer = setInterval(beat, MINUTE_MS);
  timer.unref();
  return () => clearInterval(timer);
}
