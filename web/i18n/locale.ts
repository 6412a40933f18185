import type { Language } from '../../domain/languages';

/** The locale of Intl's date, time and number formats in a language (en: the spec's en-GB). */
export function intlLocale(language: Language = 'en'): string {
  return { en: 'en-GB', de: 'de-DE', pl: 'pl-PL', fr: 'fr-FR' }[language];
}
