import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';

/** 'Tue 25 Nov 2026, 10:00–11:00' in the site's time zone. */
export function formatSiteRange(startIso: string, endIso: string, timeZone: string): string {
  const start = new TZDate(startIso, timeZone);
  const end = new TZDate(endIso, timeZone);
  return `${format(start, 'EEE d MMM yyyy, HH:mm')}–${format(end, 'HH:mm')}`;
}

/** 0.6667 → '67%'; null (no arrivals yet) → '—'. */
export function formatRate(rate: number | null): string {
  return rate === null ? '—' : `${Math.round(rate * 100)}%`;
}

/** Alert titles in the text colour: a red title on the light red tint is too faint (WCAG AA). */
export const alertStyles = { title: { color: 'var(--mantine-color-text)' } };
