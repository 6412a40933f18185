import fs from 'node:fs';
import path from 'node:path';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

// Decision 046: the web's catalogues, compiled when the bundle is built, each ICU message already
// parsed by Lingui's compiler into its token array, so no message parser ships to the browser.
//   - `virtual:i18n-catalogue/<lang>`: the core namespaces (CORE_NAMESPACES: what the booking
//     form's first paint needs), keyed `<namespace>.<key>`. English ships with the portal; each
//     other language is one chunk, imported on demand (web/i18n/catalogues.ts).
//   - `virtual:i18n-catalogue/<lang>/<namespace>`: one other web namespace in one language.
//   - `virtual:i18n-namespace/<namespace>`: what a screen imports for its namespace (web/i18n
//     `<I18nNamespace>`): the English messages, static (so they land in that screen's lazy chunk,
//     not in the portal's first load), and a loader for each other language (a chunk each).

const PREFIX = 'virtual:i18n-catalogue/';
const RESOLVED = '\0i18n-catalogue:';
const NAMESPACE_PREFIX = 'virtual:i18n-namespace/';
const NAMESPACE_RESOLVED = '\0i18n-namespace:';
/** Server-only namespaces (the e-mails to hauliers, the standing-booking mails), never sent to the browser. */
export const SERVER_ONLY_NAMESPACES = new Set(['mail', 'standing']);
/** The namespaces of the portal's first load (the booking form); every other one loads with its screen. */
export const CORE_NAMESPACES = ['portal', 'validation'];
const LANGUAGES = ['en', 'de', 'pl', 'fr'];

/** The web namespaces: every folder of domain/i18n but the server-only ones. */
export function webNamespaces(i18nDir: string): string[] {
  if (!fs.existsSync(i18nDir)) return [];
  return fs
    .readdirSync(i18nDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !SERVER_ONLY_NAMESPACES.has(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/** The given namespaces' messages for `language`, compiled, keyed `<namespace>.<key>`. */
export function compiledCatalogue(
  i18nDir: string,
  language: string,
  namespaces: readonly string[] = CORE_NAMESPACES,
): { messages: Record<string, unknown>; files: string[] } {
  const messages: Record<string, unknown> = {};
  const files: string[] = [];
  for (const namespace of namespaces) {
    if (SERVER_ONLY_NAMESPACES.has(namespace)) throw new Error(`domain/i18n/${namespace} is server-only: not for the browser`);
    const file = path.join(i18nDir, namespace, `${language}.json`);
    if (!fs.existsSync(file)) continue;
    files.push(file);
    const catalogue = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    for (const [key, message] of Object.entries(catalogue)) {
      try {
        // Always the token array, even for plain text: Lingui would take a string for an uncompiled
        // message (and warn, as the browser has no compiler).
        messages[`${namespace}.${key}`] = compileMessageOrThrow(message);
      } catch (error) {
        throw new Error(`${path.relative(process.cwd(), file)}: "${key}" is not a valid ICU message: ${(error as Error).message}`);
      }
    }
  }
  return { messages, files };
}

/** The source of `virtual:i18n-namespace/<namespace>`. */
function namespaceModule(namespace: string): string {
  const loaders = LANGUAGES.filter((language) => language !== 'en')
    .map((language) => `    case ${JSON.stringify(language)}: return import(${JSON.stringify(`${PREFIX}${language}/${namespace}`)}).then((m) => m.default);`)
    .join('\n');
  return [
    `import english from ${JSON.stringify(`${PREFIX}en/${namespace}`)};`,
    `export default {`,
    `  namespace: ${JSON.stringify(namespace)},`,
    `  english,`,
    `  load(language) {`,
    `    switch (language) {`,
    loaders,
    `    default: return Promise.resolve(english);`,
    `    }`,
    `  },`,
    `};`,
  ].join('\n');
}

export function i18nCatalogues(repoRoot: string): Plugin {
  const i18nDir = path.join(repoRoot, 'domain', 'i18n');
  return {
    name: 'baywise-i18n-catalogues',
    resolveId(id) {
      if (id.startsWith(PREFIX)) return RESOLVED + id.slice(PREFIX.length);
      if (id.startsWith(NAMESPACE_PREFIX)) return NAMESPACE_RESOLVED + id.slice(NAMESPACE_PREFIX.length);
      return undefined;
    },
    load(id) {
      if (id.startsWith(NAMESPACE_RESOLVED)) {
        const namespace = id.slice(NAMESPACE_RESOLVED.length);
        if (!webNamespaces(i18nDir).includes(namespace) || CORE_NAMESPACES.includes(namespace)) {
          throw new Error(`virtual:i18n-namespace/${namespace}: not a web namespace loaded on its own (domain/i18n/${namespace})`);
        }
        return namespaceModule(namespace);
      }
      if (!id.startsWith(RESOLVED)) return undefined;
      const [language, namespace] = id.slice(RESOLVED.length).split('/');
      const { messages, files } = compiledCatalogue(i18nDir, language, namespace ? [namespace] : CORE_NAMESPACES);
      for (const file of files) this.addWatchFile(file);
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(messages))});`;
    },
  };
}
