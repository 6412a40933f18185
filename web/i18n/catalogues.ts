import type { Language } from '../../domain/languages';
import english from 'virtual:i18n-catalogue/en';

// Decision 046: the compiled catalogues (scripts/vite/i18n-catalogues.ts). The core namespaces
// (portal, validation) in English ship with the portal (the booking form's first paint never waits
// for them); each other language is a chunk of its own, fetched only when that language is chosen.
// Every other namespace (kiosk, driver, account, help, terms, landing) comes with its screen
// (`virtual:i18n-namespace/<namespace>`, see NamespaceCatalogue).

export type CompiledMessages = Record<string, unknown>;

/** A namespace loaded by its screen: English bundled with the screen, each other language a chunk. */
export type NamespaceCatalogue = {
  namespace: string;
  english: CompiledMessages;
  load: (language: Language) => Promise<CompiledMessages>;
};

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
