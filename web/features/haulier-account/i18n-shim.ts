import { useMemo } from 'react';
import { languageOr, type Language } from '../../../domain/languages';
import de from '../../../domain/i18n/account/de.json';
import en from '../../../domain/i18n/account/en.json';
import fr from '../../../domain/i18n/account/fr.json';
import pl from '../../../domain/i18n/account/pl.json';

// A stand-in for web/i18n/index.ts (the i18n contract of issue 27) until it exists here: the same
// `useT(namespace)` signature, reading the account catalogues and filling `{name}` placeholders (no
// plurals). The language is the one the portal remembers (localStorage `baywise.language`), else the
// browser's if supported, else English. At integration this file's one import is replaced.

const CATALOGUES: Record<string, Record<Language, Record<string, string>>> = { account: { en, de, pl, fr } };

function currentLanguage(): Language {
  try {
    const stored = localStorage.getItem('baywise.language');
    if (stored) return languageOr(stored);
  } catch {
    // storage blocked: fall through to the browser's language
  }
  return languageOr(typeof navigator === 'undefined' ? undefined : navigator.language.slice(0, 2));
}

export function useT(namespace: string): { t: (key: string, values?: Record<string, string | number>) => string; language: Language } {
  const language = currentLanguage();
  return useMemo(() => {
    const catalogue = CATALOGUES[namespace];
    const t = (key: string, values?: Record<string, string | number>) => {
      const message = catalogue?.[language]?.[key] ?? catalogue?.en[key] ?? key;
      return message.replace(/\{(\w+)\}/g, (whole, name: string) => (values && name in values ? String(values[name]) : whole));
    };
    return { t, language };
  }, [namespace, language]);
}
