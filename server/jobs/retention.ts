import type { AppContext } from '../context';

// The daily clean-up (04:20 UTC): the logs that grow with traffic keep a bounded window. Error
// events older than ERROR_EVENT_RETENTION_DAYS go (their group's triage state stays, and a group
// that recurs starts counting again); settled webhook deliveries — delivered or failed for good —
// older than WEBHOOK_DELIVERY_RETENTION_DAYS go from the delivery logs. Pending deliveries are
// never removed, whatever their age. Per-IP request counts whose window has passed go too.
// Batched, so a large backlog never holds one long lock.

export const ERROR_EVENT_RETENTION_DAYS = 90;
export const WEBHOOK_DELIVERY_RETENTION_DAYS = 30;
const BATCH = 5_000;
const DAY_MS = 86_400_000;

export type RetentionResult = { errorEvents: number; webhookDeliveries: number; rateLimitKeys: number };

async function deleteInBatches(ctx: AppContext, sql: string, cutoff: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await ctx.database.query<{ n: number }>(sql, [cutoff.toISOString(), BATCH]);
    const n = rows[0]?.n ?? 0;
    total += n;
    if (n < BATCH) return total;
  }
}

export async function purgeExpiredLogs(ctx: AppContext): Promise<RetentionResult> {
  const now = ctx.clock.now().getTime();
  const errorEvents = await deleteInBatches(
    ctx,
    `with gone as (delete from error_events where id in (select id from error_events where created_at < $1 limit $2) returning 1)
     select count(*)::int as n from gone`,
    new Date(now - ERROR_EVENT_RETENTION_DAYS * DAY_MS),
  );
  const webhookDeliveries = await deleteInBatches(
    ctx,
    `with gone as (delete from webhook_deliveries where id in (
        select id from webhook_deliveries where status in ('delivered', 'failed') and created_at < $1 limit $2) returning 1)
     select count(*)::int as n from gone`,
    new Date(now - WEBHOOK_DELIVERY_RETENTION_DAYS * DAY_MS),
  );
  // Per-IP counts whose window has passed (a new request starts a fresh row anyway).
  const rateLimitKeys = await deleteInBatches(
    ctx,
    `with gone as (delete from rate_limit_hits where key in (select key from rate_limit_hits where reset_at < $1 limit $2) returning 1)
     select count(*)::int as n from gone`,
    new Date(now),
  );
  if (errorEvents + webhookDeliveries + rateLimitKeys > 0) ctx.log.info({ errorEvents, webhookDeliveries, rateLimitKeys }, 'expired rows removed');
  return { errorEvents, webhookDeliveries, rateLimitKeys };
}
