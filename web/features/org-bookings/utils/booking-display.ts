import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';


/** 'Tue 25 Nov 2026, 10:00–11:00' in the site's time zone. */
export function formatSiteRange(startIso: string, endIso: string, timeZone: string): string {
  const start = new TZDate(startIso, timeZone);
  const end = new TZDate(endIso, timeZone);
  return `${format(start, 'EEE d MMM yyyy, HH:mm')}–${format(end, 'HH:mm')}`;
}

/** 'YYYY-MM-DD' and 'HH:mm' of an instant at the site. */
export function siteDateAndTime(iso: string, timeZone: string): { date: string; time: string } {
  const local = new TZDate(iso, timeZone);
  return { date: format(local, 'yyyy-MM-dd'), time: format(local, 'HH:mm') };
}

export function formatDateTime(iso: string | null, timeZone: string): string {
  return iso ? format(new TZDate(iso, timeZone), 'd MMM yyyy, HH:mm') : '—';
}
