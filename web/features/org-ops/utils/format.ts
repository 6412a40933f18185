// Times on the live view are shown at the booking's site, in its own time zone.

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** '09:00' at the site. */
export function siteTime(iso: string, timeZone: string): string {
  let format = timeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone });
    timeFormats.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

/** '09:00–10:00' at the site. */
export function siteTimeRange(start: string, end: string, timeZone: string): string {
  return `${siteTime(start, timeZone)}–${siteTime(end, timeZone)}`;
}

/** 'Mon 23 Nov' for a local date 'YYYY-MM-DD'. */
export function localDateLabel(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(y!, m! - 1, d!)));
}

/** Where staff act on a booking. */
export function bookingHref(bookingId: string): string {
  return `/org/bookings?booking=${encodeURIComponent(bookingId)}`;
}
