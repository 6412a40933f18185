import type { AppContext } from '../context';
import { expandAllStandingBookings } from '../modules/standing-bookings/standing-bookings.service';

// Standing bookings (decision 045): every hour each active series' dates are booked up to its
// weeks ahead as each site's day moves on. Each date's row is written once (its primary key, ON
// CONFLICT DO NOTHING in the booking's transaction), so two nodes running it book each date once.

export async function expandStandingBookings(ctx: AppContext) {
  const result = await expandAllStandingBookings(ctx);
  if (result.booked + result.conflicts > 0) ctx.log.info(result, 'standing bookings expanded');
  return result;
}
