import { and, asc, eq, lte, sql } from 'drizzle-orm';
import {
  BOOKING_WINDOW_MIN,
  NO_SHOW_GRACE_MIN,
  OVERSTAY_THRESHOLD_MIN,
} from '../../domain/booking-lifecycle';
import type { BookingStatus } from '../../domain/enums';
import type { AppContext } from '../context';
import { bookings } from '../db/schema';
import { AppError } from '../plugins/errors';
import { afterCommit, applyTransitionInTx } from '../modules/bookings/lifecycle.service';

// The lifecycle's clock-driven moves, run by the job runner every minute as the actor `system`:
// - no-show: approved and not checked in by start + booking window (30 min) + grace;
// - overstay: in progress and past its end by the overstay threshold (30 min).
// Each booking moves in its own transaction through the same applyTransition as a person's
// click, so a sweep is idempotent: a booking someone moved meanwhile is refused and skipped.

const BATCH = 200;

type Sweep = { from: BookingStatus; to: BookingStatus; dueColumn: typeof bookings.startTime; afterMin: number };

const SWEEPS: Record<'noShow' | 'overstay', Sweep> = {
  noShow: { from: 'approved', to: 'no_show', dueColumn: bookings.startTime, afterMin: BOOKING_WINDOW_MIN + NO_SHOW_GRACE_MIN },
  overstay: { from: 'in_progress', to: 'overstay', dueColumn: bookings.endTime, afterMin: OVERSTAY_THRESHOLD_MIN },
};

async function runSweep(ctx: AppContext, sweep: Sweep): Promise<number> {
  const now = ctx.clock.now();
  const dueBefore = new Date(now.getTime() - sweep.afterMin * 60_000);
  const due = await ctx.database.db
    .select({ id: bookings.id, orgId: bookings.orgId })
    .from(bookings)
    .where(and(eq(bookings.status, sweep.from), lte(sweep.dueColumn, dueBefore)))
    .orderBy(asc(sweep.dueColumn))
    .limit(BATCH);
  let moved = 0;
  for (const booking of due) {
    try {
      const result = await ctx.database.db.transaction((tx) =>
        applyTransitionInTx(ctx, tx, { bookingId: booking.id, orgId: booking.orgId, to: sweep.to }, { kind: 'system', user: null }),
      );
      afterCommit(ctx, result.view, sweep.to);
      moved += 1;
    } catch (error) {
      // Moved by someone else since the select (checked in at the last minute): nothing to do.
      if (error instanceof AppError && error.statusCode === 409) continue;
      throw error;
    }
  }
  return moved;
}

/** Marks due no-shows; returns how many bookings moved. */
export const sweepNoShows = (ctx: AppContext) => runSweep(ctx, SWEEPS.noShow);

/** Marks due overstays; returns how many bookings moved. */
export const sweepOverstays = (ctx: AppContext) => runSweep(ctx, SWEEPS.overstay);

/** How many bookings are due for either sweep (the dashboard's and the tests' view). */
export async function countDue(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  const [row] = await ctx.database.db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(bookings)
    .where(
      sql`(${bookings.status} = 'approved' and ${bookings.startTime} <= ${new Date(now.getTime() - SWEEPS.noShow.afterMin * 60_000)})
       or (${bookings.status} = 'in_progress' and ${bookings.endTime} <= ${new Date(now.getTime() - SWEEPS.overstay.afterMin * 60_000)})`,
    );
  return row?.n ?? 0;
}
