import type { Language } from '../../../../domain/languages';

const LOCALES: Record<Language, string> = { en: 'en-GB', de: 'de-DE', pl: 'pl-PL', fr: 'fr-FR' };

/** "Tue, 24 Nov 2026, 11:00–11:30" on the site's clock, in the haulier's language. */
export function formatSiteSlot(startIso: string, endIso: string, timeZone: string, language: Language): string {
  const locale = LOCALES[language];
  const date = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(startIso));
  const time = (iso: string) => new Intl.DateTimeFormat(locale, { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
  return `${date}, ${time(startIso)}–${time(endIso)}`;
}

/** An ISO weekday's short name (1 = Monday … 7 = Sunday) in the haulier's language. */
export function weekdayName(isoWeekday: number, language: Language): string {
  // 1 January 2024 was a Monday.
  return new Intl.DateTimeFormat(LOCALES[language], { timeZone: 'UTC', weekday: 'short' }).format(new Date(Date.UTC(2024, 0, isoWeekday)));
}

/** A calendar date (YYYY-MM-DD) as "Tue 1 Dec 2026" in the haulier's language. */
export function formatCalendarDate(date: string, language: Language): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(LOCALES[language], { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(Date.UTC(y, m - 1, d)));
}
