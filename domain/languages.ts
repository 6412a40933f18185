/**
 * The languages of everything a haulier sees: the public portal, the kiosk and driver pages, and every
 * e-mail to them. English is the spec's own text; the others are translations of its catalogue.
 */
export const LANGUAGES = ['en', 'de', 'pl', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language named in itself, for the language picker. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  pl: 'Polski',
  fr: 'Français',
};

// Pure: a page that needs only the list (the portal's language picker) does not load zod for it.

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** A stored or requested language, or the default when it is missing or unknown. */
export function languageOr(value: unknown, fallback: Language = DEFAULT_LANGUAGE): Language {
  return isLanguage(value) ? value : fallback;
}
