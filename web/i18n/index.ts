import { setupI18n, type Messages } from '@lingui/core';
import { I18nProvider as LinguiProvider } from '@lingui/react';
import { createElement, useCallback, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '../../domain/languages';
import { ENGLISH_MESSAGES, loadCatalogue, type NamespaceCatalogue } from './catalogues';

// The portal's, the kiosk's and the driver's texts in the haulier's language (issue 27, decision 046).
// Messages are ICU, compiled at build time; one Lingui instance holds every loaded language, keyed
// `<namespace>.<key>`. The chosen language is one store for the whole page, so a component shows the
// same language inside or outside <I18nProvider> (a test may render a form alone: English).
// The core namespaces (portal, validation) load with the page; any other one with its screen
// (<I18nNamespace>), and from then on with every language the haulier switches to.

export const LANGUAGE_STORAGE_KEY = 'baywise.language';

const i18n = setupI18n({ locale: DEFAULT_LANGUAGE, messages: { [DEFAULT_LANGUAGE]: ENGLISH_MESSAGES as Messages } });
const loaded = new Set<Language>([DEFAULT_LANGUAGE]);
/** The namespaces screens have asked for (<I18nNamespace>), and which languages of each are in. */
const namespaces = new Map<string, NamespaceCatalogue>();
const loadedNamespaces = new Set<string>();
const namespaceKey = (namespace: string, language: Language) => `${language}:${namespace}`;

type State = { language: Language; isChosen: boolean };
let state: State = { language: DEFAULT_LANGUAGE, isChosen: false };
let requested: Language = DEFAULT_LANGUAGE;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const getState = () => state;

function registerNamespace(catalogue: NamespaceCatalogue): void {
  if (namespaces.has(catalogue.namespace)) return;
  namespaces.set(catalogue.namespace, catalogue);
  i18n.load(DEFAULT_LANGUAGE, catalogue.english as Messages);
  loadedNamespaces.add(namespaceKey(catalogue.namespace, DEFAULT_LANGUAGE));
}

async function loadNamespace(catalogue: NamespaceCatalogue, language: Language): Promise<void> {
  if (loadedNamespaces.has(namespaceKey(catalogue.namespace, language))) return;
  i18n.load(language, (await catalogue.load(language)) as Messages);
  loadedNamespaces.add(namespaceKey(catalogue.namespace, language));
}

/** Loads the language's core catalogue and the namespaces in use, then shows it (the last request wins). */
async function activate(language: Language, isChosen: boolean): Promise<void> {
  requested = language;
  const loadedBefore = loaded.size + loadedNamespaces.size;
  try {
    await Promise.all([
      loaded.has(language)
        ? null
        : loadCatalogue(language).then((messages) => {
            i18n.load(language, messages as Messages);
            loaded.add(language);
          }),
      ...[...namespaces.values()].map((catalogue) => loadNamespace(catalogue, language)),
    ]);
  } catch {
    return; // offline or a stale deployment: stay in the language shown
  }
  if (requested !== language) return;
  // The language shown already, nothing new loaded (an organization whose default is the page's
  // language): no new state, so every translated screen is not rendered again for nothing.
  const isUnchanged = language === state.language && (isChosen || state.isChosen) === state.isChosen && loaded.size + loadedNamespaces.size === loadedBefore;
  if (isUnchanged && i18n.locale === language) return;
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

type NamespaceSource = NamespaceCatalogue | (() => Promise<{ default: NamespaceCatalogue }>);

/**
 * Around a screen whose texts are a namespace of their own (kiosk, driver, account, help, terms,
 * landing). `catalogue` is `virtual:i18n-namespace/<namespace>`, imported by the screen's route
 * file, so its English rides in the screen's lazy chunk; or `() => import(…)` where only a part of a
 * screen needs it (the booking form's saved details), fetched when first shown. Renders `fallback`
 * until the namespace is in for the language shown (no English flash); a language switch waits
 * for it too. Offline, the screen shows in English rather than not at all.
 */
export function I18nNamespace({ catalogue, children, fallback = null }: { catalogue: NamespaceSource; children: ReactNode; fallback?: ReactNode }) {
  const [resolved, setResolved] = useState<NamespaceCatalogue | null>(() => (typeof catalogue === 'function' ? null : catalogue));
  if (resolved) registerNamespace(resolved);
  const { language } = useSyncExternalStore(subscribe, getState, getState);
  const isReady = !!resolved && loadedNamespaces.has(namespaceKey(resolved.namespace, language));
  const [, setLoadedCount] = useState(0);
  useEffect(() => {
    if (isReady) return;
    let isCurrent = true;
    const load = async () => {
      const found = typeof catalogue === 'function' ? (await catalogue()).default : catalogue;
      registerNamespace(found);
      try {
        await loadNamespace(found, language);
      } catch {
        i18n.load(language, found.english as Messages);
        loadedNamespaces.add(namespaceKey(found.namespace, language));
      }
      if (isCurrent) {
        setResolved(found);
        setLoadedCount((count) => count + 1);
      }
    };
    void load().catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [catalogue, language, isReady]);
  return isReady ? children : fallback;
}
