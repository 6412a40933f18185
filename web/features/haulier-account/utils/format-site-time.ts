import type { Language } from '../../../../domain/languages';

const LOCALES: Record<Language, string> = { en: 'en-GB', de: 'de-DE', pl: 'pl-PL', fr: 'fr-FR' };

/** "Tue, 24 Nov 2026, 11:00–11:30" on the site's clock, in the haulier's language. */
export function formatSiteSlot(startIso: string, endIso: string, timeZone: string, language: Language): string {
  const locale = LOCALES[language];
  const date = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(startIso));
  const time = (iso: string) => new Intl.DateTimeFormat(locale, { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
  return `${date}, ${time(startIso)}–${time(endIso)}`;
}
