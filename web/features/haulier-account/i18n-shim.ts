import { useMemo, useSyncExternalStore } from 'react';
import type { Language } from '../../../domain/languages';
import en from '../../../domain/i18n/account/en.json';

// A stand-in for web/i18n/index.ts (the i18n contract of issue 27) until it exists here: the same
// `useT(namespace)` signature, reading the account catalogues and filling `{name}` placeholders (no
// plurals). English is bundled; another language's catalogue loads on first use (the page shows
// English for that moment). The language is the one the portal remembers (localStorage
// `baywise.language`), else the browser's if supported, else English. At integration this file's
// one import is replaced by the real module's.

type Catalogue = Record<string, string>;
const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<{ default: Catalogue }>> = {
  de: () => import('../../../domain/i18n/account/de.json'),
  pl: () => import('../../../domain/i18n/account/pl.json'),
  fr: () => import('../../../domain/i18n/account/fr.json'),
};
const loaded = new Map<Language, Catalogue>([['en', en]]);
const listeners = new Set<() => void>();
let version = 0;

function ensureLoaded(language: Language): void {
  if (language === 'en' || loaded.has(language)) return;
  loaded.set(language, en); // English until the language's own arrives (and no second request)
  void LOADERS[language]()
    .then((module) => {
      loaded.set(language, module.default);
      version += 1;
      for (const listener of listeners) listener();
    })
    .catch(() => undefined);
}

// Not domain/languages.ts's languageOr: that module holds a zod schema, and zod stays out of the public form's first load.
const SUPPORTED: readonly string[] = ['en', 'de', 'pl', 'fr'] satisfies Language[];
const languageOr = (value: string | undefined | null): Language => (value && SUPPORTED.includes(value) ? (value as Language) : 'en');

function currentLanguage(): Language {
  try {
    const stored = localStorage.getItem('baywise.language');
    if (stored) return languageOr(stored);
  } catch {
    // storage blocked: fall through to the browser's language
  }
  return languageOr(typeof navigator === 'undefined' ? undefined : navigator.language.slice(0, 2));
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useT(namespace: string): { t: (key: string, values?: Record<string, string | number>) => string; language: Language } {
  const language = currentLanguage();
  ensureLoaded(language);
  const loadedVersion = useSyncExternalStore(subscribe, () => version);
  return useMemo(() => {
    const catalogue: Catalogue = namespace === 'account' ? (loaded.get(language) ?? en) : {};
    const t = (key: string, values?: Record<string, string | number>) => {
      const message = catalogue[key] ?? (en as Catalogue)[key] ?? key;
      return message.replace(/\{(\w+)\}/g, (whole, name: string) => (values && name in values ? String(values[name]) : whole));
    };
    return { t, language };
    // loadedVersion: a language's catalogue has arrived
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [namespace, language, loadedVersion]);
}
