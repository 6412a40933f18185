import type { Language } from '../../../../domain/languages';
import { intlLocale } from '../../../i18n/locale';

/** A date and time as the site's clock shows it, in the language's locale (default English), e.g. "Mon, 12 May 2025, 09:30 (Australia/Sydney)". */
export function formatSiteDateTime(iso: string, timeZone: string, language?: Language): string {
  return new Intl.DateTimeFormat(intlLocale(language), {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/** The wall-clock time at the site, 'HH:mm'. */
export function formatSiteTime(iso: string, timeZone: string, language?: Language): string {
  return new Intl.DateTimeFormat(intlLocale(language), { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );
}

/** "09:30-10:30, Mon, 12 May 2025" in the site's time zone. */
export function formatSiteTimeRange(startIso: string, endIso: string, timeZone: string, language?: Language): string {
  const date = new Intl.DateTimeFormat(intlLocale(language), {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  }).format(new Date(startIso));
  return `${date}, ${formatSiteTime(startIso, timeZone, language)}-${formatSiteTime(endIso, timeZone, language)}`;
}

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Today's date in the browser's calendar, 'YYYY-MM-DD'. */
export function todayIsoDate(now = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}
