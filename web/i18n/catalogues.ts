import type { Language } from '../../domain/languages';
import english from 'virtual:i18n-catalogue/en';

// Decision 046: the compiled catalogues (scripts/vite/i18n-catalogues.ts). English ships with the
// portal (the page's first paint never waits for it); each other language is a chunk of its own,
// fetched only when that language is chosen.

export type CompiledMessages = Record<string, unknown>;

export const ENGLISH_MESSAGES: CompiledMessages = english;

export function loadCatalogue(language: Language): Promise<CompiledMessages> {
  switch (language) {
    case 'en':
      return Promise.resolve(english);
    case 'de':
      return import('virtual:i18n-catalogue/de').then((m) => m.default);
    case 'pl':
      return import('virtual:i18n-catalogue/pl').then((m) => m.default);
    case 'fr':
      return import('virtual:i18n-catalogue/fr').then((m) => m.default);
  }
}
