import fs from 'node:fs';
import path from 'node:path';
import { languageOr, type Language } from '../../../domain/languages';
import { projectRoot } from '../../paths';

// A stand-in for server/i18n/translate.ts translatorFor (the i18n contract of issue 27) until the
// real one is in this branch: the same signature, reading domain/i18n/<namespace>/<language>.json
// and replacing {name} placeholders (no plurals). At integration this file's import is swapped for
// the real API; every caller imports translatorFor from here only.

const catalogues = new Map<string, Record<string, string>>();

function catalogue(language: Language, namespace: string): Record<string, string> {
  const key = `${namespace}/${language}`;
  let found = catalogues.get(key);
  if (!found) {
    const file = path.join(projectRoot, 'domain', 'i18n', namespace, `${language}.json`);
    found = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {};
    catalogues.set(key, found);
  }
  return found;
}

export function translatorFor(language: Language, namespace: string): (key: string, values?: Record<string, unknown>) => string {
  const lang = languageOr(language);
  return (key, values = {}) => {
    const message = catalogue(lang, namespace)[key] ?? catalogue('en', namespace)[key] ?? key;
    return message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
  };
}
