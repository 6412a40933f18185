import { BOOKING_STATUS_LABELS } from '../../../../domain/booking-lifecycle';
import type { BookingStatus } from '../../../../domain/enums';
import { VEHICLE_TYPE_LABELS, type VehicleType } from '../../../../domain/enums';

// Times are shown at the booking's site, in its own time zone.

const timeFormats = new Map<string, Intl.DateTimeFormat>();
const dayFormats = new Map<string, Intl.DateTimeFormat>();

function cached(map: Map<string, Intl.DateTimeFormat>, timeZone: string, options: Intl.DateTimeFormatOptions) {
  let format = map.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { ...options, timeZone });
    map.set(timeZone, format);
  }
  return format;
}

/** '09:00' at the site. */
export function siteTime(iso: string, timeZone: string): string {
  return cached(timeFormats, timeZone, { hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(iso));
}

/** 'Mon 23 Nov' at the site. */
export function siteDay(iso: string, timeZone: string): string {
  return cached(dayFormats, timeZone, { weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(iso));
}

/** '09:00–10:00'. */
export function siteTimeRange(start: string, end: string, timeZone: string): string {
  return `${siteTime(start, timeZone)}–${siteTime(end, timeZone)}`;
}

export function statusLabel(status: BookingStatus): string {
  return BOOKING_STATUS_LABELS[status] ?? status;
}

export function vehicleLabel(type: string): string {
  return VEHICLE_TYPE_LABELS[type as VehicleType] ?? type;
}
