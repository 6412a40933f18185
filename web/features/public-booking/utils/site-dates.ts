import { addDays } from '../../../../domain/day-notice';
import { todayIn } from '../../../../domain/slot-grid';

/** The booking horizon when a site does not say (the server's default). */
export const DEFAULT_BOOKING_HORIZON_DAYS = 60;

/**
 * The dates the picker offers for an organization's sites, in the sites' own calendars (a Sydney
 * site's today can be the browser's tomorrow): from the earliest site's today to the furthest
 * site's last bookable day.
 */
export function bookableDateRange(
  sites: ReadonlyArray<{ timeZone: string; bookingHorizonDays?: number }>,
  now = new Date(),
): { minDate: string; maxDate: string } | null {
  if (sites.length === 0) return null;
  const todays = sites.map((site) => todayIn(site.timeZone, now));
  const lasts = sites.map((site, i) => addDays(todays[i]!, site.bookingHorizonDays ?? DEFAULT_BOOKING_HORIZON_DAYS));
  return { minDate: [...todays].sort()[0]!, maxDate: [...lasts].sort().at(-1)! };
}
