import fs from 'node:fs';
import path from 'node:path';
import { setupI18n, type I18n, type Messages } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { DEFAULT_LANGUAGE, type Language } from '../../domain/languages';
import { projectRoot } from '../paths';

// The server's side of the i18n contract (/work/wt/_notes/i18n-contract.md): e-mails and text
// messages to hauliers in the booking's language, from the same ICU catalogues as the portal
// (domain/i18n/<namespace>/<language>.json). A catalogue is read and compiled once, at its first
// use, into its own Lingui instance (one per language and namespace, so keys never clash across
// namespaces); a key missing in a language falls back to the English text.

export type Translate = (key: string, values?: Record<string, unknown>) => string;

const NAMESPACE = /^[a-z][a-z0-9-]*$/;

/** Translation over the catalogues under `root` (<root>/<namespace>/<language>.json). */
export function cataloguesAt(root: string) {
  const instances = new Map<string, I18n>();

  function compile(language: Language, namespace: string): I18n {
    if (!NAMESPACE.test(namespace)) throw new Error(`Not a catalogue namespace: ${namespace}`);
    const file = path.join(root, namespace, `${language}.json`);
    const source = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
    const messages: Messages = {};
    for (const [key, text] of Object.entries(source)) {
      if (typeof text === 'string') messages[key] = compileMessage(text);
    }
    return setupI18n({ locale: language, messages: { [language]: messages } });
  }

  function instanceFor(language: Language, namespace: string): I18n {
    const id = `${language}:${namespace}`;
    let i18n = instances.get(id);
    if (!i18n) {
      i18n = compile(language, namespace);
      instances.set(id, i18n);
    }
    return i18n;
  }

  function translate(language: Language, namespace: string, key: string, values?: Record<string, unknown>): string {
    const i18n = instanceFor(language, namespace);
    if (Object.hasOwn(i18n.messages, key)) return i18n._(key, values);
    if (language !== DEFAULT_LANGUAGE) return translate(DEFAULT_LANGUAGE, namespace, key, values);
    return key;
  }

  return { translate, translatorFor: (language: Language, namespace: string): Translate => (key, values) => translate(language, namespace, key, values) };
}

const shared = cataloguesAt(path.join(projectRoot, 'domain', 'i18n'));

/** The message `key` of `namespace` in `language`, its ICU placeholders and plurals filled from `values`; English when the language lacks it. */
export const translate: (language: Language, namespace: string, key: string, values?: Record<string, unknown>) => string = shared.translate;

/** `translate` bound to one language and namespace, as a renderer takes it. */
export const translatorFor: (language: Language, namespace: string) => Translate = shared.translatorFor;
