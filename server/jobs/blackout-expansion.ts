import type { AppContext } from '../context';
import { extendSeriesToHorizon } from '../modules/blackouts/blackout-series.service';

// Recurring blackouts are written as ordinary rows up to 730 days ahead (the longest booking
// horizon); every day that horizon moves on, so this job writes each series' next dates. It runs
// every hour (each site's day starts at its own midnight) and only touches series that are behind
// (modules/blackouts/blackout-series.service.ts extendSeriesToHorizon).

/** Extends every series behind its horizon; returns how many occurrences were written. */
export async function extendBlackoutSeries(ctx: AppContext): Promise<number> {
  const total = await extendSeriesToHorizon(ctx);
  if (total > 0) ctx.log.info({ occurrences: total }, 'recurring blackouts extended');
  return total;
}
