import { expansionEnd, addDays } from '../../domain/org-blackouts';
import { todayIn } from '../../domain/slot-grid';
import type { AppContext } from '../context';
import { findAffectedBookings } from '../modules/bookings/affected-bookings';
import * as repo from '../modules/blackouts/org-blackouts.repo';
import { expandInto, overlapCondition } from '../modules/blackouts/series-expansion';

// Recurring blackouts are written as ordinary rows up to 730 days ahead (the longest booking
// horizon); every day that horizon moves on, so this job writes each series' next dates. It runs
// every hour (each site's day starts at its own midnight) and only touches series that are behind:
// run twice, it writes nothing the second time. Each series is extended in its own transaction
// with the series row locked, so an admin's edit and the job never interleave.

/** Extends every series behind its horizon; returns how many occurrences were written. */
export async function extendBlackoutSeries(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  let total = 0;
  for (const candidate of await repo.seriesToExtendAnyOrg(ctx.database.db)) {
    const target = expansionEnd(todayIn(candidate.timeZone, now), candidate.until);
    if (candidate.expandedUntil && candidate.expandedUntil >= target) continue;
    const written = await ctx.database.db.transaction(async (tx) => {
      const series = await repo.lockSeries(tx, candidate.orgId, candidate.id);
      // Deleted or extended by someone else since the list was read.
      if (!series || (series.expandedUntil && series.expandedUntil >= target)) return 0;
      const from = series.expandedUntil ? addDays(series.expandedUntil, 1) : series.startsOn;
      const result = await expandInto(tx, series, candidate.timeZone, { from, to: target, notBefore: now }, now);
      if (result.occurrences.length > 0) {
        // Nobody can be asked here: bookings already under the new dates stay, and are logged.
        const affected = await findAffectedBookings(
          tx,
          series.orgId,
          now,
          overlapCondition({ siteId: series.siteId, bayId: series.bayId, intervals: result.occurrences }),
          { limit: 20 },
        );
        if (affected.length > 0) {
          ctx.log.warn({ seriesId: series.id, bookings: affected.map((b) => b.id) }, 'new blackout occurrences overlap live bookings');
        }
      }
      return result.written;
    });
    if (written > 0) {
      ctx.realtime?.publish({ entity: 'blackout', action: 'updated', id: candidate.id, orgId: candidate.orgId, siteId: candidate.siteId, at: now.toISOString() });
    }
    total += written;
  }
  if (total > 0) ctx.log.info({ occurrences: total }, 'recurring blackouts extended');
  return total;
}
