import { setupI18n, type Messages } from '@lingui/core';
import { I18nProvider as LinguiProvider } from '@lingui/react';
import { createElement, useCallback, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '../../domain/languages';
import { ENGLISH_MESSAGES, loadCatalogue } from './catalogues';

// The portal's, the kiosk's and the driver's texts in the haulier's language (issue 27, decision 046).
// Messages are ICU, compiled at build time; one Lingui instance holds every loaded language, keyed
// `<namespace>.<key>`. The chosen language is one store for the whole page, so a component shows the
// same language inside or outside <I18nProvider> (a test may render a form alone: English).

export const LANGUAGE_STORAGE_KEY = 'baywise.language';

const i18n = setupI18n({ locale: DEFAULT_LANGUAGE, messages: { [DEFAULT_LANGUAGE]: ENGLISH_MESSAGES as Messages } });
const loaded = new Set<Language>([DEFAULT_LANGUAGE]);

type State = { language: Language; isChosen: boolean };
let state: State = { language: DEFAULT_LANGUAGE, isChosen: false };
let requested: Language = DEFAULT_LANGUAGE;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const getState = () => state;

/** Loads the language's catalogue if needed, then shows it (the last request wins). */
async function activate(language: Language, isChosen: boolean): Promise<void> {
  requested = language;
  if (!loaded.has(language)) {
    try {
      i18n.load(language, (await loadCatalogue(language)) as Messages);
      loaded.add(language);
    } catch {
      return; // offline or a stale deployment: stay in the language shown
    }
  }
  if (requested !== language) return;
  i18n.activate(language);
  state = { language, isChosen: isChosen || state.isChosen };
  for (const listener of listeners) listener();
}

function storedLanguage(): Language | null {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : null;
  } catch {
    return null;
  }
}

/** The first of the browser's languages we have ('de-AT' → de), else null. */
export function browserLanguage(languages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language]): Language | null {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return null;
}

/** The language a page opens in: the haulier's remembered choice, else the browser's, else English. */
function initialLanguage(): { language: Language; isChosen: boolean } {
  const stored = storedLanguage();
  if (stored) return { language: stored, isChosen: true };
  return { language: browserLanguage() ?? DEFAULT_LANGUAGE, isChosen: false };
}

export type Translate = (key: string, values?: Record<string, string | number>) => string;

/** The texts of one namespace (domain/i18n/<namespace>/) in the chosen language. */
export function useT(namespace: string): { t: Translate; language: Language } {
  const { language } = useSyncExternalStore(subscribe, getState, getState);
  const t = useCallback<Translate>(
    (key, values) => i18n._(`${namespace}.${key}`, values),
    // A new `t` for each language, so texts memoized on it follow the switch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [namespace, language],
  );
  return { t, language };
}

/** The chosen language and a setter that remembers the choice (localStorage `baywise.language`). */
export function useLanguage(): [Language, (language: Language) => void] {
  const { language } = useSyncExternalStore(subscribe, getState, getState);
  const setLanguage = useCallback((next: Language) => {
    try {
      localStorage.setItem(LANGUAGE_STORAGE_KEY, next);
    } catch {
      // private mode: the choice lasts for this page only
    }
    void activate(next, true);
  }, []);
  return [language, setLanguage];
}

/**
 * The organization's portal default (its settings), used when the haulier has not chosen a language
 * on this device: it comes before the browser's language.
 */
export function useOrganizationDefaultLanguage(language: string | null | undefined): void {
  useEffect(() => {
    if (!isLanguage(language) || state.isChosen || storedLanguage()) return;
    void activate(language, false);
  }, [language]);
}

export { LANGUAGES };

/**
 * Around the portal, kiosk and driver pages: opens in the remembered or browser language (waiting
 * for its catalogue before the first paint, so a Polish page does not flash English) and keeps
 * `<html lang>` in step.
 */
export function I18nProvider({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const [initial] = useState(initialLanguage);
  const { language } = useSyncExternalStore(subscribe, getState, getState);
  const [isReady, setReady] = useState(() => loaded.has(initial.language));
  useEffect(() => {
    let isCurrent = true;
    void activate(initial.language, initial.isChosen).finally(() => {
      if (isCurrent) setReady(true);
    });
    return () => {
      isCurrent = false;
    };
  }, [initial]);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  if (!isReady) return fallback;
  return createElement(LinguiProvider, { i18n }, children);
}
