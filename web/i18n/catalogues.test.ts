import fs from 'node:fs';
import path from 'node:path';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../domain/languages';
import { compiledCatalogue, CORE_NAMESPACES, SERVER_ONLY_NAMESPACES, webNamespaces } from '../../scripts/vite/i18n-catalogues';

// Issue 27: every catalogue complete, every message valid ICU, every key the web asks for present.

const root = path.resolve(import.meta.dirname, '../..');
const i18nDir = path.join(root, 'domain', 'i18n');
const namespaces = fs.readdirSync(i18nDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

function catalogue(namespace: string, language: string): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(i18nDir, namespace, `${language}.json`), 'utf8')) as Record<string, string>;
}

describe.each(namespaces)('the %s catalogues', (namespace) => {
  const english = catalogue(namespace, 'en');

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every English key, not empty, and no other key', (language) => {
    const other = catalogue(namespace, language);
    const missing = Object.keys(english).filter((key) => typeof other[key] !== 'string' || other[key].trim() === '');
    const extra = Object.keys(other).filter((key) => !(key in english));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it.each(LANGUAGES)('every %s message compiles (ICU) and has the English placeholders', (language) => {
    const messages = catalogue(namespace, language);
    const broken: string[] = [];
    for (const [key, message] of Object.entries(messages)) {
      try {
        compileMessageOrThrow(message);
      } catch (error) {
        broken.push(`${key}: ${(error as Error).message}`);
      }
      const names = (text: string) => [...text.matchAll(/\{(\w+)[,}]/g)].map((m) => m[1]).sort();
      if (key in english && JSON.stringify([...new Set(names(message))]) !== JSON.stringify([...new Set(names(english[key]))])) {
        broken.push(`${key}: placeholders differ from English`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('the keys the web uses', () => {
  const sources = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'dist' ? [] : sources(full);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
    });

  it("every t('…') of a useT namespace is in the English catalogue", () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of sources(path.join(root, 'web'))) {
      const text = fs.readFileSync(file, 'utf8');
      // `const { t } = useT('portal')` (or `{ t: tKiosk }`): each translator name bound to its namespace.
      for (const binding of text.matchAll(/\{\s*t(?::\s*(\w+))?\s*(?:,\s*language\s*)?\}\s*=\s*useT\('(\w+)'\)/g)) {
        const name = binding[1] ?? 't';
        const namespace = binding[2];
        const english = catalogue(namespace, 'en');
        // Literal keys only; template keys (`status.${status}`) are checked by their prefix.
        for (const call of text.matchAll(new RegExp(`\\b${name}\\((['\`])([^'\`$]+)(\\$\\{)?`, 'g'))) {
          const [, , key, isTemplate] = call;
          checked++;
          const isPresent = isTemplate ? Object.keys(english).some((k) => k.startsWith(key)) : key in english;
          if (!isPresent) missing.push(`${path.relative(root, file)}: ${namespace}.${key}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});

describe('the catalogues the browser loads (decision 046)', () => {
  const sources = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'dist' ? [] : sources(full);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
    });
  const webFiles = sources(path.join(root, 'web')).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));

  it.each(LANGUAGES)('the %s core module (the portal\'s first load) holds the core namespaces only, and all of them', (language) => {
    const { messages } = compiledCatalogue(i18nDir, language);
    const namespacesIn = [...new Set(Object.keys(messages).map((key) => key.split('.')[0]))].sort();
    expect(namespacesIn).toEqual([...CORE_NAMESPACES].sort());
  });

  it('every other web namespace is loaded by a screen (virtual:i18n-namespace/<namespace>), none server-only', () => {
    const others = webNamespaces(i18nDir).filter((namespace) => !CORE_NAMESPACES.includes(namespace));
    expect(others.length).toBeGreaterThanOrEqual(6);
    const loadedBy = (namespace: string) => webFiles.filter(({ text }) => text.includes(`'virtual:i18n-namespace/${namespace}'`));
    expect(others.filter((namespace) => loadedBy(namespace).length === 0)).toEqual([]);
    for (const namespace of SERVER_ONLY_NAMESPACES) expect(loadedBy(namespace)).toEqual([]);
  });

  it("every useT('…') namespace is a web namespace", () => {
    const used = new Set(webFiles.flatMap(({ text }) => [...text.matchAll(/useT\('(\w+)'\)/g)].map((m) => m[1])));
    const web = webNamespaces(i18nDir);
    expect([...used].filter((namespace) => !web.includes(namespace))).toEqual([]);
  });
});
